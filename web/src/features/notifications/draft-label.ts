/**
 * "Draft phone call for Maria Lopez (42)": which kind of note waits, for whom. The DRAFT
 * notification's text names the kind; the patient comes from its data.
 */
export function draftLabel(text: string | null | undefined, patientName: string | undefined): string {
  const kind = text?.trim() || 'Draft note';
  return patientName ? `${kind} for ${patientName}` : kind;
}
