import * as z from '../../../shared/zod.js';
import { ADMINISTRATION_ROUTES, ALLERGY_SEVERITIES, FAMILY_RELATIONS, MEDICATION_STATUSES, NOTE_DATA_LINK_TYPES } from '../../../shared/chart/constants.js';
import { AllergenRef } from '../../../shared/chart/drug-safety.js';
import { Coding } from '../../../shared/chart/coding.js';

/*
 * Every chart item as the table holds it, one schema per section: what each read parses a stored
 * row with. Items are kept whole (loose objects: a field these schemas do not name still reaches
 * the forms), and the fields the server and the web read are typed. Rows written before a field
 * existed still read: no version reads as 1, no date or text as '', pinned and flags stored as 1/0
 * (older rows, DoseSpot's sync) as booleans.
 */

const text = z.optional(z.string());
/** Absent reads as '' (how the forms write "none"). */
const blank = z._default(z.string(), '');
const flag = (absent: boolean) =>
  z.pipe(
    z.optional(z.union([z.boolean(), z.number()])),
    z.transform((v) => (v === undefined ? absent : Boolean(v))),
  );
/** A flag that stays absent when the row has none. */
const optionalFlag = z.optional(
  z.pipe(
    z.union([z.boolean(), z.number()]),
    z.transform((v: boolean | number) => Boolean(v)),
  ),
);
const meta = {
  ident: z.string(),
  patientId: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Rows written before versions existed are at version 1. */
  version: z._default(z.number(), 1),
};
const item = <T extends z.core.$ZodShape>(fields: T) =>
  z.looseObject({
    ...meta,
    pinned: flag(false),
    formSource: text,
    noteDataLinks: z.optional(z.array(noteDataLink)),
    codings: z.optional(z.array(Coding)),
    icd10CodeId: text,
    icd10Code: z.optional(icd10Code),
    ...fields,
  });
const grouping = z.optional(z.object({ ident: z.string(), name: z.string() }));
/** As stored (the body rules' trims and limits ran when it was written; fields.ts holds them). */
const noteDataLink = z.object({ dataType: z.enum(NOTE_DATA_LINK_TYPES), dataId: z.string(), linkId: z.string(), noteId: text });
const icd10Code = z.object({ ident: z.string(), code: z.string(), description: blank });
const group = z.looseObject({ ...meta, name: z.string() });

export const STORED_CHART_ITEMS = {
  allergies: item({
    name: z.string(),
    description: blank,
    startDate: blank,
    endDate: blank,
    active: flag(true),
    severity: z.optional(z.enum(ALLERGY_SEVERITIES)),
    allergen: z.optional(AllergenRef),
  }),
  diagnoses: item({ name: z.string(), description: blank, date: blank, endDate: blank, active: flag(true) }),
  medications: item({
    productName: z.string(),
    strength: text,
    strengthUOM: text,
    sigText: text,
    status: z._default(z.enum(MEDICATION_STATUSES), 'Active'),
    start: blank,
    end: blank,
    expiration: blank,
    description: text,
    code: z.optional(z.object({ type: z.literal('NDC'), value: z.string() })),
    rxId: text,
    noteId: text,
    daw: optionalFlag,
    daysSupply: z.optional(z.number()),
    refills: z.optional(z.number()),
    quantity: z.optional(z.number()),
    routeOfAdministration: text,
    dosageForm: text,
    doseSpotRxId: text,
  }),
  freeformMedications: z.looseObject({ ...meta, name: z.string() }),
  vaccines: item({
    name: z.string(),
    cvxCode: text,
    mvxCode: text,
    date: blank,
    doseNumber: z.optional(z.number()),
    lotNumber: text,
    expirationDate: blank,
    administrationSite: text,
    administrationRoute: z.optional(z.enum(ADMINISTRATION_ROUTES)),
    adverseReactions: text,
    notes: text,
    administeringProviderName: text,
    clinic: z.optional(z.object({ name: text, line1: text, line2: text, city: text, state: text, zip: text, phone: text })),
    grouping,
  }),
  vaccineGroups: group,
  surgeries: item({ name: z.string(), description: blank, date: blank }),
  familyHistory: item({ diagnosis: z.string(), family: z._default(z.array(z.enum(FAMILY_RELATIONS)), []), details: blank }),
  socialHistory: item({
    question: z.string(),
    answers: z._default(z.array(z.object({ ident: z.string(), answer: z.string(), timestamp: blank, userId: blank, formSource: text })), []),
    startDate: blank,
    endDate: blank,
    notes: blank,
  }),
  general: item({ name: z.string(), details: blank, startDate: blank, endDate: blank, grouping }),
  generalGroups: group,
} as const;

export type StoredChartItems = typeof STORED_CHART_ITEMS;
