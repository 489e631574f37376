import * as z from 'zod';
import { MIN_DATE_ISO } from '../constants/dates.js';
import {
  MEMBERSHIP_STATUSES,
  PATIENT_GENDERS,
  PATIENT_LIMITS as L,
  PATIENT_MAX_PAGE_SIZE,
  PATIENT_PAGE_SIZE,
  PATIENT_SEARCH_MAX_QUERY,
  PATIENT_STATUSES,
  PHONE_TYPES,
} from '../constants/patients.js';
import { isIsoDate, todayIsoDate } from '../rules/dates.js';
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
  return z.string({ error: M.notText(label) }).trim().max(max, M.tooLong(label, max));
}

function requiredText(label: string, max: number) {
  return z
    .string({ error: (iss) => (iss.input === undefined || iss.input === null ? M.required(label) : M.notText(label)) })
    .trim()
    .min(1, M.required(label))
    .max(max, M.tooLong(label, max));
}

function nameText(label: string, max: number, required: boolean) {
  const base = required ? requiredText(label, max) : text(label, max);
  return base.refine(isSupportedNameText, unsupportedCharacterMessage(label));
}

/** A phone as typed or as stored; normalised to +1 and ten digits (+15415550100). Empty stays empty. */
function phoneText(label: string, max = L.primaryPhoneNumber) {
  return text(label, max)
    .refine((v) => v === '' || isAllowedPhoneInput(v), { message: M.phoneInput, abort: true })
    .refine((v) => v === '' || nationalDigits(v) !== null, M.phoneLength)
    .transform((v) => (v === '' ? '' : (normalizePhone(v) ?? v)));
}

const dob = z
  .string({ error: M.dobInvalid })
  .trim()
  .refine((v) => v === '' || isIsoDate(v), { message: M.dobInvalid, abort: true })
  .refine((v) => v === '' || v >= MIN_DATE_ISO, M.dobBefore1900)
  .refine((v) => v === '' || v <= todayIsoDate(), M.dobAfterToday);

export const PatientPhone = z.object({
  type: z.enum(PHONE_TYPES, { error: 'Phone type must be mobile, home or work' }),
  number: phoneText('Phone number').refine((v) => v !== '', M.required('Phone number')),
});

export const PatientAddressInput = z.object({
  line1: text('Address Line 1', L.addressLine1).optional(),
  line2: text('Address Line 2', L.addressLine2).optional(),
  city: text('City', L.city).optional(),
  state: text('State', L.state).optional(),
  zip: text('Zip Code', L.zip).optional(),
});

export const HealthInsurance = z.object({
  payerName: text('Payer name', L.freeText).optional(),
  memberId: text('Member ID', L.freeText).optional(),
  groupId: text('Group ID', L.freeText).optional(),
  payerPhoneNumber: phoneText('Payer phone number').optional(),
});

export const EmergencyContact = z.object({
  name: text('Emergency contact name', L.freeText).optional(),
  phoneNumber: phoneText('Emergency contact phone number').optional(),
});

const patientFields = {
  /** Optional client-chosen id on create (repeating it gives 409); ignored on update. */
  id: z
    .string({ error: M.notText('Patient id') })
    .trim()
    .min(1, M.required('Patient id'))
    .max(L.id, M.tooLong('Patient id', L.id))
    .regex(/^[A-Za-z0-9_-]+$/, M.idInvalid)
    .optional(),
  firstName: nameText('First Name', L.firstName, true),
  lastName: nameText('Last Name', L.lastName, true),
  middleName: nameText('Middle Name', L.middleName, false).optional(),
  chosenFirstName: text('Chosen First Name', L.chosenFirstName).optional(),
  chosenLastName: text('Chosen Last Name', L.chosenLastName).optional(),
  dob: dob.optional(),
  gender: z.enum(PATIENT_GENDERS, { error: M.invalidGender }),
  email: text('Email', L.email)
    .refine((v) => v === '' || z.email().safeParse(v).success, M.emailInvalid)
    .optional(),
  phones: z.array(PatientPhone, { error: 'Phones must be a list' }).max(L.phones, `At most ${L.phones} phone numbers`).optional(),
  primaryPhoneNumber: phoneText('Primary phone number').optional(),
  address: PatientAddressInput.optional(),
  healthInsurance: HealthInsurance.optional(),
  emergencyContact: EmergencyContact.optional(),
  preferredPharmacy: text('Preferred pharmacy', L.freeText).optional(),
  hipaaAuthorizationAccepted: z.boolean({ error: 'HIPAA authorization accepted must be true or false' }).optional(),
  /** The patient's primary provider (spec chart-data: practitioner.name); {{primary provider}} expands from it. */
  practitioner: z.object({ name: text('Primary provider', L.freeText) }, { error: 'Primary provider must be an object with a name' }).optional(),
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
    .trim()
    .min(1, message)
    .max(max, M.tooLong(label, max));
}

