/** Spec shell §2.5 texts and timing. */
export const NOTE_RESULT_CLOSE_DELAY_MS = 2_000;

export interface NoteResultContent {
  heading: string;
  text: string;
}

/** Null when nothing is shown (the order was cancelled). */
export function noteResultContent(type: string | null, responseCode: string | null): NoteResultContent | null {
  if (responseCode === 'canceled') return null;
  if (type === 'lab') {
    return { heading: 'Order submitted!', text: 'To find the invoice, click on "View Invoice" in the patient\'s card' };
  }
  return {
    heading: 'Success!',
    text: 'If this screen is showing after ordering a lab, it may take up to 10 minutes for the lab to show in the patient chart.',
  };
}
