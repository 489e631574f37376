import * as z from '../zod.js';
import { MIN_DATE_ISO } from '../constants/dates.js';
import {
  PATIENT_GENDERS,
  PATIENT_LIMITS as L,
  PATIENT_MAX_PAGE_SIZE,
  PATIENT_PAGE_SIZE,
  PATIENT_SEARCH_MAX_QUERY,
  PATIENT_STATUSES,
  PHONE_TYPES,
} from '../constants/patients.js';
import { isIsoDate, todayIsoDate } from '../rules/dates.js';
import { Patient } from './patient-record.js';
import { isAllowedPhoneInput, nationalDigits, normalizePhone, PHONE_INPUT_MESSAGE, PHONE_LENGTH_MESSAGE, PHONE_MATCH_KINDS } from './phone.js';

/** The e-prescribing system accepts only these characters in patient name fields (spec chart-data §5). */
export const EPRESCRIBING_PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';
const EPRESCRIBING_NAME = /^[A-Za-z0-9 !"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]*$/;

export const unsupportedCharacterMessage = (fieldLabel: string) =>
  `Unsupported character found in the e-prescribing system's patient field "${fieldLabel}". ` +
  `Supported characters are letters, digits, space and ${EPRESCRIBING_PUNCTUATION}`;

export const isSupportedNameText = (value: string) => EPRESCRIBING_NAME.test(value);

/** Every message the patient form can show, in the spec's words where the spec fixes them. */
export const PATIENT_MESSAGES = {
  dobAfterToday: 'Date of birth cannot be after today',
  dobBefore1900: 'Date of birth must be after 1900',
  dobInvalid: 'Date of birth is not valid',
  invalidGender: 'Invalid gender',
  addressLine1Required: 'Address Line 1 is required',
  cityRequired: 'City is required',
  stateRequired: 'State is required',
  zipRequired: 'Zip Code is required',
  primaryPhoneRequired: 'Primary phone number is required',
  emailInvalid: 'Email is not valid',
  idInvalid: 'Patient id may contain only letters, digits, hyphen and underscore',
  phoneInput: PHONE_INPUT_MESSAGE,
  phoneLength: PHONE_LENGTH_MESSAGE,
  required: (label: string) => `${label} is required`,
  tooLong: (label: string, max: number) => `${label} must be at most ${max} characters`,
  notText: (label: string) => `${label} must be text`,
} as const;

const M = PATIENT_MESSAGES;

/** A string field: wrong types name the field; trimmed; bounded. */
function text(label: string, max: number) {
  return z.string({ error: M.notText(label) }).check(z.trim(), z.maxLength(max, M.tooLong(label, max)));
}

function requiredText(label: string, max: number) {
  return z
    .string({ error: (iss) => (iss.input === undefined || iss.input === null ? M.required(label) : M.notText(label)) })
    .check(z.trim(), z.minLength(1, M.required(label)), z.maxLength(max, M.tooLong(label, max)));
}

function nameText(label: string, max: number, required: boolean) {
  const base = required ? requiredText(label, max) : text(label, max);
  return base.check(z.refine(isSupportedNameText, unsupportedCharacterMessage(label)));
}

/** A phone as typed or as stored; normalised to +1 and ten digits (+15415550100). Empty stays empty. */
function phoneText(label: string, max = L.primaryPhoneNumber) {
  return z.pipe(
    text(label, max).check(
      z.refine((v) => v === '' || isAllowedPhoneInput(v), { message: M.phoneInput, abort: true }),
      z.refine((v) => v === '' || nationalDigits(v) !== null, M.phoneLength),
    ),
    z.transform((v) => (v === '' ? '' : (normalizePhone(v) ?? v))),
  );
}

const dob = z.string({ error: M.dobInvalid }).check(
  z.trim(),
  z.refine((v) => v === '' || isIsoDate(v), { message: M.dobInvalid, abort: true }),
  z.refine((v) => v === '' || v >= MIN_DATE_ISO, M.dobBefore1900),
  z.refine((v) => v === '' || v <= todayIsoDate(), M.dobAfterToday),
);

export const PatientPhone = z.object({
  type: z.enum(PHONE_TYPES, { error: 'Phone type must be mobile, home or work' }),
  number: phoneText('Phone number').check(z.refine((v) => v !== '', M.required('Phone number'))),
});

export const PatientAddressInput = z.object({
  line1: z.optional(text('Address Line 1', L.addressLine1)),
  line2: z.optional(text('Address Line 2', L.addressLine2)),
  city: z.optional(text('City', L.city)),
  state: z.optional(text('State', L.state)),
  zip: z.optional(text('Zip Code', L.zip)),
});

export const HealthInsurance = z.object({
  payerName: z.optional(text('Payer name', L.freeText)),
  memberId: z.optional(text('Member ID', L.freeText)),
  groupId: z.optional(text('Group ID', L.freeText)),
  payerPhoneNumber: z.optional(phoneText('Payer phone number')),
});

export const EmergencyContact = z.object({
  name: z.optional(text('Emergency contact name', L.freeText)),
  phoneNumber: z.optional(phoneText('Emergency contact phone number')),
});

const patientFields = {
  /** Optional client-chosen id on create (repeating it gives 409); ignored on update. */
  id: z.optional(
    z
      .string({ error: M.notText('Patient id') })
      .check(z.trim(), z.minLength(1, M.required('Patient id')), z.maxLength(L.id, M.tooLong('Patient id', L.id)), z.regex(/^[A-Za-z0-9_-]+$/, M.idInvalid)),
  ),
  firstName: nameText('First Name', L.firstName, true),
  lastName: nameText('Last Name', L.lastName, true),
  middleName: z.optional(nameText('Middle Name', L.middleName, false)),
  chosenFirstName: z.optional(text('Chosen First Name', L.chosenFirstName)),
  chosenLastName: z.optional(text('Chosen Last Name', L.chosenLastName)),
  dob: z.optional(dob),
  gender: z.enum(PATIENT_GENDERS, { error: M.invalidGender }),
  email: z.optional(text('Email', L.email).check(z.refine((v) => v === '' || z.email().safeParse(v).success, M.emailInvalid))),
  phones: z.optional(z.array(PatientPhone, { error: 'Phones must be a list' }).check(z.maxLength(L.phones, `At most ${L.phones} phone numbers`))),
  primaryPhoneNumber: z.optional(phoneText('Primary phone number')),
  address: z.optional(PatientAddressInput),
  healthInsurance: z.optional(HealthInsurance),
  emergencyContact: z.optional(EmergencyContact),
  preferredPharmacy: z.optional(text('Preferred pharmacy', L.freeText)),
  hipaaAuthorizationAccepted: z.optional(z.boolean({ error: 'HIPAA authorization accepted must be true or false' })),
  /** The patient's primary provider (spec chart-data: practitioner.name); {{primary provider}} expands from it. */
  practitioner: z.optional(z.object({ name: text('Primary provider', L.freeText) }, { error: 'Primary provider must be an object with a name' })),
};

/**
 * Create and update body. Unknown fields are dropped (zod's default strip), so a client cannot
 * set status, timestamps or practice.
 */
export const PatientInput = z.object(patientFields);
export type PatientInput = z.output<typeof PatientInput>;
/** What a form holds before parsing (phones as typed). */
export type PatientFormValues = z.input<typeof PatientInput>;

function mandatory(label: string, max: number, message: string) {
  return z
    .string({ error: (iss) => (iss.input === undefined || iss.input === null ? message : M.notText(label)) })
    .check(z.trim(), z.minLength(1, message), z.maxLength(max, M.tooLong(label, max)));
}

/**
 * Full validation (requested with `?fullValidation=true`, e.g. before e-prescribing): the address
 * and the primary phone number become mandatory, with the spec's messages. Built as field
 * overrides (not a refinement) so these messages appear together with the base rules' messages.
 */
const FullAddress = z.extend(PatientAddressInput, {
  line1: mandatory('Address Line 1', L.addressLine1, M.addressLine1Required),
  city: mandatory('City', L.city, M.cityRequired),
  state: mandatory('State', L.state, M.stateRequired),
  zip: mandatory('Zip Code', L.zip, M.zipRequired),
});

export const PatientFullInput = z.extend(PatientInput, {
  // A missing address is parsed as {} so each mandatory field reports its own message.
  address: z.prefault(FullAddress, {} as z.input<typeof FullAddress>),
  primaryPhoneNumber: z.pipe(
    mandatory('Primary phone number', L.primaryPhoneNumber, M.primaryPhoneRequired).check(
      z.refine((v) => isAllowedPhoneInput(v), { message: M.phoneInput, abort: true }),
      z.refine((v) => nationalDigits(v) !== null, M.phoneLength),
    ),
    z.transform((v) => normalizePhone(v) ?? v),
  ),
});
export type PatientFullInput = z.output<typeof PatientFullInput>;

export { Patient } from './patient-record.js';

const boolParam = z.pipe(
  z.enum(['true', 'false', '1', '0'], { error: 'Must be true or false' }),
  z.transform((v) => v === 'true' || v === '1'),
);

/** GET /v1/patients query. */
export const PatientListQuery = z.object({
  limit: z._default(
    z.coerce
      .number({ error: 'limit must be a number' })
      .check(
        z.int('limit must be a whole number'),
        z.gte(1, 'limit must be at least 1'),
        z.lte(PATIENT_MAX_PAGE_SIZE, `limit must be at most ${PATIENT_MAX_PAGE_SIZE}`),
      ),
    PATIENT_PAGE_SIZE,
  ),
  offset: z._default(
    z.coerce.number({ error: 'offset must be a number' }).check(z.int('offset must be a whole number'), z.gte(0, 'offset must be at least 0')),
    0,
  ),
  status: z._default(z.enum(PATIENT_STATUSES, { error: 'status must be active or DELETED' }), 'active'),
  q: z.optional(z.string().check(z.trim(), z.maxLength(PATIENT_SEARCH_MAX_QUERY, `q must be at most ${PATIENT_SEARCH_MAX_QUERY} characters`))),
});
export type PatientListQuery = z.output<typeof PatientListQuery>;

/** POST/PUT query: `fullValidation=true` applies PatientFullInput. */
export const PatientWriteQuery = z.object({ fullValidation: z.optional(boolParam) });
export type PatientWriteQuery = z.output<typeof PatientWriteQuery>;

export const PatientIdParams = z.object({
  patientId: z.string().check(z.minLength(1), z.maxLength(200, 'patientId is too long')),
});

/**
 * Why a search result matched: by name (exactly, as a prefix, or contained) or by phone, where the
 * typed digits are the number, its start, a run inside it, in order with gaps (subsequence), or the
 * same digits in another order (scrambled). A query that mixes names and digits reports its weakest part.
 */
export const PatientSearchMatch = z.discriminatedUnion('by', [
  z.object({ id: z.string(), by: z.literal('name'), kind: z.enum(['exact', 'prefix', 'contains']) }),
  z.object({ id: z.string(), by: z.literal('phone'), kind: z.enum(PHONE_MATCH_KINDS) }),
]);
export type PatientSearchMatch = z.infer<typeof PatientSearchMatch>;

export const PatientListResponse = z.object({
  items: z.array(Patient),
  total: z.number().check(z.int()),
  limit: z.number().check(z.int()),
  offset: z.number().check(z.int()),
  /** Search only: one entry per item of this page, in the same order. */
  matches: z.optional(z.array(PatientSearchMatch)),
});
export type PatientListResponse = z.infer<typeof PatientListResponse>;
