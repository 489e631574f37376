import type { CodeSetSource, DrugProduct, VaccineCode, VaccineManufacturer } from '../../../shared/chart/code-sets.js';
import { latestUpdate, parseCvx, parseMvx } from './cdc-parse.js';
import { codeSetCache } from './code-set-store.js';
import type { Icd10IndexTerm } from './icd10-index-parse.js';
import { Icd10Index } from './icd10-index.js';
import type { Icd10Terms } from './icd10-terms.js';
import { DrugIndex } from './ndc.js';

/** Serialized payloads of the importer (one gzip JSON object each). */
export interface Icd10Payload {
  entries: [string, string][];
}
export interface Icd10IndexPayload {
  terms: Icd10IndexTerm[];
}
export interface CvxPayload {
  items: VaccineCode[];
}
export interface MvxPayload {
  items: VaccineManufacturer[];
}
export interface NdcPayload {
  items: DrugProduct[];
}

export const HOW_TO_LOAD = 'npm run import:codes';

export const starterSource = (label: string, count: number): CodeSetSource => ({ kind: 'starter', label, count });

export const icd10Codes = codeSetCache<Icd10Payload, Icd10Index>(
  'icd10',
  (p) => new Icd10Index(p.entries),
  async () => {
    const { ICD10_STARTER } = await import('./icd10-starter.js');
    return { value: new Icd10Index(ICD10_STARTER), source: starterSource('Built-in primary-care ICD-10-CM starter set', ICD10_STARTER.length) };
  },
);

/** The ICD-10-CM alphabetic index once imported (none before: search then reads the codes alone); its matcher loads on first use. */
export const icd10Terms = codeSetCache<Icd10IndexPayload, Promise<Icd10Terms | null>>(
  'icd10index',
  (p) => import('./icd10-terms.js').then(({ Icd10Terms }) => new Icd10Terms(p.terms)),
  async () => ({ value: Promise.resolve(null), source: starterSource('No ICD-10-CM alphabetic index loaded', 0) }),
);

export const cvxCodes = codeSetCache<CvxPayload, VaccineCode[]>(
  'cvx',
  (p) => p.items,
  async () => {
    const { CVX_STARTER_ROWS } = await import('./vaccine-starter.js');
    const items = parseCvx(CVX_STARTER_ROWS.join('\n'));
    return { value: items, source: { ...starterSource('Built-in common CVX vaccine codes', items.length), releaseDate: latestUpdate(items) } };
  },
);

export const mvxCodes = codeSetCache<MvxPayload, VaccineManufacturer[]>(
  'mvx',
  (p) => p.items,
  async () => {
    const { MVX_STARTER_ROWS } = await import('./vaccine-starter.js');
    const items = parseMvx(MVX_STARTER_ROWS.join('\n'));
    return { value: items, source: { ...starterSource('Built-in common MVX manufacturers', items.length), releaseDate: latestUpdate(items) } };
  },
);

export const drugCodes = codeSetCache<NdcPayload, DrugIndex>(
  'ndc',
  (p) => new DrugIndex(p.items),
  async () => {
    const { DRUG_STARTER } = await import('./drug-starter.js');
    return { value: new DrugIndex(DRUG_STARTER), source: starterSource('Built-in list of common generic drugs (no NDC numbers)', DRUG_STARTER.length) };
  },
);
