import { DOSESPOT_MESSAGES, type DoseSpotSyncResult } from '../../shared/partners/dosespot.js';
import { ExternalPrescription } from '../../shared/partners/partner-schema.js';
import { DOSESPOT_PARTNER_ID, listPrescriptions, toExternalPrescription } from '../lib/adapters/dosespot.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { DependencyError, NotFoundError, ValidationError } from '../lib/errors.js';
import { externalNote, storedDelivery, writeDeliveredNote } from '../notes/delivery-records.js';
import { getPatient, PATIENT_NOT_FOUND } from '../patients/patient-repository.js';
import { doseSpotPatientIdFor } from './dosespot-patient-link.js';
import { doseSpotApiAuth, doseSpotConfig, doseSpotUserOf } from './dosespot-sso.js';

/**
 * syncPatientRx: the patient's DoseSpot prescriptions become RX_DOSESPOT notes (read-only, spec
 * notes §3 external prescription fields), one per DoseSpot prescription however often it runs.
 */
export async function syncPatientRx(auth: AuthContext, patientId: string, now = new Date()): Promise<DoseSpotSyncResult> {
  const config = await doseSpotConfig();
  if (!config) throw new DependencyError(503, DOSESPOT_MESSAGES.failed, 'DOSESPOT_NOT_CONFIGURED');
  const doseSpotUserId = await doseSpotUserOf(auth, config);
  const patient = await getPatient(auth.practiceId, patientId);
  if (!patient) throw new NotFoundError(PATIENT_NOT_FOUND);
  const apiAuth = doseSpotApiAuth(config, doseSpotUserId);
  let prescriptions;
  try {
    const doseSpotPatientId = await doseSpotPatientIdFor(auth.practiceId, config.baseUrl, apiAuth, patient);
    prescriptions = await listPrescriptions(config.baseUrl, apiAuth, doseSpotPatientId);
  } catch (err) {
    if (err instanceof ValidationError) throw err;
    throw new DependencyError(502, DOSESPOT_MESSAGES.failed, 'DOSESPOT_SYNC_FAILED');
  }
  await writeAudit(auth, { action: 'read', entity: 'dosespot-prescriptions', patientId });

  const created: string[] = [];
  for (const raw of prescriptions) {
    const parsed = ExternalPrescription.safeParse(toExternalPrescription(raw));
    if (!parsed.success) continue;
    const prescription = parsed.data;
    if (await storedDelivery(auth.practiceId, DOSESPOT_PARTNER_ID, prescription.id)) continue;
    const at = now.toISOString();
    const written = prescription.datePrescribed && !Number.isNaN(Date.parse(prescription.datePrescribed)) ? new Date(prescription.datePrescribed).toISOString() : at;
    const note = externalNote(
      {
        noteType: 'RX_DOSESPOT',
        // Written and signed by the prescriber in DoseSpot: shown on the timeline like a signed note.
        status: 'SIGNED',
        signed: written,
        eventTimestamp: written,
        patientId: patient.id,
        data: { source: DOSESPOT_PARTNER_ID, prescription, deliveryId: prescription.id },
        partnerId: DOSESPOT_PARTNER_ID,
        authorName: 'DoseSpot',
      },
      at,
    );
    // A sync running at the same moment may have written this prescription first.
    if ((await writeDeliveredNote(auth.practiceId, DOSESPOT_PARTNER_ID, prescription.id, note, at)).replayed) continue;
    await writeAudit(auth, { action: 'create', entity: 'NOTE', entityId: note.noteId, patientId: patient.id });
    created.push(note.noteId);
  }
  return { created: created.length, noteIds: created };
}
