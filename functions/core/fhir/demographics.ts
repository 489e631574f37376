import type { PatientDemographics } from '../../../shared/patients/patient-record.js';
import { TIDEWELL_ID_SYSTEM } from './fhir-core.js';

/*
 * The US Core Patient extensions for race, ethnicity and birth sex, and the patient's outside
 * identifiers, both ways: read from another system's Patient, written back in an export.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const US_CORE_RACE = 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-race';
export const US_CORE_ETHNICITY = 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-ethnicity';
export const US_CORE_BIRTH_SEX = 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-birthsex';
/** CDC Race & Ethnicity code system, which the OMB categories are drawn from. */
export const CDC_RACE_ETHNICITY = 'urn:oid:2.16.840.1.113883.6.238';
const IDENTIFIER_TYPE = 'http://terminology.hl7.org/CodeSystem/v2-0203';
const BIRTH_SEX = new Set(['F', 'M', 'UNK']);
const MAX_CODES = 10;
const MAX_IDENTIFIERS = 20;

/** A Social Security number is not a record identifier: the chart does not keep it. */
const isSsn = (i: Json) => i.system === 'http://hl7.org/fhir/sid/us-ssn' || (i.type?.coding as Json[] | undefined)?.some((c) => c.code === 'SS');

type Category = NonNullable<PatientDemographics['race']>;
type Coded = NonNullable<Category['omb']>[number];

const str = (v: unknown, max: number) => (typeof v === 'string' && v.trim() ? v.trim().slice(0, max) : undefined);
const coded = (c: Json | undefined): Coded | undefined => {
  const code = str(c?.code, 64);
  if (!code) return undefined;
  const display = str(c?.display, 200);
  return { system: str(c?.system, 200) ?? CDC_RACE_ETHNICITY, code, ...(display ? { display } : {}) };
};

function readCategory(ext: Json | undefined): Category | undefined {
  if (!ext) return undefined;
  const parts = (ext.extension as Json[] | undefined) ?? [];
  const of = (url: string) =>
    parts
      .filter((p) => p.url === url)
      .map((p) => coded(p.valueCoding))
      .filter((c): c is Coded => Boolean(c))
      .slice(0, MAX_CODES);
  const omb = of('ombCategory');
  const detailed = of('detailed');
  const text = str(parts.find((p) => p.url === 'text')?.valueString, 200);
  if (!omb.length && !detailed.length && !text) return undefined;
  return { ...(omb.length ? { omb } : {}), ...(detailed.length ? { detailed } : {}), ...(text ? { text } : {}) };
}

/** What a Patient resource says that the chart keeps beside name, birth date and gender; undefined when it says none of it. */
export function demographicsOf(patient: Json, ownPractice?: string): PatientDemographics | undefined {
  const exts = (patient.extension as Json[] | undefined) ?? [];
  const race = readCategory(exts.find((e) => e.url === US_CORE_RACE));
  const ethnicity = readCategory(exts.find((e) => e.url === US_CORE_ETHNICITY));
  const sex = exts.find((e) => e.url === US_CORE_BIRTH_SEX)?.valueCode;
  const birthSex = BIRTH_SEX.has(sex) ? (sex as 'F' | 'M' | 'UNK') : undefined;
  // This practice's own id of the patient is the chart itself, not an outside identifier.
  const own = ownPractice ? `${TIDEWELL_ID_SYSTEM}/${ownPractice}/` : undefined;
  const identifiers = ((patient.identifier as Json[] | undefined) ?? [])
    .filter((i) => str(i?.value, 200) && !(own && String(i.system ?? '').startsWith(own)) && !isSsn(i))
    .slice(0, MAX_IDENTIFIERS)
    .map((i) => {
      const system = str(i.system, 200);
      const type = str((i.type?.coding as Json[] | undefined)?.find((c) => c.system === IDENTIFIER_TYPE)?.code ?? i.type?.coding?.[0]?.code, 20);
      const label = str(i.type?.text ?? i.type?.coding?.[0]?.display, 100);
      return { value: str(i.value, 200)!, ...(system ? { system } : {}), ...(type ? { type } : {}), ...(label ? { label } : {}) };
    });
  if (!race && !ethnicity && !birthSex && !identifiers.length) return undefined;
  return { ...(race ? { race } : {}), ...(ethnicity ? { ethnicity } : {}), ...(birthSex ? { birthSex } : {}), ...(identifiers.length ? { identifiers } : {}) };
}

/** The chart's demographics with an import's: what the chart has is kept, identifiers it lacks are added. */
export function mergeDemographics(current: PatientDemographics | undefined, incoming: PatientDemographics): PatientDemographics {
  const ids = [...(current?.identifiers ?? [])];
  for (const i of incoming.identifiers ?? []) if (!ids.some((x) => x.system === i.system && x.value === i.value)) ids.push(i);
  const race = current?.race ?? incoming.race;
  const ethnicity = current?.ethnicity ?? incoming.ethnicity;
  const birthSex = current?.birthSex ?? incoming.birthSex;
  return {
    ...(race ? { race } : {}),
    ...(ethnicity ? { ethnicity } : {}),
    ...(birthSex ? { birthSex } : {}),
    ...(ids.length ? { identifiers: ids.slice(0, MAX_IDENTIFIERS) } : {}),
  };
}

const categoryWords = (c: Category) => c.text ?? [...(c.omb ?? []), ...(c.detailed ?? [])].map((x) => x.display ?? x.code).join(', ');

function categoryExtension(url: string, c: Category | undefined): Json[] {
  if (!c) return [];
  return [
    {
      url,
      extension: [
        ...(c.omb ?? []).map((valueCoding) => ({ url: 'ombCategory', valueCoding })),
        ...(c.detailed ?? []).map((valueCoding) => ({ url: 'detailed', valueCoding })),
        // US Core requires the text; a record that gave only codes is named by them.
        { url: 'text', valueString: categoryWords(c) || 'Unknown' },
      ],
    },
  ];
}

/** The Patient's US Core extensions for what the chart knows. */
export function demographicsExtensions(d: PatientDemographics | undefined): Json[] {
  if (!d) return [];
  return [
    ...categoryExtension(US_CORE_RACE, d.race),
    ...categoryExtension(US_CORE_ETHNICITY, d.ethnicity),
    ...(d.birthSex ? [{ url: US_CORE_BIRTH_SEX, valueCode: d.birthSex }] : []),
  ];
}

/** The outside identifiers, typed as the source typed them (MR for a medical record number). */
export function demographicsIdentifiers(d: PatientDemographics | undefined): Json[] {
  return (d?.identifiers ?? []).map((i) => ({
    ...(i.type || i.label
      ? { type: { ...(i.type ? { coding: [{ system: IDENTIFIER_TYPE, code: i.type }] } : {}), ...(i.label ? { text: i.label } : {}) } }
      : {}),
    ...(i.system ? { system: i.system } : {}),
    value: i.value,
  }));
}
