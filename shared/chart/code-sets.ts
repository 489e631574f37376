import * as z from '../zod.js';
import { ICD10_MAX_PAGE_SIZE, ICD10_PAGE_SIZE } from './constants.js';

/** Which data a code-set search answered from, so the UI can say how to load the full set. */
export interface CodeSetSource {
  kind: 'starter' | 'official';
  /** e.g. "ICD-10-CM FY2027" or "Built-in primary-care starter set". */
  label: string;
  /** Release or file date when known (ISO), e.g. the fiscal year start. */
  releaseDate?: string;
  count: number;
  loadedAt?: string;
}

export interface Icd10Code {
  /** The code without its dot (E119): the ident stored on items as icd10CodeId. */
  ident: string;
  /** With the dot: E11.9. */
  code: string;
  description: string;
}

export interface Icd10SearchResponse {
  items: Icd10Code[];
  total: number;
  limit: number;
  offset: number;
  source: CodeSetSource;
}

const int = (label: string, def: number, max: number) =>
  z.pipe(
    z.transform((v) => (v === undefined || v === '' ? def : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v)),
    z.number({ error: `${label} must be a non-negative whole number` }).check(z.int(), z.gte(0), z.lte(max)),
  );

export const Icd10SearchQuery = z.object({
  keyword: z._default(z.optional(z.string().check(z.maxLength(200))), ''),
  limit: int('limit', ICD10_PAGE_SIZE, ICD10_MAX_PAGE_SIZE),
  offset: int('offset', 0, 1_000_000),
});

export interface VaccineCode {
  cvxCode: string;
  shortDescription: string;
  fullName: string;
  status: string;
  nonVaccine: boolean;
  updatedAt?: string;
}
export interface VaccineManufacturer {
  mvxCode: string;
  name: string;
  status: string;
  updatedAt?: string;
}
export interface VaccineCodeSearchResponse {
  items: VaccineCode[];
  total: number;
  source: CodeSetSource;
}
export interface VaccineManufacturerResponse {
  items: VaccineManufacturer[];
  total: number;
  source: CodeSetSource;
}
export const CodeKeywordQuery = z.object({
  keyword: z._default(z.optional(z.string().check(z.maxLength(200))), ''),
  /** includeInactive=true lists inactive codes too (history entry of an old dose). */
  includeInactive: z.optional(z.enum(['true', 'false'])),
  limit: int('limit', 25, 500),
});

/** A drug as the medication form needs it. NDC fields are absent for starter-list drugs. */
export interface DrugProduct {
  /** Product or package identity: the 11-digit NDC when known, else a starter-list id. */
  ident: string;
  productName: string;
  genericName: string;
  strength: string;
  strengthUOM: string;
  dosageForm: string;
  route: string;
  /** As labeled, hyphenated 4-4-2 / 5-3-2 / 5-4-1 (e.g. 0071-0155-23). */
  ndc?: string;
  /** Normalised 5-4-2 (e.g. 00071-0155-23). */
  ndc11?: string;
  packageDescription?: string;
  labeler?: string;
}
export interface DrugSearchResponse {
  items: DrugProduct[];
  total: number;
  source: CodeSetSource;
}
export const DrugSearchQueryV2 = z.object({
  searchText: z._default(z.optional(z.string().check(z.maxLength(200))), ''),
  searchBy: z.optional(z.enum(['NAME', 'NDC'])),
  limit: int('limit', 25, 100),
});
export const DrugSearchQueryV1 = z.object({
  searchTerm: z._default(z.optional(z.string().check(z.maxLength(200))), ''),
  searchBy: z.optional(z.enum(['NAME', 'NDC'])),
  limit: int('limit', 25, 100),
});
