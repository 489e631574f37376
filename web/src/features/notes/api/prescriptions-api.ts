import type { DrugSafetyCheckResponse } from '../../../../../shared/chart/drug-safety.js';
import type { EPrescribeReview, EPrescribeReviewConfirmation } from '../../../../../shared/chart/eprescribe-review.js';
import { DrugSafetyCheckAnswer, EPrescribeReviewAnswer, EPrescribeReviewConfirmed, NotePdf } from '../../../../../shared/notes/note-responses.js';
import { apiRequest } from '../../../lib/api-client.js';

const patientPath = (patientId: string, rest: string) => `/v1/patients/${encodeURIComponent(patientId)}/${rest}`;

/** A prescription note's PDF, base64 with its type (spec notes §8). */
export function fetchPrescriptionPdf(noteId: string): Promise<{ base64: string; contentType: string }> {
  return apiRequest({ path: `/v1/notes/${encodeURIComponent(noteId)}/prescription-pdf` }, NotePdf);
}

/** One drug's allergy and interaction check against the patient's chart. */
export function checkDrugSafety(patientId: string, inventoryId: string, signal?: AbortSignal): Promise<DrugSafetyCheckResponse> {
  return apiRequest({ method: 'POST', path: patientPath(patientId, 'drug-safety-check'), body: { inventoryId }, signal }, DrugSafetyCheckAnswer);
}

/** The allergies and medications a prescriber reviews before e-prescribing. */
export function fetchEPrescribeReview(patientId: string, signal?: AbortSignal): Promise<EPrescribeReview> {
  return apiRequest({ path: patientPath(patientId, 'eprescribe-review'), signal }, EPrescribeReviewAnswer);
}

/** Records that the prescriber saw these allergies and medications; 409 when the chart changed since. */
export function confirmEPrescribeReview(patientId: string, body: { allergyIds: string[]; medicationIds: string[] }): Promise<EPrescribeReviewConfirmation> {
  return apiRequest({ method: 'POST', path: patientPath(patientId, 'eprescribe-review'), body }, EPrescribeReviewConfirmed);
}
