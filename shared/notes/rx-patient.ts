import { PatientFullInput } from '../patients/patient-schema.js';

/**
 * Spec chart-data §5, shell §2.6: a patient whose profile fails the full (e-prescribing) validation
 * cannot be prescribed for; the window lists these instead of the form, and signing is refused.
 */
export function ePrescribeProblems(patient: Record<string, unknown>): string[] {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { id, createdAt, updatedAt, archived, ...profile } = patient;
  const parsed = PatientFullInput.safeParse(profile);
  if (parsed.success) return [];
  return [...new Set(parsed.error.issues.map((i) => i.message))];
}

export const PATIENT_PROBLEMS_TITLE = "The patient's profile must be fixed before prescribing:";
