import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { primaryPhone } from '../../shared/patients/patient-derived.js';
import { PATIENT_MESSAGES, type Patient } from '../../shared/patients/patient-schema.js';
import { doseSpotPhone, pushPatient, type DoseSpotApiAuth } from '../lib/adapters/dosespot.js';
import { ValidationError } from '../lib/errors.js';
import { isConditionFailure } from '../lib/table/condition-failure.js';
import { documentClient } from '../lib/table/client.js';
import { tableName } from '../lib/table/definition.js';
import { queryAll } from '../lib/table/query-all.js';

/*
 * DoseSpot's PatientId for a Tidewell patient: pk practiceId, sk DOSESPOT_PATIENT#<patientId>,
 * written once when the patient is first sent, so later sign-ons and syncs reuse it instead of
 * adding the patient to DoseSpot again.
 */
export const doseSpotPatientKey = (patientId: string) => `DOSESPOT_PATIENT#${patientId}`;

async function storedDoseSpotPatientId(practiceId: string, patientId: string): Promise<string | undefined> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: doseSpotPatientKey(patientId) }, ConsistentRead: true }));
  return typeof out.Item?.doseSpotPatientId === 'string' ? out.Item.doseSpotPatientId : undefined;
}

/**
 * What DoseSpot refuses a patient without (address and a US primary phone), in the messages of the
 * chart's full validation, so the prescriber can fix the chart instead of meeting a vendor error.
 */
export function doseSpotProfileErrors(patient: Patient): Record<string, string> {
  const errors: Record<string, string> = {};
  const blank = (v: string | undefined) => !v || !v.trim();
  if (blank(patient.address?.line1)) errors['address.line1'] = PATIENT_MESSAGES.addressLine1Required;
  if (blank(patient.address?.city)) errors['address.city'] = PATIENT_MESSAGES.cityRequired;
  if (blank(patient.address?.state)) errors['address.state'] = PATIENT_MESSAGES.stateRequired;
  if (blank(patient.address?.zip)) errors['address.zip'] = PATIENT_MESSAGES.zipRequired;
  if (!doseSpotPhone(primaryPhone(patient))) errors.primaryPhoneNumber = PATIENT_MESSAGES.primaryPhoneRequired;
  return errors;
}

/** The patient's DoseSpot PatientId: the stored one, else the one DoseSpot gives when the patient is sent. */
export async function doseSpotPatientIdFor(practiceId: string, baseUrl: string, auth: DoseSpotApiAuth, patient: Patient, now = new Date()): Promise<string> {
  const stored = await storedDoseSpotPatientId(practiceId, patient.id);
  if (stored) return stored;
  const errors = doseSpotProfileErrors(patient);
  const [first] = Object.values(errors);
  if (first) throw new ValidationError(first, errors);
  const phone = primaryPhone(patient);
  const doseSpotPatientId = await pushPatient(baseUrl, auth, {
    id: patient.id,
    firstName: patient.firstName,
    lastName: patient.lastName,
    dateOfBirth: patient.dob ?? '',
    gender: patient.gender ?? null,
    address: patient.address ?? null,
    phone: phone ?? null,
    phoneType: patient.phones?.find((p) => p.number === phone)?.type ?? null,
  });
  try {
    await documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: { practiceId, sk: doseSpotPatientKey(patient.id), entityType: 'DOSESPOT_PATIENT', patientId: patient.id, doseSpotPatientId, linkedAt: now.toISOString() },
        ConditionExpression: 'attribute_not_exists(sk)',
      }),
    );
  } catch (err) {
    // Another request linked the patient first: DoseSpot matched both by the record number; keep the first.
    if (!isConditionFailure(err)) throw err;
    return (await storedDoseSpotPatientId(practiceId, patient.id)) ?? doseSpotPatientId;
  }
  return doseSpotPatientId;
}

export interface DoseSpotLink {
  patientId: string;
  doseSpotPatientId: string;
  /** When the scheduled sync last read this patient's prescriptions. */
  lastSyncedAt?: string;
}

/** Every patient sent to DoseSpot (one Query on the DOSESPOT_PATIENT# prefix): the ones that can have prescriptions there. */
export async function listDoseSpotLinks(practiceId: string): Promise<DoseSpotLink[]> {
  const items = await queryAll({
    KeyConditionExpression: 'practiceId = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': practiceId, ':prefix': doseSpotPatientKey('') },
    ConsistentRead: true,
  });
  return items
    .filter((i) => typeof i.patientId === 'string' && typeof i.doseSpotPatientId === 'string')
    .map((i) => ({ patientId: i.patientId as string, doseSpotPatientId: i.doseSpotPatientId as string, ...(typeof i.lastSyncedAt === 'string' ? { lastSyncedAt: i.lastSyncedAt } : {}) }));
}

export async function markDoseSpotSynced(practiceId: string, patientId: string, at: Date): Promise<void> {
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { practiceId, sk: doseSpotPatientKey(patientId) },
      UpdateExpression: 'SET lastSyncedAt = :at',
      ConditionExpression: 'attribute_exists(sk)',
      ExpressionAttributeValues: { ':at': at.toISOString() },
    }),
  );
}
