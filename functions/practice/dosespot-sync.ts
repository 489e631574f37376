import { randomUUID } from 'node:crypto';
import { DOSESPOT_MESSAGES, type DoseSpotSyncResult } from '../../shared/partners/dosespot.js';
import { ExternalPrescription } from '../../shared/partners/partner-schema.js';
import { chartItemKey, CHART_SECTION_KEYS } from '../chart/chart-repository.js';
import { DOSESPOT_PARTNER_ID, listPrescriptions, toExternalPrescription } from '../lib/adapters/dosespot.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { DependencyError, NotFoundError, ValidationError } from '../lib/errors.js';
import { externalNote, storedDelivery, writeDeliveredNote } from '../notes/delivery-records.js';
import { getPatient, PATIENT_NOT_FOUND } from '../patients/patient-repository.js';
import { doseSpotPatientIdFor } from './dosespot-patient-link.js';
import { doseSpotApiAuth, doseSpotConfig, doseSpotUserOf } from './dosespot-sso.js';

/**
 * The chart medication a DoseSpot prescription adds (spec chart-data §3 medication), linked to its
 * note and carrying DoseSpot's id: written with the note, so the medications card shows what was
 * prescribed in DoseSpot exactly once.
 */
export function medicationFromDoseSpot(practiceId: string, patientId: string, noteId: string, p: ExternalPrescription, written: string, at: string) {
  const start = written.slice(0, 10);
  const end = p.daysOfTreatment ? new Date(Date.parse(`${start}T00:00:00Z`) + p.daysOfTreatment * 86_400_000).toISOString().slice(0, 10) : undefined;
  const ident = randomUUID();
  const medication = {
    ident,
    patientId,
    productName: p.medicationName,
    strength: p.strength,
    dosageForm: p.form,
    sigText: p.instructions,
    status: 'Active',
    start,
    end,
    rxId: noteId,
    noteId,
    doseSpotRxId: p.id,
    code: p.ndcNumber ? { type: 'NDC', value: p.ndcNumber } : undefined,
    daysSupply: p.daysOfTreatment,
    refills: p.numberOfRefills,
    quantity: p.quantityPrescribed,
    routeOfAdministration: p.routeOfAdministration,
    transmissionMethod: 'DoseSpot',
    daw: p.noSubstitutions ? 1 : 0,
    pinned: false,
    createdAt: at,
    updatedAt: at,
    version: 1,
  };
  return {
    ...Object.fromEntries(Object.entries(medication).filter(([, v]) => v !== undefined)),
    ident,
    practiceId,
    sk: chartItemKey(patientId, 'medications', ident),
    entityType: `CHART_${CHART_SECTION_KEYS.medications}`,
  };
}

/**
 * syncPatientRx: the patient's DoseSpot prescriptions become RX_DOSESPOT notes (read-only, spec
 * notes §3 external prescription fields) and active chart medications, one per DoseSpot
 * prescription however often it runs.
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
    const medication = medicationFromDoseSpot(auth.practiceId, patient.id, note.noteId, prescription, written, at);
    if ((await writeDeliveredNote(auth.practiceId, DOSESPOT_PARTNER_ID, prescription.id, note, at, [medication])).replayed) continue;
    await writeAudit(auth, { action: 'create', entity: 'NOTE', entityId: note.noteId, patientId: patient.id });
    await writeAudit(auth, { action: 'create', entity: 'medication', entityId: medication.ident, patientId: patient.id });
    created.push(note.noteId);
  }
  return { created: created.length, noteIds: created };
}