/**
 * Full validation (requested with `?fullValidation=true`, e.g. before e-prescribing): the address
 * and the primary phone number become mandatory, with the spec's messages. Built as field
 * overrides (not a refinement) so these messages appear together with the base rules' messages.
 */
const FullAddress = PatientAddressInput.extend({
  line1: mandatory('Address Line 1', L.addressLine1, M.addressLine1Required),
  city: mandatory('City', L.city, M.cityRequired),
  state: mandatory('State', L.state, M.stateRequired),
  zip: mandatory('Zip Code', L.zip, M.zipRequired),
});

export const PatientFullInput = PatientInput.extend({
  // A missing address is parsed as {} so each mandatory field reports its own message.
  address: FullAddress.prefault({} as z.input<typeof FullAddress>),
  primaryPhoneNumber: mandatory('Primary phone number', L.primaryPhoneNumber, M.primaryPhoneRequired)
    .refine((v) => isAllowedPhoneInput(v), { message: M.phoneInput, abort: true })
    .refine((v) => nationalDigits(v) !== null, M.phoneLength)
    .transform((v) => normalizePhone(v) ?? v),
});
export type PatientFullInput = z.output<typeof PatientFullInput>;

/** Stored and returned shape. Tolerant on read: the input rules apply on write. */
export const Patient = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  middleName: z.string().optional(),
  chosenFirstName: z.string().optional(),
  chosenLastName: z.string().optional(),
  dob: z.string().optional(),
  gender: z.enum(PATIENT_GENDERS).optional(),
  email: z.string().optional(),
  phones: z.array(z.object({ type: z.enum(PHONE_TYPES), number: z.string() })).optional(),
  primaryPhoneNumber: z.string().optional(),
  address: z
    .object({
      line1: z.string().optional(),
      line2: z.string().optional(),
      city: z.string().optional(),
      state: z.string().optional(),
      zip: z.string().optional(),
    })
    .optional(),
  healthInsurance: z
    .object({
      payerName: z.string().optional(),
      memberId: z.string().optional(),
      groupId: z.string().optional(),
      payerPhoneNumber: z.string().optional(),
    })
    .optional(),
  emergencyContact: z.object({ name: z.string().optional(), phoneNumber: z.string().optional() }).optional(),
  preferredPharmacy: z.string().optional(),
  hipaaAuthorizationAccepted: z.boolean().optional(),
  practitioner: z.object({ name: z.string().optional() }).optional(),
  membershipStatus: z.enum(MEMBERSHIP_STATUSES),
  status: z.enum(PATIENT_STATUSES),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Patient = z.infer<typeof Patient>;

const boolParam = z
  .enum(['true', 'false', '1', '0'], { error: 'Must be true or false' })
  .transform((v) => v === 'true' || v === '1');

/** GET /v1/patients query. */
export const PatientListQuery = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(PATIENT_MAX_PAGE_SIZE, `limit must be at most ${PATIENT_MAX_PAGE_SIZE}`)
    .default(PATIENT_PAGE_SIZE),
  offset: z.coerce
    .number({ error: 'offset must be a number' })
    .int('offset must be a whole number')
    .min(0, 'offset must be at least 0')
    .default(0),
  status: z.enum(PATIENT_STATUSES, { error: 'status must be active or DELETED' }).default('active'),
  q: z.string().trim().max(PATIENT_SEARCH_MAX_QUERY, `q must be at most ${PATIENT_SEARCH_MAX_QUERY} characters`).optional(),
});
export type PatientListQuery = z.output<typeof PatientListQuery>;

/** POST/PUT query: `fullValidation=true` applies PatientFullInput. */
export const PatientWriteQuery = z.object({ fullValidation: boolParam.optional() });
export type PatientWriteQuery = z.output<typeof PatientWriteQuery>;

export const PatientIdParams = z.object({
  patientId: z.string().min(1).max(200, 'patientId is too long'),
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
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
  /** Search only: one entry per item of this page, in the same order. */
  matches: z.array(PatientSearchMatch).optional(),
});
export type PatientListResponse = z.infer<typeof PatientListResponse>;
