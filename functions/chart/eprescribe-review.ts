/**
 * Before e-prescribing (README "Allergy and interaction checks"): the patient's active allergies and
 * medications, shown to the prescriber before DoseSpot's window opens, and their confirmation,
 * kept on the patient's audit trail (who, when, and what the list held). Loaded with the drug-safety
 * routes (handler.ts), never on a cold start.
 */
import {
  EPRESCRIBE_REVIEW_MESSAGES,
  reviewedAllergyText,
  type EPrescribeReview,
  type EPrescribeReviewConfirmBody,
  type EPrescribeReviewConfirmation,
} from '../../shared/chart/eprescribe-review.js';
import { ALLERGY_SEVERITY_LABELS } from '../../shared/chart/constants.js';
import type { Allergy, Medication } from '../../shared/chart/sections.js';
import { maySignPrescription, RX_MESSAGES } from '../../shared/notes/rx.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { isActiveMedication } from '../lib/drug-safety/check.js';
import { ConflictError, ForbiddenError } from '../lib/errors.js';
import { dayIn, practiceTimeZone } from '../data/calendar/practice-day.js';
import { getUser } from '../data/users/user-repository.js';
import { assertPatientExists, listSection } from '../data/chart/chart-repository.js';

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);

/** The list as the chart has it now: allergies not resolved or refuted, medications active on the practice's day (the checks' own rules). */
export function reviewOf(allergies: readonly Allergy[], medications: readonly Medication[], today: string): EPrescribeReview {
  return {
    allergies: allergies
      .filter((a) => a.active !== false)
      .map((a) => ({
        ident: a.ident,
        name: a.name,
        severity: a.severity ? ALLERGY_SEVERITY_LABELS[a.severity] : EPRESCRIBE_REVIEW_MESSAGES.severityNotRecorded,
        reaction: a.description.trim() || EPRESCRIBE_REVIEW_MESSAGES.reactionNotRecorded,
      }))
      .sort(byName),
    medications: medications
      .filter((m) => isActiveMedication(m, today))
      .map((m) => ({ ident: m.ident, name: m.productName, instructions: (m.sigText ?? '').trim() }))
      .sort(byName),
  };
}

async function readReview(practiceId: string, patientId: string): Promise<EPrescribeReview> {
  await assertPatientExists(practiceId, patientId);
  const [allergies, medications, zone] = await Promise.all([
    listSection(practiceId, patientId, 'allergies'),
    listSection(practiceId, patientId, 'medications'),
    practiceTimeZone(practiceId),
  ]);
  return reviewOf(allergies, medications, dayIn(new Date(), zone));
}

/** GET /v1/patients/{id}/eprescribe-review: the list the step shows (a chart read, audited). */
export async function getEPrescribeReview(auth: AuthContext, patientId: string): Promise<EPrescribeReview> {
  const review = await readReview(auth.practiceId, patientId);
  await writeAudit(auth, { action: 'read', entity: 'EPRESCRIBE_REVIEW', patientId, count: review.allergies.length + review.medications.length });
  return review;
}

const sameIds = (shown: readonly string[], now: readonly { ident: string }[]) => {
  const set = new Set(shown);
  return set.size === now.length && now.every((x) => set.has(x.ident));
};

/**
 * POST /v1/patients/{id}/eprescribe-review: the prescriber confirms the list the step showed. A list
 * that changed meanwhile (an allergy added in another tab) is refused with 409 and the current list,
 * so what is confirmed is what the chart holds. Only a user who may prescribe confirms.
 */
export async function confirmEPrescribeReview(
  auth: AuthContext,
  patientId: string,
  body: EPrescribeReviewConfirmBody,
  now = new Date(),
): Promise<EPrescribeReviewConfirmation> {
  const user = await getUser(auth.practiceId, auth.userId);
  if (!user || user.userStatus === 'deleted' || !maySignPrescription(user)) throw new ForbiddenError(RX_MESSAGES.cannotPrescribe);
  const review = await readReview(auth.practiceId, patientId);
  if (!sameIds(body.allergyIds, review.allergies) || !sameIds(body.medicationIds, review.medications)) {
    // The refusal carries the list: a chart read like the GET.
    await writeAudit(auth, { action: 'read', entity: 'EPRESCRIBE_REVIEW', patientId, count: review.allergies.length + review.medications.length });
    throw new ConflictError(EPRESCRIBE_REVIEW_MESSAGES.changed, { review });
  }
  const allergies = review.allergies.length ? review.allergies.map(reviewedAllergyText).join('; ') : EPRESCRIBE_REVIEW_MESSAGES.noAllergies;
  const medications = review.medications.length ? review.medications.map((m) => m.name).join('; ') : EPRESCRIBE_REVIEW_MESSAGES.noMedications;
  await writeAudit(auth, {
    action: 'create',
    entity: 'EPRESCRIBE_REVIEW',
    entityId: patientId,
    patientId,
    detail: `Shown and confirmed before e-prescribing. Allergies: ${allergies}. Medications: ${medications}.`,
  });
  return { confirmedAt: now.toISOString(), by: { userId: auth.userId, name: auth.name } };
}
