import * as z from '../zod.js';
import { CHART_MESSAGES as M } from './constants.js';

/*
 * Codes an outside record carries beside the ones the chart's own forms set (ICD-10 for diagnoses,
 * CVX for vaccines): SNOMED CT on conditions, allergies and procedures, RxNorm on medications,
 * LOINC on results. They are kept as the sender coded them so they go back out in an export.
 */
export const CODE_SYSTEMS = {
  snomed: 'http://snomed.info/sct',
  rxnorm: 'http://www.nlm.nih.gov/research/umls/rxnorm',
  loinc: 'http://loinc.org',
  icd10cm: 'http://hl7.org/fhir/sid/icd-10-cm',
  cvx: 'http://hl7.org/fhir/sid/cvx',
  ndc: 'http://hl7.org/fhir/sid/ndc',
  ndfrtEpc: 'http://hl7.org/fhir/ndfrt',
} as const;

export const Coding = z.object({
  system: z.string({ error: M.notText('codings.system') }).check(z.trim(), z.minLength(1), z.maxLength(200)),
  code: z.string({ error: M.notText('codings.code') }).check(z.trim(), z.minLength(1), z.maxLength(64)),
  display: z.optional(z.string({ error: M.notText('codings.display') }).check(z.trim(), z.maxLength(500))),
});
export type Coding = z.infer<typeof Coding>;

const nullToUndefined = (v: unknown) => (v === null ? undefined : v);
/** Optional list of outside codes on a chart item; at most 20, as a record may carry translations. */
export const codingsField = z.pipe(z.transform(nullToUndefined), z.optional(z.array(Coding, { error: 'codings must be a list' }).check(z.maxLength(20))));

export function codingOf(codings: readonly Coding[] | undefined, system: string): Coding | undefined {
  return codings?.find((c) => c.system === system);
}
