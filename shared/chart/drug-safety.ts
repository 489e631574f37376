import * as z from '../zod.js';
import type { CodeSetSource } from './code-sets.js';

/*
 * Allergy and interaction checks (README "Allergy and interaction checks"). An allergy may name
 * what causes it: an ingredient (as the FDA NDC directory's SUBSTANCENAME spells it, with its
 * RxNorm ingredient RXCUI when known), a drug class (an FDA Established Pharmacologic Class, as
 * the directory's PHARM_CLASSES carries it, e.g. "Penicillin-class Antibacterial [EPC]"), or a
 * substance that is not a drug (latex, peanut).
 */
export const ALLERGEN_KINDS = ['ingredient', 'class', 'substance'] as const;
export type AllergenKind = (typeof ALLERGEN_KINDS)[number];
export const ALLERGEN_KIND_LABELS: Record<AllergenKind, string> = { ingredient: 'Ingredient', class: 'Drug class', substance: 'Substance' };

export const AllergenRef = z.object({
  kind: z.enum(ALLERGEN_KINDS, { error: 'allergen.kind must be ingredient, class or substance' }),
  /** The ingredient or substance name, or the class with its bracketed type ("… [EPC]"). */
  name: z.string({ error: 'allergen.name must be text' }).check(z.trim(), z.minLength(1, 'allergen.name is required'), z.maxLength(200)),
  /** RxNorm ingredient RXCUI, when the allergen is an ingredient RxNorm lists. */
  rxcui: z.optional(z.string({ error: 'allergen.rxcui must be text' }).check(z.trim(), z.regex(/^\d{1,10}$/, 'allergen.rxcui must be digits'))),
});
export type AllergenRef = z.infer<typeof AllergenRef>;

/** One entry of the allergen search: what the allergy form offers. */
export interface Allergen extends AllergenRef {
  /** Other names the search also answers to ("sulfa", "PCN"). */
  aliases?: string[];
  /** For a class, a few of its ingredients, so the user sees what it covers. */
  examples?: string[];
}
export interface AllergenSearchResponse {
  items: Allergen[];
  source: CodeSetSource;
}
export const AllergenSearchQuery = z.object({
  keyword: z._default(z.optional(z.string().check(z.maxLength(100))), ''),
});

export const SAFETY_WARNING_KINDS = ['allergy', 'interaction'] as const;
export type SafetyWarningKind = (typeof SAFETY_WARNING_KINDS)[number];

/** A reason to think twice before giving a drug, as the window shows it and the note stores it. */
export interface SafetyWarning {
  /** Stable for the same cause: `allergy:<allergy ident>` or `interaction:<pair id>:<medication ident>`. */
  id: string;
  kind: SafetyWarningKind;
  /** The drug that was chosen, as the check read it. */
  drug: string;
  /** The allergy's name, or the medication already taken. */
  cause: string;
  /** Allergy severity (Severe, Moderate, Mild, Not recorded) or the interaction list's severity. */
  severity: string;
  /** The allergy's recorded reaction, or what the interaction may do. */
  reaction: string;
  /** Why it matched: "Amoxicillin is a Penicillin-class Antibacterial [EPC]". */
  because: string;
  /** One sentence naming all of it, for the window, the 422 and the audit. */
  message: string;
}

export interface DrugSafetyCheckResponse {
  drug: string;
  /** Ingredients the check recognised in the drug; empty means the check could not classify it. */
  ingredients: string[];
  warnings: SafetyWarning[];
}

export const DrugSafetyCheckBody = z.object({
  /** An inventory item (in-house prescription, sale). */
  inventoryId: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))),
  /** Or a drug by name (before e-prescribing, a chart medication). */
  drugName: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(300))),
});

export const SAFETY_OVERRIDE_REASON_MAX = 500;
/** What a prescription or sale sends to go ahead despite the warnings the window showed. */
export const SafetyOverrideInput = z.object({
  reason: z.string({ error: 'The override reason must be text' }).check(
    z.trim(),
    z.minLength(1, 'Give a reason to continue despite the warnings'),
    z.maxLength(SAFETY_OVERRIDE_REASON_MAX, `The override reason must be at most ${SAFETY_OVERRIDE_REASON_MAX} characters`),
  ),
});

/** Kept on the signed prescription or sale: who went ahead, when, why, and over which warnings. */
export interface SafetyOverride {
  reason: string;
  warnings: SafetyWarning[];
  by: { userId: string; name: string };
  at: string;
}

