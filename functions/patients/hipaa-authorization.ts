import type { Patient } from '../../shared/patients/patient-schema.js';
import { emailSender } from '../lib/adapters/email.js';
import { EmailSendFailure } from '../lib/adapters/email-sender.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { DependencyError, NotFoundError, ValidationError } from '../lib/errors.js';
import { getPractice } from '../data/practices/practice-repository.js';
import { acceptHipaaAuthorization, getPatient, PATIENT_NOT_FOUND } from '../data/patients/patient-repository.js';

export const HIPAA_MESSAGES = {
  noEmail: 'The patient has no email address to send the waiver request to',
  requestFailed: 'Failed to request HIPAA waiver acceptance',
} as const;

/** POST /v1/patients/{patientId}/accept_hipaa_authorization (spec shell §7.5): the banner's accept. */
export async function acceptHipaa(auth: AuthContext, patientId: string): Promise<Patient> {
  const patient = await acceptHipaaAuthorization(auth.practiceId, patientId);
  await writeAudit(auth, { action: 'update', entity: 'patient-hipaa-authorization', entityId: patientId, patientId });
  return patient;
}

/**
 * POST /v1/patients/{patientId}/patient_documents/request_acceptance: emails the patient a request
 * to review and accept the HIPAA authorization, through the practice's mail transport.
 */
export async function requestHipaaAcceptance(auth: AuthContext, patientId: string): Promise<{ requested: true; messageId: string }> {
  const patient = await getPatient(auth.practiceId, patientId);
  if (!patient) throw new NotFoundError(PATIENT_NOT_FOUND);
  const to = patient.email?.trim();
  if (!to) throw new ValidationError(HIPAA_MESSAGES.noEmail, { email: HIPAA_MESSAGES.noEmail });
  const practice = await getPractice(auth.practiceId);
  const practiceName = practice?.practiceName || 'your care team';
  try {
    const sender = await emailSender();
    const sent = await sender.send(auth.practiceId, {
      to,
      from: auth.email,
      subject: `${practiceName}: please review the HIPAA authorization`,
      text: `${practiceName} asks you to review and accept the HIPAA authorization so that your care team can text you about your health. Please contact the practice to review it.`,
    });
    await writeAudit(auth, { action: 'create', entity: 'patient-hipaa-request', entityId: patientId, patientId });
    return { requested: true, messageId: sent.messageId };
  } catch (error) {
    const failure = error instanceof EmailSendFailure ? error : new EmailSendFailure('unavailable', (error as Error)?.name ?? 'Error');
    throw new DependencyError(
      failure.kind === 'throttled' || failure.kind === 'paused' || failure.kind === 'not-configured' ? 503 : 502,
      HIPAA_MESSAGES.requestFailed,
      failure.code,
      { reason: failure.kind },
    );
  }
}
