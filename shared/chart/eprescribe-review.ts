import * as z from '../zod.js';

/*
 * Before e-prescribing (docs/code-sets-and-drug-safety.md), kept apart from drug-safety.ts so only
 * the lazy route and the step's lazy dialog load it: DoseSpot's drug is chosen inside
 * its own window, where Tidewell cannot check it, so the prescriber first sees the patient's active
 * allergies and medications and confirms them; the confirmation is audited.
 */
export interface EPrescribeReviewAllergy {
  ident: string;
  name: string;
  /** Severe, Moderate, Mild, or Severity not recorded. */
  severity: string;
  /** The allergy's recorded reaction (its description), or Reaction not recorded. */
  reaction: string;
}
export interface EPrescribeReviewMedication {
  ident: string;
  name: string;
  /** The medication's sig, when recorded. */
  instructions: string;
}
export interface EPrescribeReview {
  allergies: EPrescribeReviewAllergy[];
  medications: EPrescribeReviewMedication[];
}

/** The API names the field in front of the message ("allergyIds: must be a list of ids"). */
const reviewedIds = () =>
  z._default(
    z
      .array(z.string({ error: 'must be a list of ids' }).check(z.trim(), z.minLength(1), z.maxLength(100)), { error: 'must be a list of ids' })
      .check(z.maxLength(500)),
    [],
  );
/** What the prescriber confirmed: the ids of the allergies and medications the step showed. */
export const EPrescribeReviewConfirmBody = z.object({
  allergyIds: reviewedIds(),
  medicationIds: reviewedIds(),
});
export type EPrescribeReviewConfirmBody = z.infer<typeof EPrescribeReviewConfirmBody>;

export interface EPrescribeReviewConfirmation {
  confirmedAt: string;
  by: { userId: string; name: string };
}

export const EPRESCRIBE_REVIEW_MESSAGES = {
  title: 'Before e-prescribing',
  allergies: 'Active allergies',
  medications: 'Active medications',
  /** Spec chart §"Allergies card" empty text, for the active filter. */
  noAllergies: 'No Active allergies',
  noMedications: 'No active medications',
  severityNotRecorded: 'Severity not recorded',
  reactionNotRecorded: 'Reaction not recorded',
  checkedOnSync:
    'DoseSpot does not see this list. Prescriptions written in DoseSpot are checked against these allergies and medications when they come back to the chart.',
  confirm: 'Continue to DoseSpot',
  changed: 'The allergies or medications changed while this list was open. Check the updated list before continuing.',
  loadFailed: 'The allergies and medications could not be loaded. Please try again.',
} as const;

export function reviewedAllergyText(a: Pick<EPrescribeReviewAllergy, 'name' | 'severity' | 'reaction'>): string {
  return `${a.name} (${a.severity}, ${a.reaction})`;
}
