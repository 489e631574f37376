import { primaryPhone } from '../../shared/patients/patient-derived.js';
import { PATIENT_MESSAGES, type Patient } from '../../shared/patients/patient-schema.js';
import { doseSpotPhone, pushPatient, type DoseSpotApiAuth } from '../lib/adapters/dosespot.js';
import { ValidationError } from '../lib/errors.js';
import { getDoseSpotPatientId, putDoseSpotPatientLink } from '../data/dosespot/dosespot-records.js';

export { doseSpotPatientKey, listDoseSpotLinks, markDoseSpotSynced, type DoseSpotLink } from '../data/dosespot/dosespot-records.js';

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
  const stored = await getDoseSpotPatientId(practiceId, patient.id);
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
  // Another request linked the patient first: DoseSpot matched both by the record number; keep the first.
  if (!(await putDoseSpotPatientLink(practiceId, patient.id, doseSpotPatientId, now)))
    return (await getDoseSpotPatientId(practiceId, patient.id)) ?? doseSpotPatientId;
  return doseSpotPatientId;
}
