/** What the HIPAA waiver endpoints answer, read by the web client. */
import * as z from '../zod.js';

export { Patient as HipaaAccepted } from './patient-record.js';

/** POST /v1/patients/{patientId}/patient_documents/request_acceptance: the request was emailed to the patient. */
export const HipaaAcceptanceRequested = z.object({ requested: z.literal(true), messageId: z.string() });
