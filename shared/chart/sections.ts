import * as z from '../zod.js';
import { ADMINISTRATION_ROUTES, ADMINISTRATION_SITES, ALLERGY_SEVERITIES, CHART_MESSAGES as M, FAMILY_RELATIONS, MEDICATION_STATUSES } from './constants.js';
import {
  checkRange,
  dateField,
  formSourceField,
  icd10CodeField,
  icd10CodeIdField,
  ItemMeta,
  monthField,
  noteDataLinksField,
  optionalText,
  pinnedFlag,
  requiredText,
  todayIsoMonth,
  Icd10CodeRef,
  NoteDataLink,
} from './fields.js';
import { AllergenRef } from './drug-safety.js';
import { Coding, codingsField } from './coding.js';

/*
 * Per section: `<X>Fields` (the body shape, no defaults, so `.partial()` is the PUT body and a
 * missing field keeps its stored value), `<X>Input` (create body and the merged result of an
 * update: defaults + cross-field rules), and `<X>` (the returned item).
 */

const common = {
  pinned: z.optional(pinnedFlag()),
  formSource: formSourceField,
  noteDataLinks: noteDataLinksField,
};

/** The version a PUT was edited from (optimistic lock, like a note's noteVersion); absent: no check. */
export const versionField = z.pipe(
  z.transform((v) => (v === null ? undefined : v)),
  z.optional(
    z
      .number({ error: 'version must be a whole number' })
      .check(z.int('version must be a whole number'), z.gte(1, 'version must be a whole number'), z.lte(1_000_000_000)),
  ),
);
/** A section's PUT body: any of its fields, and the version the form read. */
export const partialWithVersion = <T extends z.core.$ZodShape>(fields: z.ZodMiniObject<T>) => z.extend(z.partial(fields), { version: versionField });

const optionalEnum = <T extends readonly [string, ...string[]]>(values: T, label: string) =>
  z.pipe(
    z.transform((v) => (v === null || v === '' ? undefined : v)),
    z.optional(z.enum(values, { error: M.notOneOf(label) })),
  );

// ---------- Allergy ----------
export const AllergyFields = z.object({
  name: requiredText('Name', M.nameRequired),
  description: optionalText('Description'),
  startDate: dateField(M.startDateInvalid),
  endDate: dateField(M.endDateInvalid),
  active: z.optional(pinnedFlag('Active')),
  severity: optionalEnum(ALLERGY_SEVERITIES, 'Severity'),
  icd10CodeId: icd10CodeIdField,
  icd10Code: icd10CodeField,
  /** What causes it, for the allergy checks: an ingredient, a drug class or a substance (null clears it). */
  allergen: z.pipe(
    z.transform((v) => (v === null ? undefined : v)),
    z.optional(AllergenRef),
  ),
  /** The codes an outside record sent (SNOMED CT, …), kept for the export. */
  codings: codingsField,
  ...common,
});
export const AllergyInput = z.pipe(
  AllergyFields.check(z.superRefine((v, ctx) => checkRange(ctx, v.startDate, v.endDate))),
  z.transform((v) => ({
    ...v,
    description: v.description ?? '',
    pinned: v.pinned ?? false,
    active: v.active ?? true,
  })),
);
export type AllergyInput = z.infer<typeof AllergyInput>;
export const Allergy = z.object({
  ...ItemMeta,
  name: z.string(),
  description: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  active: z.boolean(),
  pinned: z.boolean(),
  severity: z.optional(z.enum(ALLERGY_SEVERITIES)),
  icd10Code: z.optional(Icd10CodeRef),
  allergen: z.optional(AllergenRef),
  codings: z.optional(z.array(Coding)),
  formSource: z.optional(z.string()),
  noteDataLinks: z.optional(z.array(NoteDataLink)),
});
export type Allergy = z.infer<typeof Allergy>;

