import { createHash } from 'node:crypto';

/*
 * The pieces every FHIR R4 mapper shares. Ids are name-based UUIDs of (kind, Tidewell id), so the
 * same chart exports the same ids every time and an import can tell a resource it already brought in.
 */

export type FhirResource = { resourceType: string; id: string; [key: string]: unknown };
export interface Coding {
  system?: string;
  code?: string;
  display?: string;
}
export interface CodeableConcept {
  coding?: Coding[];
  text?: string;
}
export interface Reference {
  reference: string;
  display?: string;
}

export const SYSTEMS = {
  icd10cm: 'http://hl7.org/fhir/sid/icd-10-cm',
  loinc: 'http://loinc.org',
  ucum: 'http://unitsofmeasure.org',
  cvx: 'http://hl7.org/fhir/sid/cvx',
  mvx: 'http://hl7.org/fhir/sid/mvx',
  ndc: 'http://hl7.org/fhir/sid/ndc',
  rxnorm: 'http://www.nlm.nih.gov/research/umls/rxnorm',
  npi: 'http://hl7.org/fhir/sid/us-npi',
  roleCode: 'http://terminology.hl7.org/CodeSystem/v3-RoleCode',
  obsCategory: 'http://terminology.hl7.org/CodeSystem/observation-category',
  conditionCategory: 'http://terminology.hl7.org/CodeSystem/condition-category',
  conditionClinical: 'http://terminology.hl7.org/CodeSystem/condition-clinical',
  conditionVerification: 'http://terminology.hl7.org/CodeSystem/condition-ver-status',
  allergyClinical: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical',
  allergyVerification: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-verification',
  diagnosticServiceSection: 'http://terminology.hl7.org/CodeSystem/v2-0074',
  usCoreDocumentCategory: 'http://hl7.org/fhir/us/core/CodeSystem/us-core-documentreference-category',
  routeV2: 'http://terminology.hl7.org/CodeSystem/v2-0162',
  interpretation: 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation',
  dataAbsent: 'http://terminology.hl7.org/CodeSystem/data-absent-reason',
  medicationRequestCategory: 'http://terminology.hl7.org/CodeSystem/medicationrequest-category',
  communicationCategory: 'http://terminology.hl7.org/CodeSystem/communication-category',
  snomed: 'http://snomed.info/sct',
} as const;

/** An item's outside codes (SNOMED CT, RxNorm…) as FHIR codings, leaving out systems the caller writes from fields of its own. */
export function outsideCodings(codings: readonly Coding[] | undefined, except: readonly string[] = []): Coding[] {
  return (codings ?? [])
    .filter((c) => c.system && c.code && !except.includes(c.system))
    .map((c) => ({ system: c.system, code: c.code, ...(c.display ? { display: c.display } : {}) }));
}

/** Tidewell's own identifiers: one system per practice and kind, so ids of two practices never collide. */
export const TIDEWELL_ID_SYSTEM = 'https://tidewell.app/fhir/identifier';
/** A resource's identifiers as read from any bundle: a list on most resources, one on a few (QuestionnaireResponse). */
export const identifiersOf = (r: { identifier?: unknown }): { system?: unknown; value?: unknown }[] =>
  (Array.isArray(r.identifier) ? r.identifier : r.identifier ? [r.identifier] : []).filter(
    (i): i is { system?: unknown; value?: unknown } => typeof i === 'object' && i !== null,
  );
export const identifierSystem = (practiceId: string, kind: string) => `${TIDEWELL_ID_SYSTEM}/${practiceId}/${kind}`;

/** Name-based UUID (RFC 4122 v5 layout over SHA-1) of a kind and a Tidewell id. */
export function stableUuid(...parts: string[]): string {
  const h = createHash('sha1').update(parts.join('\u0000')).digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

export const fullUrlOf = (r: Pick<FhirResource, 'id'>) => `urn:uuid:${r.id}`;
export const refTo = (r: Pick<FhirResource, 'id'>, display?: string): Reference => ({ reference: fullUrlOf(r), ...(display ? { display } : {}) });

/**
 * A bundle's resources with every reference to one of its entries (`urn:uuid:<id>`) written as
 * `<Type>/<id>`: Bulk Data files hold resources without a bundle, so only relative references resolve.
 */
export function withRelativeReferences(entries: readonly { fullUrl: string; resource: FhirResource }[]): FhirResource[] {
  const byUrl = new Map(entries.map((e) => [e.fullUrl, `${e.resource.resourceType}/${e.resource.id}`]));
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (!value || typeof value !== 'object') return value;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'reference' && typeof v === 'string' ? (byUrl.get(v) ?? v) : rewrite(v)]));
  };
  return entries.map((e) => rewrite(e.resource) as FhirResource);
}

/** Drops undefined, null, '' and empty arrays/objects, which FHIR JSON forbids. */
export function clean<T>(value: T): T {
  if (Array.isArray(value)) return value.map(clean).filter((v) => !isEmpty(v)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const c = clean(v);
      if (!isEmpty(c)) out[k] = c;
    }
    return out as T;
  }
  return value;
}
function isEmpty(v: unknown): boolean {
  if (v === undefined || v === null || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.keys(v as object).length === 0;
  return false;
}

/** A FHIR date from Tidewell's ISO dates and months, and from prescriptions' MM/DD/YYYY; undefined when not one. */
export function fhirDate(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  if (/^\d{4}-\d{2}(-\d{2})?$/.test(value)) return value;
  const us = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(value);
  if (us) return `${us[3]}-${us[1]}-${us[2]}`;
  const mmYyyy = /^(\d{2})\/(\d{4})$/.exec(value);
  if (mmYyyy) return `${mmYyyy[2]}-${mmYyyy[1]}`;
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : new Date(t).toISOString().slice(0, 10);
}

/** A FHIR instant (date, time and zone) from an ISO timestamp; undefined when not one. */
export function fhirInstant(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : new Date(t).toISOString();
}

/** The Tidewell id an exported resource came from, so an import finds what it brought in before. */
export const sourceIdentifier = (practiceId: string, kind: string, id: string) => ({ system: identifierSystem(practiceId, kind), value: id });
