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
  reason: z
    .string({ error: 'The override reason must be text' })
    .check(
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
  needsOverride: (count: number) => `${count === 1 ? 'A safety warning needs' : `${count} safety warnings need`} an override reason before this can be signed.`,
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