// ---------- Diagnosis (medical condition) ----------
export const DiagnosisFields = z.object({
  name: requiredText('Name', M.nameRequired),
  description: optionalText('Description'),
  date: monthField(M.dateInvalid),
  endDate: monthField(M.endDateInvalid),
  pinned: pinnedFlag(),
  active: z.optional(pinnedFlag('Active')),
  icd10CodeId: icd10CodeIdField,
  codings: codingsField,
  formSource: formSourceField,
  noteDataLinks: noteDataLinksField,
});
/** Spec §5: pinned is a required boolean; dates are months, not in the future, end not before start. */
export function diagnosisRules(v: { date?: string; endDate?: string }, ctx: z.core.$RefinementCtx, now = new Date()) {
  const thisMonth = todayIsoMonth(now);
  if (v.date && v.date > thisMonth) ctx.addIssue({ code: 'custom', path: ['date'], message: M.dateInFuture });
  if (v.endDate && v.endDate > thisMonth) ctx.addIssue({ code: 'custom', path: ['endDate'], message: M.endDateInFuture });
  else checkRange(ctx, v.date, v.endDate);
}
export const DiagnosisInput = z.pipe(
  DiagnosisFields.check(z.superRefine((v, ctx) => diagnosisRules(v, ctx))),
  z.transform((v) => ({
    ...v,
    description: v.description ?? '',
    active: v.active ?? true,
  })),
);
export type DiagnosisInput = z.infer<typeof DiagnosisInput>;
export const Diagnosis = z.object({
  ...ItemMeta,
  name: z.string(),
  description: z.string(),
  date: z.string(),
  endDate: z.string(),
  pinned: z.boolean(),
  active: z.boolean(),
  icd10CodeId: z.optional(z.string()),
  icd10Code: z.optional(Icd10CodeRef),
  codings: z.optional(z.array(Coding)),
  formSource: z.optional(z.string()),
  noteDataLinks: z.optional(z.array(NoteDataLink)),
});
export type Diagnosis = z.infer<typeof Diagnosis>;
/** The medical-history projection of a diagnosis (spec §3 "Medical history"). */
export type MedicalHistoryEntry = Pick<Diagnosis, 'ident' | 'name' | 'description' | 'date' | 'endDate' | 'active' | 'pinned'>;

// ---------- Medication ----------
const NdcCode = z.object({
  type: z._default(z.literal('NDC', { error: 'code.type must be NDC' }), 'NDC'),
  value: z.string({ error: M.notText('code.value') }).check(z.trim(), z.maxLength(20)),
});
const count = (label: string) =>
  z.pipe(
    z.transform((v) => (v === null || v === '' ? undefined : typeof v === 'string' && /^\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : v)),
    z.optional(z.number({ error: M.notNumber(label) }).check(z.gte(0, M.notNumber(label)))),
  );

export const MedicationFields = z.object({
  productName: requiredText('Name', M.nameRequired),
  strength: optionalText('Strength', 200),
  strengthUOM: optionalText('Units', 100),
  sigText: optionalText('Sig'),
  status: optionalEnum(MEDICATION_STATUSES, 'Status'),
  start: dateField(M.startDateInvalid),
  end: dateField(M.endDateInvalid),
  expiration: dateField('Expiration is not valid'),
  description: optionalText('Details'),
  code: z.pipe(
    z.transform((v) => (v === null ? undefined : v)),
    z.optional(NdcCode),
  ),
  rxId: optionalText('rxId', 200),
  noteId: optionalText('noteId', 200),
  patientInstructionCode: optionalText('patientInstructionCode', 200),
  fulfillmentInstructionText: optionalText('fulfillmentInstructionText'),
  daw: z.optional(pinnedFlag('daw')),
  transmissionMethod: optionalText('transmissionMethod', 100),
  icD9Code: optionalText('icD9Code', 50),
  daysSupply: count('Days supply'),
  refills: count('Refills'),
  quantity: count('Quantity'),
  /** Free text: prescriptions default it to OR (spec §3), which is not one of the vaccine routes. */
  routeOfAdministration: optionalText('Route of administration', 50),
  dosageForm: optionalText('Dosage form', 200),
  doseSpotRxId: optionalText('doseSpotRxId', 200),
  dispensableDrugId: optionalText('dispensableDrugId', 200),
  codings: codingsField,
  ...common,
});
export const MedicationInput = z.pipe(
  MedicationFields.check(z.superRefine((v, ctx) => checkRange(ctx, v.start, v.end, 'end'))),
  z.transform((v) => ({
    ...v,
    status: v.status ?? ('Active' as const),
    pinned: v.pinned ?? false,
  })),
);
export type MedicationInput = z.infer<typeof MedicationInput>;
export type Medication = MedicationInput & { ident: string; patientId: string; createdAt: string; updatedAt: string };

export const FreeformMedicationInput = z.object({ name: requiredText('Name', M.nameRequired) });
export type FreeformMedication = { ident: string; patientId: string; name: string; createdAt: string; updatedAt: string; version?: number };

/** POST /v2/patients/{id}/medication (spec §7: patientId, data). */
export const AddMedicationBody = z.object({
  patientId: z.optional(z.string({ error: M.notText('patientId') }).check(z.maxLength(64))),
  data: z.record(z.string(), z.unknown(), { error: 'data must be an object' }),
});

