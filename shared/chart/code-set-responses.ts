/**
 * What the code-set searches answer (ICD-10, CVX, drugs, allergens), read by the web client.
 * Kept apart from code-sets.ts so the Lambdas, which build these answers from its interfaces, do not bundle them.
 */
import * as z from '../zod.js';
import { ALLERGEN_KINDS } from './drug-safety.js';

/** Which list answered: the built-in starter list or the loaded official release. */
export const CodeSetSourceAnswer = z.object({
  kind: z.enum(['starter', 'official']),
  label: z.string(),
  releaseDate: z.optional(z.string()),
  count: z.number(),
  loadedAt: z.optional(z.string()),
});

export const Icd10CodeAnswer = z.object({ ident: z.string(), code: z.string(), description: z.string() });

/** GET /v1/icd-10-codes. */
export const Icd10SearchAnswer = z.object({
  items: z.array(Icd10CodeAnswer),
  total: z.number(),
  limit: z.number(),
  offset: z.number(),
  source: CodeSetSourceAnswer,
});

/** GET /v1/vaccine-codes. */
export const VaccineCodeSearchAnswer = z.object({
  items: z.array(
    z.object({
      cvxCode: z.string(),
      shortDescription: z.string(),
      fullName: z.string(),
      status: z.string(),
      nonVaccine: z.boolean(),
      updatedAt: z.optional(z.string()),
    }),
  ),
  total: z.number(),
  source: CodeSetSourceAnswer,
});

/** GET /v2/nationaldrugcodes/search and GET /v1/nationaldrugcodes/search: NDC fields are absent for starter-list drugs. */
export const DrugSearchAnswer = z.object({
  items: z.array(
    z.object({
      ident: z.string(),
      productName: z.string(),
      genericName: z.string(),
      strength: z.string(),
      strengthUOM: z.string(),
      dosageForm: z.string(),
      route: z.string(),
      ndc: z.optional(z.string()),
      ndc11: z.optional(z.string()),
      packageDescription: z.optional(z.string()),
      labeler: z.optional(z.string()),
    }),
  ),
  total: z.number(),
  source: CodeSetSourceAnswer,
});

/** GET /v1/allergens: drug classes, ingredients and substances. */
export const AllergenSearchAnswer = z.object({
  items: z.array(
    z.object({
      kind: z.enum(ALLERGEN_KINDS),
      name: z.string(),
      rxcui: z.optional(z.string()),
      aliases: z.optional(z.array(z.string())),
      examples: z.optional(z.array(z.string())),
    }),
  ),
  source: CodeSetSourceAnswer,
});
