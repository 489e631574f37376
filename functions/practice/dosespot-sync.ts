import { randomUUID } from 'node:crypto';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Note } from '../../shared/notes/note-schema.js';
import { DOSESPOT_MESSAGES, type DoseSpotSyncResult } from '../../shared/partners/dosespot.js';
import { ExternalPrescription } from '../../shared/partners/partner-schema.js';
import { DOSESPOT_PARTNER_ID, listPrescriptions, pushPatient, toExternalPrescription } from '../lib/adapters/dosespot.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { DependencyError, NotFoundError } from '../lib/errors.js';
import { isConditionFailure } from '../lib/table/condition-failure.js';
import { documentClient } from '../lib/table/client.js';
import { tableName } from '../lib/table/definition.js';
import { toItem } from '../notes/note-repository.js';
import { getPatient, PATIENT_NOT_FOUND } from '../patients/patient-repository.js';
import { doseSpotConfig, doseSpotUserOf } from './dosespot-sso.js';

/**
 * The same key a signed delivery leaves (pk practiceId, sk DELIVERY#dosespot#<DoseSpot prescription id>),
 * written in one transaction with the note: a prescription already synced is never written twice.
 */
const syncedKey = (prescriptionId: string) => `DELIVERY#${DOSESPOT_PARTNER_ID}#${prescriptionId}`;

async function alreadySynced(practiceId: string, prescriptionId: string): Promise<boolean> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: syncedKey(prescriptionId) }, ConsistentRead: true }));
  return !!out.Item;
}

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
  const sso = { clinicId: config.clinicId, clinicKey: config.clinicKey, doseSpotUserId };
  let prescriptions;
  try {
    const doseSpotPatientId = await pushPatient(config.baseUrl, sso, { id: patient.id, firstName: patient.firstName, lastName: patient.lastName, dateOfBirth: patient.dob ?? '', gender: patient.gender ?? null });
    prescriptions = await listPrescriptions(config.baseUrl, sso, doseSpotPatientId);
  } catch {
    throw new DependencyError(502, DOSESPOT_MESSAGES.failed, 'DOSESPOT_SYNC_FAILED');
  }
  await writeAudit(auth, { action: 'read', entity: 'dosespot-prescriptions', patientId });

  const created: string[] = [];
  for (const raw of prescriptions) {
    const parsed = ExternalPrescription.safeParse(toExternalPrescription(raw));
    if (!parsed.success) continue;
    const prescription = parsed.data;
    if (await alreadySynced(auth.practiceId, prescription.id)) continue;
    const at = now.toISOString();
    const written = prescription.datePrescribed && !Number.isNaN(Date.parse(prescription.datePrescribed)) ? new Date(prescription.datePrescribed).toISOString() : at;
    const note: Note = {
      noteId: randomUUID(),
      noteType: 'RX_DOSESPOT',
      // Written and signed by the prescriber in DoseSpot: shown on the timeline like a signed note.
      status: 'SIGNED',
      signed: written,
      eventTimestamp: written,
      timestamp: at,
      createdAt: at,
      data: { source: DOSESPOT_PARTNER_ID, prescription, deliveryId: prescription.id },
      patientId: patient.id,
      hidden: false,
      files: [],
      author: { userId: `partner:${DOSESPOT_PARTNER_ID}`, name: 'DoseSpot', email: '' },
      onBehalfOf: null,
      noteVersion: 1,
      signedBy: null,
    };
    try {
      await documentClient().send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: tableName(),
                Item: { practiceId: auth.practiceId, sk: syncedKey(prescription.id), entityType: 'PARTNER_DELIVERY', partnerId: DOSESPOT_PARTNER_ID, deliveryId: prescription.id, noteId: note.noteId, receivedAt: at },
                ConditionExpression: 'attribute_not_exists(sk)',
              },
            },
            { Put: { TableName: tableName(), Item: toItem(auth.practiceId, note), ConditionExpression: 'attribute_not_exists(sk)' } },
          ],
        }),
      );
    } catch (error) {
      // A sync running at the same moment wrote this prescription first.
      if (isConditionFailure(error)) continue;
      throw error;
    }
    await writeAudit(auth, { action: 'create', entity: 'NOTE', entityId: note.noteId, patientId: patient.id });
    created.push(note.noteId);
  }
  return { created: created.length, noteIds: created };
}