export interface DrugSafetySources {
  classes: CodeSetSource;
  interactions: CodeSetSource;
}

export const DRUG_SAFETY_MESSAGES = {
  /** The 422 when a prescription or sale is signed over warnings nobody answered. */
  needsOverride: (count: number) =>
    `${count === 1 ? 'A safety warning needs' : `${count} safety warnings need`} an override reason before this can be signed.`,
  reasonRequired: 'Give a reason to continue despite the warnings',
  heading: (count: number) => (count === 1 ? 'Safety warning' : `${count} safety warnings`),
  notClassified: (drug: string) => `${drug} could not be matched to an ingredient, so it was not checked for allergies or interactions.`,
  unknownInventory: 'That inventory item no longer exists',
  oneDrug: 'Send an inventoryId or a drugName',
} as const;

export function allergyWarningMessage(w: Pick<SafetyWarning, 'drug' | 'cause' | 'severity' | 'reaction' | 'because'>): string {
  return `Allergy: ${w.cause} (${w.severity.toLowerCase()}${w.reaction ? `, ${w.reaction}` : ''}). ${w.because}.`;
}
export function interactionWarningMessage(w: Pick<SafetyWarning, 'drug' | 'cause' | 'severity' | 'reaction' | 'because'>): string {
  return `Interaction with ${w.cause} (${w.severity.toLowerCase()}): ${w.reaction}. ${w.because}.`;
}

/** A draft keeps only the override reason typed in the window (signing re-checks and completes it). */
export function keptOverride(value: unknown): { safetyOverride?: { reason: string } } {
  const reason = (value as { reason?: unknown } | null | undefined)?.reason;
  return typeof reason === 'string' && reason.trim() ? { safetyOverride: { reason: reason.trim().slice(0, SAFETY_OVERRIDE_REASON_MAX) } } : {};
}

/*
 * Before e-prescribing (README "Allergy and interaction checks"): DoseSpot's drug is chosen inside
 * its own window, where Tidewell cannot check it, so the prescriber first sees the patient's active
 * allergies and medications and confirms them; the confirmation is audited.
 */
export interface EPrescribeReviewAllergy {
  ident: string;
  name: string;
  /** Severe, Moderate, Mild, or Severity not recorded. */
  severity: string;
  /** The allergy's recorded reaction (its description), or Reaction not recorded. */
  reaction: string;
}
export interface EPrescribeReviewMedication {
  ident: string;
  name: string;
  /** The medication's sig, when recorded. */
  instructions: string;
}
export interface EPrescribeReview {
  allergies: EPrescribeReviewAllergy[];
  medications: EPrescribeReviewMedication[];
}

/** The API names the field in front of the message ("allergyIds: must be a list of ids"). */
const reviewedIds = () =>
  z._default(z.array(z.string({ error: 'must be a list of ids' }).check(z.trim(), z.minLength(1), z.maxLength(100)), { error: 'must be a list of ids' }).check(z.maxLength(500)), []);
/** What the prescriber confirmed: the ids of the allergies and medications the step showed. */
export const EPrescribeReviewConfirmBody = z.object({
  allergyIds: reviewedIds(),
  medicationIds: reviewedIds(),
});
export type EPrescribeReviewConfirmBody = z.infer<typeof EPrescribeReviewConfirmBody>;

export interface EPrescribeReviewConfirmation {
  confirmedAt: string;
  by: { userId: string; name: string };
}

export const EPRESCRIBE_REVIEW_MESSAGES = {
  title: 'Before e-prescribing',
  allergies: 'Active allergies',
  medications: 'Active medications',
  /** Spec chart §"Allergies card" empty text, for the active filter. */
  noAllergies: 'No Active allergies',
  noMedications: 'No active medications',
  severityNotRecorded: 'Severity not recorded',
  reactionNotRecorded: 'Reaction not recorded',
  checkedOnSync: 'DoseSpot does not see this list. Prescriptions written in DoseSpot are checked against these allergies and medications when they come back to the chart.',
  confirm: 'Continue to DoseSpot',
  changed: 'The allergies or medications changed while this list was open. Check the updated list before continuing.',
  loadFailed: 'The allergies and medications could not be loaded. Please try again.',
} as const;

export function reviewedAllergyText(a: Pick<EPrescribeReviewAllergy, 'name' | 'severity' | 'reaction'>): string {
  return `${a.name} (${a.severity}, ${a.reaction})`;
}