// ---------- Vaccine ----------
const Clinic = z.object({
  name: optionalText('clinic.name', 200),
  line1: optionalText('clinic.line1', 200),
  line2: optionalText('clinic.line2', 200),
  city: optionalText('clinic.city', 100),
  state: optionalText('clinic.state', 50),
  zip: optionalText('clinic.zip', 20),
  phone: optionalText('clinic.phone', 50),
});
export const VaccineFields = z.object({
  name: requiredText('Name', M.nameRequired),
  cvxCode: optionalText('CVX code', 10),
  mvxCode: optionalText('MVX code', 10),
  date: dateField(M.dateInvalid),
  doseNumber: count('Dose number'),
  lotNumber: optionalText('Lot number', 100),
  expirationDate: dateField(M.expirationDateInvalid),
  administrationSite: optionalEnum(ADMINISTRATION_SITES as unknown as [string, ...string[]], 'Administration site'),
  administrationRoute: optionalEnum(ADMINISTRATION_ROUTES, 'Administration route'),
  adverseReactions: optionalText('Adverse reactions'),
  notes: optionalText('Notes'),
  administeringProviderName: optionalText('Administering provider', 200),
  clinic: z.pipe(
    z.transform((v) => (v === null ? undefined : v)),
    z.optional(Clinic),
  ),
  pinned: z.optional(pinnedFlag()),
  formSource: formSourceField,
  noteDataLinks: noteDataLinksField,
});
export const VaccineInput = z.pipe(
  VaccineFields,
  z.transform((v) => ({ ...v, pinned: v.pinned ?? false })),
);
export type VaccineInput = z.infer<typeof VaccineInput>;
export type Vaccine = VaccineInput & {
  ident: string;
  patientId: string;
  grouping?: { ident: string; name: string };
  createdAt: string;
  updatedAt: string;
  version?: number;
};
export const VaccineUpdateEntry = z.extend(partialWithVersion(VaccineFields), { ident: chartIdField('ident') });
export const VaccineGroupBody = z.object({
  group: z.optional(
    z.object({
      name: optionalText('Group Name', 200),
      items: z.optional(z.array(chartIdField('group.items')).check(z.maxLength(500))),
      version: versionField,
    }),
  ),
  create: z.optional(z.array(VaccineInput).check(z.maxLength(100))),
  update: z.optional(z.array(VaccineUpdateEntry).check(z.maxLength(100))),
});
export type VaccineGroupBody = z.infer<typeof VaccineGroupBody>;
export interface VaccineGroup {
  ident: string;
  patientId: string;
  name: string;
  items: string[];
  createdAt: string;
  updatedAt: string;
}

// ---------- Surgery ----------
export const SurgeryFields = z.object({
  name: requiredText('Name', M.nameRequired),
  description: optionalText('Description'),
  date: dateField(M.dateInvalid),
  codings: codingsField,
  ...common,
});
export const SurgeryInput = z.pipe(
  SurgeryFields,
  z.transform((v) => ({ ...v, description: v.description ?? '', pinned: v.pinned ?? false })),
);
export type SurgeryInput = z.infer<typeof SurgeryInput>;
export type Surgery = SurgeryInput & { ident: string; patientId: string; createdAt: string; updatedAt: string };

// ---------- Family history ----------
export const FamilyHistoryFields = z.object({
  diagnosis: requiredText('Diagnosis', M.diagnosisRequired),
  family: z.pipe(
    z.transform((v) => (v === null ? undefined : v)),
    z.optional(z.array(z.enum(FAMILY_RELATIONS, { error: M.notOneOf('Family') }), { error: 'family must be a list' })),
  ),
  details: optionalText('Details'),
  icd10CodeId: icd10CodeIdField,
  ...common,
});
export const FamilyHistoryInput = z.pipe(
  FamilyHistoryFields,
  z.transform((v) => ({
    ...v,
    family: v.family ?? [],
    details: v.details ?? '',
    pinned: v.pinned ?? false,
  })),
);
export type FamilyHistoryInput = z.infer<typeof FamilyHistoryInput>;
export type FamilyHistory = FamilyHistoryInput & { ident: string; patientId: string; icd10Code?: Icd10CodeRef; createdAt: string; updatedAt: string };

