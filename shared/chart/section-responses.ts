/**
 * What the health-summary section endpoints answer, read by the web client: one item schema per
 * section. Items are read loosely (every stored field is kept for the forms), with the fields the
 * lists and their ordering rely on checked. Kept apart from sections.ts so the chart Lambda does not bundle them.
 */
import * as z from '../zod.js';
import { ADMINISTRATION_ROUTES } from './constants.js';
import { NoteDataLink } from './fields.js';

/** Stored as a boolean; older rows and pin toggles may carry 1/0. */
const pinnedWire = z.union([z.boolean(), z.number()]);

/** What the server stores on every chart item (buildStored); version is absent on rows written before it. */
const itemMeta = {
  ident: z.string(),
  patientId: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  version: z.optional(z.number()),
};
const grouping = z.optional(z.object({ ident: z.string(), name: z.string() }));
const item = <T extends z.core.$ZodShape>(fields: T) => z.looseObject({ ...itemMeta, pinned: z.optional(pinnedWire), ...fields });
const text = z.optional(z.string());
/** Dates are stored as '' when absent; a row without the field reads the same. */
const date = z._default(z.string(), '');

export const GeneralItem = item({ name: z.string(), grouping });

/** A vaccine dose as the grouping and ordering rules read it (shared/chart/ordering.ts). */
export const VaccineItem = z.looseObject({
  ...itemMeta,
  name: z.string(),
  pinned: z.pipe(
    z.optional(pinnedWire),
    z.transform((v) => Boolean(v)),
  ),
  cvxCode: text,
  mvxCode: text,
  date,
  doseNumber: z.optional(z.number()),
  lotNumber: text,
  expirationDate: date,
  administrationSite: text,
  administrationRoute: z.optional(z.enum(ADMINISTRATION_ROUTES)),
  adverseReactions: text,
  notes: text,
  administeringProviderName: text,
  clinic: z.optional(z.object({ name: text, line1: text, line2: text, city: text, state: text, zip: text, phone: text })),
  formSource: text,
  noteDataLinks: z.optional(z.array(NoteDataLink)),
  grouping,
});

/** One item of each section, as POST and PUT answer it and the list carries it. */
export const ChartSectionItem = {
  general: GeneralItem,
  allergies: item({ name: z.string() }),
  medications: item({ productName: z.string() }),
  vaccines: VaccineItem,
  diagnoses: item({ name: z.string() }),
  surgeries: item({ name: z.string() }),
  familyHistory: item({ diagnosis: z.string() }),
  socialHistory: item({ question: z.string(), answers: z.optional(z.array(z.looseObject({ answer: z.string() }))) }),
} as const;
export type ChartSectionName = keyof typeof ChartSectionItem;

/** GET /v1/patients/{patientId}/{section}: the section's items (general and vaccines add their groups). */
export const ChartSectionList = Object.fromEntries(
  Object.entries(ChartSectionItem).map(([section, schema]) => [section, z.object({ items: z.array(schema) })]),
) as {
  [K in ChartSectionName]: z.ZodMiniObject<{ items: z.ZodMiniArray<(typeof ChartSectionItem)[K]> }>;
};

/** A general-information group with its items (POST/PUT /v1/patients/{patientId}/general-groups, and in the general list). */
export const GeneralGroupAnswer = z.looseObject({ ...itemMeta, name: z.string(), items: z.array(GeneralItem) });

/** GET /v1/patients/{patientId}/general. */
export const GeneralListAnswer = z.object({ items: z.array(GeneralItem), groups: z.array(GeneralGroupAnswer) });

/** GET /v1/patients/{patientId}/vaccines: the doses (the web groups them itself). */
export const VaccineListAnswer = z.object({ items: z.array(VaccineItem) });

/** POST/PUT /v1/patients/{patientId}/vaccines/groups[/{groupId}]: the series and its doses. */
export const VaccineGroupAnswer = z.object({
  group: z.looseObject({ ...itemMeta, name: z.string(), items: z.array(z.string()) }),
  items: z.array(VaccineItem),
});

/** A medication recorded by name only (GET/POST/PUT /v1/patients/{patientId}/freeform-medications). */
export const FreeformMedicationAnswer = z.object({ ...itemMeta, name: z.string() });
export const FreeformMedicationList = z.object({ items: z.array(FreeformMedicationAnswer) });
