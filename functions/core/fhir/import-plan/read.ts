import { SYSTEMS } from '../fhir-core.js';
import { conceptName } from '../import-values.js';

/*
 * How the import planners read the small things every resource writes alike: codes, names, days,
 * notes, statuses and extensions. The other import modules (calls, labs, appointments) read them here too.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const codeIn = (cc: Json | undefined, system: string): string | undefined => cc?.coding?.find((c: Json) => c.system === system)?.code;
export const text = (cc: Json | undefined) => conceptName(cc);
export const day = (v: unknown) => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v) ? v.slice(0, 10) : undefined);
/** An ISO instant in UTC, as Tidewell stores times, from a FHIR dateTime in any zone. */
export const instant = (v: unknown) =>
  typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v) && !Number.isNaN(Date.parse(v)) ? new Date(Date.parse(v)).toISOString() : undefined;
/** A FHIR date without a time (YYYY-MM-DD) as that day at noon UTC. */
export const dateOnly = (v: unknown) =>
  typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v)) ? `${v}T12:00:00.000Z` : undefined;
export const month = (v: unknown) => (typeof v === 'string' && /^\d{4}-\d{2}/.test(v) ? v.slice(0, 7) : undefined);
export const noteOf = (r: Json) =>
  (r.note as Json[] | undefined)
    ?.map((n) => n.text)
    .filter(Boolean)
    .join('\n') || undefined;
export const active = (r: Json) =>
  !['inactive', 'resolved', 'remission'].includes(
    codeIn(r.clinicalStatus, r.resourceType === 'Condition' ? SYSTEMS.conditionClinical : SYSTEMS.allergyClinical) ?? 'active',
  );
export const categories = (r: Json) => ((r.category as Json[] | undefined) ?? []).flatMap((c) => (c.coding ?? []).map((x: Json) => x.code));
export const extensionOf = (r: Json, url: string): Json | undefined => (r.extension as Json[] | undefined)?.find((e) => e?.url === url);
/** A route as words (the chart keeps the route as text, at most 50 characters). */
export const routeText = (cc: Json | undefined) => text(cc)?.slice(0, 50);
/** An attachment's inline data as text. */
export const decode = (a: Json | undefined) => (a?.data ? Buffer.from(String(a.data), 'base64').toString('utf8') : undefined);
export const escapeHtml = (s: string) =>
  s
    .split('\n')
    .map((line) => `<p>${line.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</p>`)
    .join('');

/** What a verification status says of an allergy or condition that is not so. */
export const NOT_SO: Record<string, string> = { refuted: 'refuted', 'entered-in-error': 'entered in error' };
export const verification = (r: Json): string | undefined =>
  codeIn(r.verificationStatus, r.resourceType === 'Condition' ? SYSTEMS.conditionVerification : SYSTEMS.allergyVerification) ??
  r.verificationStatus?.coding?.[0]?.code;

/** The outside codes a chart item keeps as sent (SNOMED CT, RxNorm, LOINC); ICD-10-CM, NDC and CVX have fields of their own. */
const KEPT_CODE_SYSTEMS = new Set<string>([SYSTEMS.snomed, SYSTEMS.rxnorm, SYSTEMS.loinc]);
export function outsideCodings(cc: Json | undefined): Json[] | undefined {
  const seen = new Set<string>();
  const list = ((cc?.coding as Json[] | undefined) ?? [])
    .filter((c) => KEPT_CODE_SYSTEMS.has(c?.system) && typeof c.code === 'string' && c.code.trim() && c.code.length <= 64)
    .filter((c) => !seen.has(`${c.system}|${c.code}`) && Boolean(seen.add(`${c.system}|${c.code}`)))
    .slice(0, 20)
    .map((c) => ({
      system: c.system,
      code: c.code.trim(),
      ...(typeof c.display === 'string' && c.display.trim() ? { display: c.display.trim().slice(0, 500) } : {}),
    }));
  return list.length ? list : undefined;
}