// ---------- Social history (v2) ----------
export const SocialAnswerInput = z.object({
  ident: z.optional(z.string({ error: M.notText('answers.ident') }).check(z.maxLength(64))),
  answer: z.string({ error: M.notText('answer') }).check(z.trim(), z.maxLength(4000, 'Answer must be at most 4000 characters')),
  timestamp: z.optional(z.string({ error: M.notText('answers.timestamp') }).check(z.maxLength(40))),
  userId: z.optional(z.string({ error: M.notText('answers.userId') }).check(z.maxLength(128))),
  formSource: formSourceField,
});
export interface SocialAnswer {
  ident: string;
  answer: string;
  timestamp: string;
  userId: string;
  formSource?: string;
}
export const SocialHistoryFields = z.object({
  question: requiredText('Question', M.questionRequired),
  answers: z.pipe(
    z.transform((v) => (v === null ? undefined : v)),
    z.optional(z.array(SocialAnswerInput, { error: 'answers must be a list' }).check(z.maxLength(500))),
  ),
  /** Convenience for the form: one new answer text, appended only when it differs from the newest. */
  answer: optionalText('Answer'),
  startDate: dateField(M.startDateInvalid),
  endDate: dateField(M.endDateInvalid),
  notes: optionalText('Notes'),
  pinned: z.optional(pinnedFlag()),
  formSource: formSourceField,
  noteDataLinks: noteDataLinksField,
});
export const SocialHistoryInput = z.pipe(
  SocialHistoryFields.check(z.superRefine((v, ctx) => checkRange(ctx, v.startDate, v.endDate))),
  z.transform((v) => ({
    ...v,
    notes: v.notes ?? '',
    pinned: v.pinned ?? false,
  })),
);
export type SocialHistoryInput = z.infer<typeof SocialHistoryInput>;
export interface SocialHistory {
  ident: string;
  patientId: string;
  question: string;
  answers: SocialAnswer[];
  pinned: boolean;
  startDate: string;
  endDate: string;
  notes: string;
  formSource?: string;
  noteDataLinks?: NoteDataLink[];
  createdAt: string;
  updatedAt: string;
}

// ---------- General information ----------
export const GeneralFields = z.object({
  name: requiredText('Name', M.nameRequired),
  details: optionalText('Details'),
  startDate: dateField(M.startDateInvalid),
  endDate: dateField(M.endDateInvalid),
  icd10CodeId: icd10CodeIdField,
  ...common,
});
export const GeneralInput = z.pipe(
  GeneralFields.check(z.superRefine((v, ctx) => checkRange(ctx, v.startDate, v.endDate))),
  z.transform((v) => ({
    ...v,
    details: v.details ?? '',
    pinned: v.pinned ?? false,
  })),
);
export type GeneralInput = z.infer<typeof GeneralInput>;
export type General = GeneralInput & {
  ident: string;
  patientId: string;
  icd10Code?: Icd10CodeRef;
  grouping?: { ident: string; name: string };
  createdAt: string;
  updatedAt: string;
};
const GeneralGroupItem = z.extend(partialWithVersion(GeneralFields), { ident: z.optional(chartIdField('items.ident')) });
/** Spec §3: a group that has an id must have a non-empty name ("Group Name is not valid"). */
export const GeneralGroupBody = z
  .object({
    ident: z.optional(chartIdField('ident')),
    name: z.pipe(
      z.transform((v) => (v === null || v === undefined ? '' : v)),
      z.string({ error: M.groupNameInvalid }).check(z.trim(), z.maxLength(200)),
    ),
    items: z.optional(z.array(GeneralGroupItem, { error: 'items must be a list' }).check(z.maxLength(100))),
    version: versionField,
  })
  .check(
    z.superRefine((v, ctx) => {
      if (v.ident && v.name === '') ctx.addIssue({ code: 'custom', path: ['name'], message: M.groupNameInvalid });
    }),
  );
export type GeneralGroupBody = z.infer<typeof GeneralGroupBody>;
export interface GeneralGroup {
  ident: string;
  patientId: string;
  name: string;
  items: General[];
  createdAt: string;
  updatedAt: string;
}

// ---------- Older social history shape (read-only compatibility) ----------
export interface SocialHistoryV1 {
  relationshipStatus?: 'SINGLE' | 'MARRIED' | 'DIVORCED' | 'RELATIONSHIP' | 'COMPLICATED';
  currentJob?: string;
  substances?: { substance: string; inUse: boolean; description?: string }[];
}

// ---------- Params and list responses ----------
/** A chart item or group id as a key part: bounded, and never the key separator '#'. */
function chartIdField(label: string) {
  return z.string({ error: M.notText(label) }).check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, `${label} is not valid`));
}

export const PatientChartParams = z.object({ patientId: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,35}$/, 'patientId is not valid')) });
export const ChartItemParams = z.extend(PatientChartParams, { ident: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'ident is not valid')) });
export const ChartGroupParams = z.extend(PatientChartParams, { groupId: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'groupId is not valid')) });

export interface ListResponse<T> {
  items: T[];
}
/** A vaccine series as the list shows it (grouped by ordering.ts's groupVaccines). */
export interface VaccineGroupView {
  /** The stored group's ident, or `name:<lower-case name>` for doses grouped by vaccine name. */
  key: string;
  groupId?: string;
  name: string;
  pinned: boolean;
  items: Vaccine[];
}
export interface VaccineListResponse {
  items: Vaccine[];
  groups: VaccineGroupView[];
}
export interface GeneralListResponse {
  items: General[];
  groups: GeneralGroup[];
}
