import { PATIENT_GENDERS } from '../../../../shared/constants/patients.js';
import { formatPhone } from '../../../../shared/patients/phone.js';
import type { Patient, PatientFormValues } from '../../../../shared/patients/patient-schema.js';
import { isoToUsDate, usDateToIso } from '../../../../shared/rules/dates.js';

/** What the form's inputs hold: plain strings, dates as MM/DD/YYYY and phones as typed. */
export interface PatientFormState {
  firstName: string;
  middleName: string;
  lastName: string;
  chosenFirstName: string;
  chosenLastName: string;
  dob: string;
  gender: string | null;
  email: string;
  mobilePhone: string;
  homePhone: string;
  workPhone: string;
  addressLine1: string;
  addressLine2: string;
  city: string;
  state: string;
  zip: string;
  payerName: string;
  memberId: string;
  groupId: string;
  payerPhoneNumber: string;
  emergencyContactName: string;
  emergencyContactPhone: string;
  preferredPharmacy: string;
}

export type PatientFormField = keyof PatientFormState;

export const EMPTY_PATIENT_FORM: PatientFormState = {
  firstName: '',
  middleName: '',
  lastName: '',
  chosenFirstName: '',
  chosenLastName: '',
  dob: '',
  gender: null,
  email: '',
  mobilePhone: '',
  homePhone: '',
  workPhone: '',
  addressLine1: '',
  addressLine2: '',
  city: '',
  state: '',
  zip: '',
  payerName: '',
  memberId: '',
  groupId: '',
  payerPhoneNumber: '',
  emergencyContactName: '',
  emergencyContactPhone: '',
  preferredPharmacy: '',
};

const PHONE_FIELDS = [
  { type: 'mobile', field: 'mobilePhone' },
  { type: 'home', field: 'homePhone' },
  { type: 'work', field: 'workPhone' },
] as const;

/** API field path → form field, for the paths that are not a phone list entry. */
const FIELD_FOR_PATH: Record<string, PatientFormField> = {
  firstName: 'firstName',
  middleName: 'middleName',
  lastName: 'lastName',
  chosenFirstName: 'chosenFirstName',
  chosenLastName: 'chosenLastName',
  dob: 'dob',
  gender: 'gender',
  email: 'email',
  'address.line1': 'addressLine1',
  'address.line2': 'addressLine2',
  'address.city': 'city',
  'address.state': 'state',
  'address.zip': 'zip',
  'healthInsurance.payerName': 'payerName',
  'healthInsurance.memberId': 'memberId',
  'healthInsurance.groupId': 'groupId',
  'healthInsurance.payerPhoneNumber': 'payerPhoneNumber',
  'emergencyContact.name': 'emergencyContactName',
  'emergencyContact.phoneNumber': 'emergencyContactPhone',
  preferredPharmacy: 'preferredPharmacy',
};

export function formStateFromPatient(patient: Patient): PatientFormState {
  const phoneOf = (type: string) => patient.phones?.find((phone) => phone.type === type)?.number ?? '';
  const mobile = phoneOf('mobile') || (patient.phones?.length ? '' : (patient.primaryPhoneNumber ?? ''));
  return {
    firstName: patient.firstName,
    middleName: patient.middleName ?? '',
    lastName: patient.lastName,
    chosenFirstName: patient.chosenFirstName ?? '',
    chosenLastName: patient.chosenLastName ?? '',
    dob: patient.dob ? isoToUsDate(patient.dob) : '',
    gender: patient.gender ?? null,
    email: patient.email ?? '',
    mobilePhone: formatPhone(mobile),
    homePhone: formatPhone(phoneOf('home')),
    workPhone: formatPhone(phoneOf('work')),
    addressLine1: patient.address?.line1 ?? '',
    addressLine2: patient.address?.line2 ?? '',
    city: patient.address?.city ?? '',
    state: patient.address?.state ?? '',
    zip: patient.address?.zip ?? '',
    payerName: patient.healthInsurance?.payerName ?? '',
    memberId: patient.healthInsurance?.memberId ?? '',
    groupId: patient.healthInsurance?.groupId ?? '',
    payerPhoneNumber: formatPhone(patient.healthInsurance?.payerPhoneNumber),
    emergencyContactName: patient.emergencyContact?.name ?? '',
    emergencyContactPhone: formatPhone(patient.emergencyContact?.phoneNumber),
    preferredPharmacy: patient.preferredPharmacy ?? '',
  };
}

export interface PatientRequestDraft {
  /** The body to validate with the shared schema and send. */
  body: PatientFormValues;
  /** Which form field each entry of `body.phones` came from. */
  phoneFields: PatientFormField[];
  /** Which form field `body.primaryPhoneNumber` came from. */
  primaryPhoneField: PatientFormField | null;
}

/**
 * Builds the API body from what was typed. Values are sent as typed (trimmed by the schema) so
 * the shared rules, not this mapping, decide what is valid; a date that is not MM/DD/YYYY is sent
 * as typed and the schema reports it.
 */
export function requestDraftFromForm(form: PatientFormState): PatientRequestDraft {
  const phoneEntries = PHONE_FIELDS.filter(({ field }) => form[field].trim() !== '');
  const primary = phoneEntries[0] ?? null;
  const dobText = form.dob.trim();
  const body: PatientFormValues = {
    firstName: form.firstName,
    middleName: form.middleName,
    lastName: form.lastName,
    chosenFirstName: form.chosenFirstName,
    chosenLastName: form.chosenLastName,
    dob: dobText === '' ? '' : (usDateToIso(dobText) ?? dobText),
    // An unset gender is sent as missing so the schema reports 'Invalid gender'.
    gender: (form.gender ?? undefined) as (typeof PATIENT_GENDERS)[number],
    email: form.email,
    phones: phoneEntries.map(({ type, field }) => ({ type, number: form[field] })),
    primaryPhoneNumber: primary ? form[primary.field] : '',
    address: { line1: form.addressLine1, line2: form.addressLine2, city: form.city, state: form.state, zip: form.zip },
    healthInsurance: {
      payerName: form.payerName,
      memberId: form.memberId,
      groupId: form.groupId,
      payerPhoneNumber: form.payerPhoneNumber,
    },
    emergencyContact: { name: form.emergencyContactName, phoneNumber: form.emergencyContactPhone },
    preferredPharmacy: form.preferredPharmacy,
  };
  return { body, phoneFields: phoneEntries.map(({ field }) => field), primaryPhoneField: primary?.field ?? null };
}

export interface FormErrors {
  /** Messages shown under their fields. */
  fields: Partial<Record<PatientFormField, string>>;
  /** Messages with no field on this form. */
  other: string[];
}

/** Maps API-shaped field errors ('address.line1', 'phones.1.number') onto the form's fields. */
export function formErrorsFromFieldErrors(fieldErrors: Record<string, string>, draft: PatientRequestDraft): FormErrors {
  const result: FormErrors = { fields: {}, other: [] };
  for (const [path, message] of Object.entries(fieldErrors)) {
    const field = fieldForPath(path, draft);
    if (field && !result.fields[field]) result.fields[field] = message;
    else if (!field) result.other.push(message);
  }
  return result;
}

function fieldForPath(path: string, draft: PatientRequestDraft): PatientFormField | null {
  if (path in FIELD_FOR_PATH) return FIELD_FOR_PATH[path];
  if (path === 'primaryPhoneNumber') return draft.primaryPhoneField;
  const phone = /^phones\.(\d+)(?:\.|$)/.exec(path);
  if (phone) return draft.phoneFields[Number(phone[1])] ?? null;
  return null;
}
