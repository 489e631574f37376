import { createHash } from 'node:crypto';
import { gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import { CODE_SYSTEMS, type Coding } from '../../../shared/chart/coding.js';
import { SYSTEMS } from '../../core/fhir/fhir-core.js';
import { at, descendants, kid, kids, textOf, type El } from './ccda-xml.js';

/*
 * A C-CDA document read as the FHIR resources the chart import already knows how to bring in
 * (allergies, problems, medications, immunizations, procedures, vital signs, results and the
 * document itself as a DOCUMENT note), so a C-CDA and a FHIR bundle come in by the same rules and
 * the same preview. What the document holds that cannot come in is listed with the reason here,
 * before any mapping: entries without a code or name (nullFlavor), negated entries ("no known
 * allergies", "not given"), entries of sections Tidewell keeps only as text.
 *
 * Each resource carries an identifier from its entry's own id (root and extension, which C-CDA
 * makes unique across documents), else from the document id and the entry's content, so the same
 * document imported twice adds nothing.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const SECTION_CODES = {
  allergies: '48765-2',
  problems: '11450-4',
  medications: '10160-0',
  immunizations: '11369-6',
  procedures: '47519-4',
  vitals: '8716-3',
  results: '30954-2',
} as const;

const OID_SYSTEMS: Record<string, string> = {
  '2.16.840.1.113883.6.96': CODE_SYSTEMS.snomed,
  '2.16.840.1.113883.6.88': CODE_SYSTEMS.rxnorm,
  '2.16.840.1.113883.6.1': CODE_SYSTEMS.loinc,
  '2.16.840.1.113883.12.292': CODE_SYSTEMS.cvx,
  '2.16.840.1.113883.6.90': CODE_SYSTEMS.icd10cm,
  '2.16.840.1.113883.6.69': CODE_SYSTEMS.ndc,
};
/** The outside codes a chart item keeps in `codings` (ICD-10-CM and CVX have fields of their own). */
const KEPT_IN_CODINGS = new Set<string>([CODE_SYSTEMS.snomed, CODE_SYSTEMS.rxnorm, CODE_SYSTEMS.loinc, CODE_SYSTEMS.ndc]);

/** "No known allergy" and its kinds (SNOMED CT), written as an allergy observation's value. */
const NO_KNOWN_ALLERGY = new Set(['716186003', '409137002', '428607008', '429625007', '428197003', '160244002']);
const SEVERITY: Record<string, 'mild' | 'moderate' | 'severe'> = {
  '255604002': 'mild',
  '6736007': 'moderate',
  '24484000': 'severe',
  '371924009': 'severe',
  '399166001': 'severe',
  '442452003': 'severe',
};
const INACTIVE_STATUS = new Set(['73425007', '413322009', '277022003', '723506003']);

export interface CcdaLeftOut {
  section: string;
  resourceType: string;
  summary: string;
  reason: string;
  key: string;
}

export interface CcdaSection {
  title: string;
  code?: string;
  /** Top-level entries the section holds. */
  entries: number;
}

export interface CcdaRead {
  docKey: string;
  title: string;
  sourcePatient?: string;
  entries: { fullUrl: string; resource: Json }[];
  /** The section each resource came from (the document note's: 'Document'). */
  sectionOf: Map<Json, string>;
  /** The codes each resource's chart item keeps. */
  codingsOf: Map<Json, Coding[]>;
  leftOut: CcdaLeftOut[];
  sections: CcdaSection[];
}

const hash = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 32);

/** HL7 TS (YYYYMMDD[HHMM[SS]][±ZZZZ]) as an ISO date or date-time. */
export function hl7Time(v: string | undefined): string | undefined {
  const m = /^(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(?:\.\d+)?([+-]\d{4})?$/.exec((v ?? '').trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, tz] = m;
  if (!mo) return y;
  if (!d) return `${y}-${mo}`;
  if (!h) return `${y}-${mo}-${d}`;
  const zone = tz ? `${tz.slice(0, 3)}:${tz.slice(3)}` : 'Z';
  return `${y}-${mo}-${d}T${h}:${mi ?? '00'}:${s ?? '00'}${zone}`;
}

/** An effectiveTime's moment (value) or period (low/high). */
function timeOf(el: El | undefined): { value?: string; low?: string; high?: string } {
  if (!el) return {};
  return { value: hl7Time(el.attrs.value), low: hl7Time(kid(el, 'low')?.attrs.value), high: hl7Time(kid(el, 'high')?.attrs.value) };
}
const whenOf = (el: El | undefined) => {
  const t = timeOf(el);
  return t.value ?? t.low ?? t.high;
};

const isNegated = (el: El | undefined) => el?.attrs.negationInd === 'true';
const idKey = (el: El | undefined) => {
  const id = kids(el, 'id').find((i) => i.attrs.root && !i.attrs.nullFlavor);
  return id ? `${id.attrs.root}|${id.attrs.extension ?? ''}` : undefined;
};

class Reader {
  /** Narrative elements by their ID, for what an entry names by reference. */
  readonly narrative = new Map<string, string>();
  readonly entries: { fullUrl: string; resource: Json }[] = [];
  readonly sectionOf = new Map<Json, string>();
  readonly codingsOf = new Map<Json, Coding[]>();
  readonly leftOut: CcdaLeftOut[] = [];

  constructor(readonly docKey: string) {}

  referenced(el: El | undefined): string | undefined {
    if (!el) return undefined;
    const ref = kid(el, 'reference')?.attrs.value;
    const own = el.content
      .filter((c) => typeof c === 'string')
      .join('')
      .replace(/\s+/g, ' ')
      .trim();
    if (own) return own;
    return ref?.startsWith('#') ? this.narrative.get(ref.slice(1)) : undefined;
  }

  /** A CD/CE as a CodeableConcept: the code, its translations, and the name (display, else original text). */
  concept(el: El | undefined): Json | undefined {
    if (!el) return undefined;
    const coding = [el, ...kids(el, 'translation')]
      .filter((c) => c.attrs.code && !c.attrs.nullFlavor)
      .map((c) => ({
        system: OID_SYSTEMS[c.attrs.codeSystem ?? ''] ?? `urn:oid:${c.attrs.codeSystem ?? ''}`,
        code: c.attrs.code!,
        ...(c.attrs.displayName ? { display: c.attrs.displayName } : {}),
      }));
    const original = this.referenced(kid(el, 'originalText'));
    const display = coding.find((c) => c.display)?.display;
    const name = display ?? original;
    if (!name && coding.length === 0) return undefined;
    return { ...(name ? { text: name } : {}), coding };
  }

  add(section: string, resource: Json, source: El | undefined, codingFrom?: Json): void {
    const id = idKey(source);
    resource.identifier = [
      id ? { system: 'urn:ccda:entry', value: id } : { system: `urn:ccda:document:${this.docKey}`, value: hash(JSON.stringify(resource)) },
    ];
    const fullUrl = `urn:uuid:${hash(`${resource.resourceType}|${JSON.stringify(resource.identifier)}|${this.entries.length}`)}`;
    this.entries.push({ fullUrl, resource });
    this.sectionOf.set(resource, section);
    const codings = ((codingFrom?.coding as Coding[] | undefined) ?? []).filter((c) => KEPT_IN_CODINGS.has(c.system)).slice(0, 20);
    if (codings.length) this.codingsOf.set(resource, codings);
  }

  skip(section: string, resourceType: string, summary: string, reason: string, source: El | undefined): void {
    this.leftOut.push({ section, resourceType, summary, reason, key: `${idKey(source) ?? hash(`${section}|${summary}|${this.leftOut.length}`)}` });
  }
}

const nameOf = (cc: Json | undefined, fallback: string) => (cc?.text as string | undefined) ?? (cc?.coding?.[0]?.code as string | undefined) ?? fallback;
/** The clinical statements of a section's entry (or of an act's entryRelationships). */
const statements = (el: El | undefined) =>
  (el?.children ?? []).filter((c) => ['act', 'observation', 'substanceAdministration', 'procedure', 'organizer', 'encounter', 'supply'].includes(c.name));
const related = (el: El | undefined, type?: string) =>
  kids(el, 'entryRelationship')
    .filter((r) => !type || r.attrs.typeCode === type)
    .flatMap(statements);

function allergy(r: Reader, section: string, entry: El): void {
  const concern = statements(entry)[0];
  const observations = concern?.name === 'act' ? related(concern, 'SUBJ').filter((o) => o.name === 'observation') : concern ? [concern] : [];
  if (!observations.length) return r.skip(section, 'AllergyIntolerance', 'Allergy', 'The entry holds no allergy observation', concern ?? entry);
  for (const obs of observations) {
    const substance = r.concept(at(obs, 'participant', 'participantRole', 'playingEntity', 'code'));
    const value = r.concept(kid(obs, 'value'));
    const name = substance?.text ?? value?.text ?? 'Allergy';
    const summary = `Allergy: ${name}`;
    if (isNegated(obs) || (value?.coding as Json[] | undefined)?.some((c) => NO_KNOWN_ALLERGY.has(c.code))) {
      r.skip(
        section,
        'AllergyIntolerance',
        summary,
        isNegated(obs) ? 'The document states the patient does not have this allergy' : 'The document records no known allergies',
        obs,
      );
      continue;
    }
    if (!substance) {
      r.skip(section, 'AllergyIntolerance', summary, 'The allergy names no substance (nullFlavor)', obs);
      continue;
    }
    const statusCode =
      related(obs, 'SUBJ')
        .map((o) => kid(o, 'value')?.attrs.code)
        .find(Boolean) ??
      related(obs, 'REFR')
        .map((o) => kid(o, 'value')?.attrs.code)
        .find(Boolean);
    const time = timeOf(kid(obs, 'effectiveTime'));
    const inactive = INACTIVE_STATUS.has(statusCode ?? '') || !!time.high || kid(concern, 'statusCode')?.attrs.code === 'completed';
    const reactions = related(obs, 'MFST').map((m) => {
      const severity = related(m, 'SUBJ')
        .map((s) => SEVERITY[kid(s, 'value')?.attrs.code ?? ''])
        .find(Boolean);
      const manifestation = r.concept(kid(m, 'value'));
      return { ...(manifestation ? { manifestation: [manifestation] } : {}), ...(severity ? { severity } : {}) };
    });
    const overall = related(obs, 'SUBJ')
      .map((s) => SEVERITY[kid(s, 'value')?.attrs.code ?? ''])
      .find(Boolean);
    if (overall && !reactions.some((x) => x.severity)) reactions.push({ severity: overall });
    r.add(
      section,
      {
        resourceType: 'AllergyIntolerance',
        code: substance,
        clinicalStatus: { coding: [{ system: SYSTEMS.allergyClinical, code: inactive ? 'inactive' : 'active' }] },
        ...((time.low ?? time.value) ? { onsetDateTime: time.low ?? time.value } : {}),
        ...(time.high ? { lastOccurrence: time.high } : {}),
        reaction: reactions,
      },
      obs,
      substance,
    );
  }
}

function problem(r: Reader, section: string, entry: El): void {
  const concern = statements(entry)[0];
  const observations = concern?.name === 'act' ? related(concern, 'SUBJ').filter((o) => o.name === 'observation') : concern ? [concern] : [];
  if (!observations.length) return r.skip(section, 'Condition', 'Problem', 'The entry holds no problem observation', concern ?? entry);
  for (const obs of observations) {
    const value = r.concept(kid(obs, 'value'));
    const summary = `Diagnosis: ${nameOf(value, 'Problem')}`;
    if (isNegated(obs)) {
      r.skip(section, 'Condition', summary, 'The document states the patient does not have this problem', obs);
      continue;
    }
    if (!value) {
      r.skip(section, 'Condition', summary, 'The problem has no code or name (nullFlavor)', obs);
      continue;
    }
    const time = timeOf(kid(obs, 'effectiveTime'));
    const status = related(obs, 'REFR')
      .map((o) => kid(o, 'value')?.attrs.code)
      .find(Boolean);
    const inactive = INACTIVE_STATUS.has(status ?? '') || !!time.high || kid(concern, 'statusCode')?.attrs.code === 'completed';
    r.add(
      section,
      {
        resourceType: 'Condition',
        code: value,
        category: [{ coding: [{ system: SYSTEMS.conditionCategory, code: 'problem-list-item' }] }],
        clinicalStatus: { coding: [{ system: SYSTEMS.conditionClinical, code: inactive ? 'resolved' : 'active' }] },
        ...((time.low ?? time.value) ? { onsetDateTime: time.low ?? time.value } : {}),
        ...(time.high ? { abatementDateTime: time.high } : {}),
      },
      obs,
      value,
    );
  }
}

function drugOf(r: Reader, sa: El): Json | undefined {
  const material = at(sa, 'consumable', 'manufacturedProduct', 'manufacturedMaterial');
  const cc = r.concept(kid(material, 'code'));
  const name = textOf(kid(material, 'name'));
  if (cc && !cc.text && name) cc.text = name;
  return cc ?? (name ? { text: name, coding: [] } : undefined);
}

function medication(r: Reader, section: string, entry: El): void {
  for (const sa of statements(entry)) {
    if (sa.name !== 'substanceAdministration') {
      r.skip(section, 'MedicationStatement', 'Medication', 'Not a medication entry', sa);
      continue;
    }
    const drug = drugOf(r, sa);
    const summary = `Medication: ${nameOf(drug, 'Medication')}`;
    if (isNegated(sa)) {
      r.skip(section, 'MedicationStatement', summary, 'The document states the patient does not take it', sa);
      continue;
    }
    if (!drug) {
      r.skip(section, 'MedicationStatement', summary, 'The medication has no code or name (nullFlavor)', sa);
      continue;
    }
    const times = kids(sa, 'effectiveTime');
    const period = timeOf(times.find((t) => !t.attrs.type?.includes('PIVL') && !t.attrs.type?.includes('EIVL')));
    const frequency = times.find((t) => t.attrs.type?.includes('PIVL'));
    const every = kid(frequency, 'period');
    const dose = kid(sa, 'doseQuantity');
    const route = r.concept(kid(sa, 'routeCode'));
    const sig =
      r.referenced(kid(sa, 'text')) ||
      [
        dose?.attrs.value ? `${dose.attrs.value}${dose.attrs.unit && dose.attrs.unit !== '1' ? ` ${dose.attrs.unit}` : ''}` : undefined,
        route?.text,
        every?.attrs.value ? `every ${every.attrs.value} ${every.attrs.unit ?? ''}`.trim() : undefined,
      ]
        .filter(Boolean)
        .join(' ') ||
      undefined;
    const status = kid(sa, 'statusCode')?.attrs.code;
    const ended =
      status === 'completed' || status === 'aborted' || (period.high !== undefined && period.high.slice(0, 10) < new Date().toISOString().slice(0, 10));
    r.add(
      section,
      {
        resourceType: 'MedicationStatement',
        status: ended ? 'completed' : 'active',
        medicationCodeableConcept: drug,
        ...((period.low ?? period.value ?? period.high)
          ? {
              effectivePeriod: { ...((period.low ?? period.value) ? { start: period.low ?? period.value } : {}), ...(period.high ? { end: period.high } : {}) },
            }
          : {}),
        ...(sig ? { dosage: [{ text: sig, ...(route?.text ? { route: { text: route.text } } : {}) }] } : {}),
      },
      sa,
      drug,
    );
  }
}

function immunization(r: Reader, section: string, entry: El): void {
  for (const sa of statements(entry)) {
    const vaccine = drugOf(r, sa);
    const when = whenOf(kid(sa, 'effectiveTime'));
    const summary = `Vaccine: ${nameOf(vaccine, 'Vaccine')}${when ? ` on ${when.slice(0, 10)}` : ''}`;
    if (isNegated(sa)) {
      const why = related(sa, 'RSON')
        .map((o) => r.concept(kid(o, 'code'))?.text)
        .find(Boolean);
      r.skip(section, 'Immunization', summary, `The vaccine was not given${why ? ` (${why})` : ''}`, sa);
      continue;
    }
    if (!vaccine) {
      r.skip(section, 'Immunization', summary, 'The vaccine has no code or name (nullFlavor)', sa);
      continue;
    }
    if (sa.attrs.moodCode === 'INT') {
      r.skip(section, 'Immunization', summary, 'A planned vaccine, not given yet', sa);
      continue;
    }
    const material = at(sa, 'consumable', 'manufacturedProduct', 'manufacturedMaterial');
    const lot = textOf(kid(material, 'lotNumberText'));
    const performer = at(sa, 'performer', 'assignedEntity', 'assignedPerson', 'name');
    r.add(
      section,
      {
        resourceType: 'Immunization',
        status: kid(sa, 'statusCode')?.attrs.code === 'cancelled' ? 'not-done' : 'completed',
        vaccineCode: vaccine,
        ...(when ? { occurrenceDateTime: when } : {}),
        ...(lot ? { lotNumber: lot } : {}),
        ...(performer ? { performer: [{ actor: { display: personName(performer) } }] } : {}),
      },
      sa,
    );
  }
}

function procedure(r: Reader, section: string, entry: El): void {
  for (const p of statements(entry)) {
    const code = r.concept(kid(p, 'code'));
    const summary = `Surgery: ${nameOf(code, 'Procedure')}`;
    if (isNegated(p)) {
      r.skip(section, 'Procedure', summary, 'The procedure was not done', p);
      continue;
    }
    if (!code) {
      r.skip(section, 'Procedure', summary, 'The procedure has no code or name (nullFlavor)', p);
      continue;
    }
    if (['INT', 'RQO', 'PRP', 'ARQ', 'PRMS', 'APT'].includes(p.attrs.moodCode ?? '')) {
      r.skip(section, 'Procedure', summary, 'A planned procedure, not done yet', p);
      continue;
    }
    const status = kid(p, 'statusCode')?.attrs.code;
    const when = whenOf(kid(p, 'effectiveTime'));
    r.add(
      section,
      {
        resourceType: 'Procedure',
        status: status === 'cancelled' || status === 'aborted' ? 'not-done' : status === 'active' || status === 'new' ? 'in-progress' : 'completed',
        code,
        ...(when ? { performedDateTime: when } : {}),
      },
      p,
      code,
    );
  }
}

/** An observation's value as FHIR writes it (a quantity, a coded value, a text), or why it has none. */
function valueOf(r: Reader, obs: El): Json {
  const v = kid(obs, 'value');
  if (!v || v.attrs.nullFlavor) return { dataAbsentReason: { coding: [{ system: SYSTEMS.dataAbsent, code: 'unknown' }] } };
  const type = v.attrs.type ?? '';
  if (type.endsWith('PQ') || v.attrs.unit !== undefined) {
    const value = Number(v.attrs.value);
    if (Number.isFinite(value))
      return { valueQuantity: { value, ...(v.attrs.unit && v.attrs.unit !== '1' ? { unit: v.attrs.unit, code: v.attrs.unit, system: SYSTEMS.ucum } : {}) } };
  }
  if (type.endsWith('INT') || type.endsWith('REAL')) {
    const value = Number(v.attrs.value);
    if (Number.isFinite(value)) return { valueQuantity: { value } };
  }
  if (type.endsWith('CD') || type.endsWith('CE') || type.endsWith('CO')) {
    const cc = r.concept(v);
    if (cc) return { valueCodeableConcept: cc };
  }
  const s = textOf(v) || v.attrs.value;
  return s ? { valueString: s } : { dataAbsentReason: { coding: [{ system: SYSTEMS.dataAbsent, code: 'unknown' }] } };
}

function observation(r: Reader, obs: El, category: 'vital-signs' | 'laboratory', organizerTime?: string): Json | undefined {
  const code = r.concept(kid(obs, 'code'));
  if (!code) return undefined;
  const when = whenOf(kid(obs, 'effectiveTime')) ?? organizerTime;
  const interpretation = kid(obs, 'interpretationCode')?.attrs.code;
  const range = at(obs, 'referenceRange', 'observationRange', 'value');
  const low = Number(kid(range, 'low')?.attrs.value);
  const high = Number(kid(range, 'high')?.attrs.value);
  const status = kid(obs, 'statusCode')?.attrs.code;
  return {
    resourceType: 'Observation',
    status: status === 'cancelled' || status === 'aborted' ? 'cancelled' : status === 'active' ? 'preliminary' : 'final',
    category: [{ coding: [{ system: SYSTEMS.obsCategory, code: category }] }],
    code,
    ...(when ? { effectiveDateTime: when } : {}),
    ...valueOf(r, obs),
    ...(interpretation ? { interpretation: [{ coding: [{ system: SYSTEMS.interpretation, code: interpretation }] }] } : {}),
    ...(Number.isFinite(low) || Number.isFinite(high)
      ? { referenceRange: [{ ...(Number.isFinite(low) ? { low: { value: low } } : {}), ...(Number.isFinite(high) ? { high: { value: high } } : {}) }] }
      : {}),
  };
}

function vitals(r: Reader, section: string, entry: El): void {
  for (const s of statements(entry)) {
    const organizerTime = s.name === 'organizer' ? whenOf(kid(s, 'effectiveTime')) : undefined;
    const observations = s.name === 'organizer' ? kids(s, 'component').flatMap(statements) : [s];
    for (const obs of observations) {
      const name = r.concept(kid(obs, 'code'));
      if (obs.name !== 'observation') {
        r.skip(section, obs.name, `Vital sign: ${nameOf(name, obs.name)}`, 'Not a measurement: kept as text in the document note', obs);
        continue;
      }
      if (isNegated(obs)) {
        r.skip(section, 'Observation', `Vital sign: ${nameOf(name, 'Vital sign')}`, 'The document states it was not measured', obs);
        continue;
      }
      const resource = observation(r, obs, 'vital-signs', organizerTime);
      if (!resource) r.skip(section, 'Observation', 'Vital sign', 'The vital sign has no code or name (nullFlavor)', obs);
      else r.add(section, resource, obs);
    }
  }
}

function results(r: Reader, section: string, entry: El): void {
  for (const s of statements(entry)) {
    if (s.name !== 'organizer') {
      const resource = isNegated(s) ? undefined : observation(r, s, 'laboratory');
      if (!resource)
        r.skip(
          section,
          'Observation',
          `Lab result: ${nameOf(r.concept(kid(s, 'code')), 'Result')}`,
          isNegated(s) ? 'The document states it was not done' : 'The result has no code or name (nullFlavor)',
          s,
        );
      else r.add(section, resource, s);
      continue;
    }
    const organizerTime = whenOf(kid(s, 'effectiveTime'));
    const refs: Json[] = [];
    const firstTime = kids(s, 'component')
      .flatMap(statements)
      .filter((o) => o.name === 'observation')
      .map((o) => whenOf(kid(o, 'effectiveTime')))
      .find(Boolean);
    for (const obs of kids(s, 'component').flatMap(statements)) {
      if (obs.name !== 'observation') {
        r.skip(
          section,
          obs.name,
          `Lab step: ${nameOf(r.concept(kid(obs, 'code')), obs.name)}`,
          'Not a result (a step of the lab work, such as the specimen collection): kept as text in the document note',
          obs,
        );
        continue;
      }
      const resource = isNegated(obs) ? undefined : observation(r, obs, 'laboratory', organizerTime ?? firstTime);
      if (!resource) {
        r.skip(
          section,
          'Observation',
          `Lab result: ${nameOf(r.concept(kid(obs, 'code')), 'Result')}`,
          isNegated(obs) ? 'The document states it was not done' : 'The result has no code or name (nullFlavor)',
          obs,
        );
        continue;
      }
      r.add(section, resource, obs);
      refs.push({ reference: r.entries[r.entries.length - 1]!.fullUrl });
    }
    const panel = r.concept(kid(s, 'code')) ?? { text: 'Lab results', coding: [] };
    const when = organizerTime ?? firstTime;
    r.add(
      section,
      {
        resourceType: 'DiagnosticReport',
        status: kid(s, 'statusCode')?.attrs.code === 'active' ? 'partial' : 'final',
        category: [{ coding: [{ system: SYSTEMS.diagnosticServiceSection, code: 'LAB' }] }],
        code: panel,
        ...(when ? { effectiveDateTime: when } : {}),
        result: refs,
      },
      s,
    );
  }
}

const READERS: Record<string, (r: Reader, section: string, entry: El) => void> = {
  [SECTION_CODES.allergies]: allergy,
  [SECTION_CODES.problems]: problem,
  [SECTION_CODES.medications]: medication,
  [SECTION_CODES.immunizations]: immunization,
  [SECTION_CODES.procedures]: procedure,
  [SECTION_CODES.vitals]: vitals,
  [SECTION_CODES.results]: results,
};
/** Older and sister section codes of the same sections (e.g. "Problem list - Reported", "History of Procedures"). */
const SECTION_ALIASES: Record<string, string> = { '11348-0': SECTION_CODES.problems, '10164-2': SECTION_CODES.problems };

function personName(name: El | undefined): string {
  if (!name) return '';
  const parts = [...kids(name, 'prefix'), ...kids(name, 'given'), ...kids(name, 'family'), ...kids(name, 'suffix')].map(textOf).filter(Boolean);
  return parts.length ? parts.join(' ') : textOf(name);
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const TAGS: Record<string, string> = {
  paragraph: 'p',
  table: 'table',
  thead: 'thead',
  tbody: 'tbody',
  tfoot: 'tfoot',
  tr: 'tr',
  th: 'th',
  td: 'td',
  caption: 'caption',
  item: 'li',
  sub: 'sub',
  sup: 'sup',
  br: 'br',
};

/** A narrative block as HTML: only the narrative's own structure (no links, images or styles) comes through. */
export function narrativeHtml(el: El): string {
  return el.content
    .map((c) => {
      if (typeof c === 'string') return escapeHtml(c);
      if (c.name === 'br') return '<br>';
      if (c.name === 'renderMultiMedia' || c.name === 'col' || c.name === 'colgroup') return '';
      if (c.name === 'list') {
        const tag = c.attrs.listType === 'ordered' ? 'ol' : 'ul';
        return `<${tag}>${narrativeHtml(c)}</${tag}>`;
      }
      if (c.name === 'content' || c.name === 'linkHtml' || c.name === 'footnote' || c.name === 'footnoteRef') {
        const style = c.attrs.styleCode ?? '';
        let inner = narrativeHtml(c);
        if (/bold/i.test(style)) inner = `<strong>${inner}</strong>`;
        if (/italics/i.test(style)) inner = `<em>${inner}</em>`;
        if (/underline/i.test(style)) inner = `<u>${inner}</u>`;
        return inner;
      }
      const tag = TAGS[c.name];
      if (!tag) return narrativeHtml(c);
      const span = ['colspan', 'rowspan']
        .filter((a) => /^\d{1,3}$/.test(c.attrs[a] ?? ''))
        .map((a) => ` ${a}="${c.attrs[a]}"`)
        .join('');
      return `<${tag}${span}>${narrativeHtml(c)}</${tag}>`;
    })
    .join('');
}

/** A narrative block as plain text: one line per paragraph, list item and table row (cells joined by " | "). */
export function narrativeText(el: El): string {
  const lines: string[] = [];
  let line = '';
  const flush = () => {
    const t = line.replace(/\s+/g, ' ').trim();
    if (t) lines.push(t);
    line = '';
  };
  const walk = (e: El) => {
    for (const c of e.content) {
      if (typeof c === 'string') {
        line += c;
        continue;
      }
      if (c.name === 'tr') {
        flush();
        line = kids(c, 'th').concat(kids(c, 'td')).length
          ? c.children
              .filter((x) => x.name === 'th' || x.name === 'td')
              .map(textOf)
              .join(' | ')
          : textOf(c);
        flush();
      } else if (['paragraph', 'item', 'caption', 'br', 'list', 'table'].includes(c.name)) {
        flush();
        walk(c);
        flush();
      } else walk(c);
    }
  };
  walk(el);
  flush();
  return lines.join('\n');
}

function nonXmlFile(body: El, title: string): { contentType: string; bytes?: Buffer; reference?: string; problem?: string } {
  const t = kid(body, 'text');
  const contentType = t?.attrs.mediaType ?? 'text/plain';
  if (!t) return { contentType, problem: 'The document has no content' };
  const reference = kid(t, 'reference')?.attrs.value;
  const raw = t.content.filter((c) => typeof c === 'string').join('');
  if (!raw.trim())
    return {
      contentType,
      reference,
      problem: reference ? `The file itself is not in the document (it is only referenced: ${reference.slice(0, 120)})` : 'The document has no content',
    };
  try {
    let bytes = t.attrs.representation === 'B64' ? Buffer.from(raw.replace(/\s+/g, ''), 'base64') : Buffer.from(raw, 'utf8');
    const compression = t.attrs.compression;
    if (compression === 'DF') {
      try {
        bytes = inflateRawSync(bytes);
      } catch {
        bytes = inflateSync(bytes);
      }
    } else if (compression === 'GZ') bytes = gunzipSync(bytes);
    else if (compression) return { contentType, problem: `The file is compressed as ${compression}, which Tidewell cannot open` };
    return { contentType, bytes };
  } catch {
    return { contentType, problem: `The embedded file of "${title}" could not be decoded` };
  }
}

/** The document's sections: every <section>, nested ones inside their parent. */
const topSections = (body: El | undefined) =>
  kids(body, 'component')
    .map((c) => kid(c, 'section'))
    .filter((s): s is El => !!s);

/** The C-CDA document as import resources and left-outs. */
export function readCcda(doc: El): CcdaRead {
  const idEl = kid(doc, 'id');
  const docKey = idEl?.attrs.root ? `${idEl.attrs.root}|${idEl.attrs.extension ?? ''}` : hash(JSON.stringify(doc));
  const r = new Reader(docKey);
  for (const el of descendants(doc, 'text')) collectIds(el, r.narrative);
  const title = textOf(kid(doc, 'title')) || kid(doc, 'code')?.attrs.displayName || 'Clinical document';
  const effective = hl7Time(kid(doc, 'effectiveTime')?.attrs.value);
  const patient = at(doc, 'recordTarget', 'patientRole', 'patient');
  const sourcePatient = personName(kid(patient, 'name')) || undefined;
  const assigned = at(doc, 'author', 'assignedAuthor');
  const author =
    personName(at(assigned, 'assignedPerson', 'name')) ||
    textOf(at(assigned, 'representedOrganization', 'name')) ||
    textOf(at(doc, 'custodian', 'assignedCustodian', 'representedCustodianOrganization', 'name')) ||
    undefined;
  const sections: CcdaSection[] = [];
  const body = at(doc, 'component', 'structuredBody');
  const nonXml = at(doc, 'component', 'nonXMLBody');
  const html: string[] = [];
  const plain: string[] = [];

  const walkSection = (s: El, depth: number) => {
    const code = kid(s, 'code')?.attrs.code;
    const sTitle = textOf(kid(s, 'title')) || kid(s, 'code')?.attrs.displayName || 'Section';
    const entries = kids(s, 'entry');
    sections.push({ title: sTitle, code, entries: entries.length });
    const narrative = kid(s, 'text');
    const heading = `h${Math.min(depth + 2, 6)}`;
    html.push(`<${heading}>${escapeHtml(sTitle)}</${heading}>${narrative ? narrativeHtml(narrative) : ''}`);
    plain.push(`${sTitle.toUpperCase()}\n${narrative ? narrativeText(narrative) : ''}`.trim());
    const reader = READERS[SECTION_ALIASES[code ?? ''] ?? code ?? ''];
    if (!entries.length && depth === 0) r.skip(sTitle, 'Section', `Section: ${sTitle}`, 'No coded entries: kept as text in the document note', s);
    for (const entry of entries) {
      if (reader) reader(r, sTitle, entry);
      else {
        const st = statements(entry)[0];
        const what = r.concept(kid(st, 'code'))?.text ?? r.concept(kid(st, 'value'))?.text;
        r.skip(
          sTitle,
          st?.name ?? 'entry',
          `${sTitle}${what ? `: ${what}` : ''}`,
          `Tidewell does not import ${sTitle} entries: kept as text in the document note`,
          st ?? entry,
        );
      }
    }
    for (const sub of topSections(s)) walkSection(sub, depth + 1);
  };
  for (const s of topSections(body)) walkSection(s, 0);

  const docIdentifier = [{ system: 'urn:ccda:document', value: docKey }];
  const base = {
    resourceType: 'DocumentReference',
    identifier: docIdentifier,
    status: 'current',
    docStatus: 'final',
    type: { text: 'DOCUMENT' },
    description: title,
    ...(effective ? { date: effective } : {}),
    ...(author ? { author: [{ display: author }] } : {}),
  };
  const docResource = (content: Json[]) => ({ fullUrl: `urn:uuid:${hash(`document|${docKey}`)}`, resource: { ...base, content } });
  if (body) {
    const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
    const { fullUrl, resource } = docResource([
      { attachment: { contentType: 'text/plain', data: b64(plain.join('\n\n')) } },
      { attachment: { contentType: 'text/html', data: b64(html.join('')) } },
    ]);
    r.entries.push({ fullUrl, resource });
    r.sectionOf.set(resource, 'Document');
  } else if (nonXml) {
    const file = nonXmlFile(nonXml, title);
    sections.push({ title: 'Embedded document (nonXMLBody)', entries: 1 });
    if (file.problem || !file.bytes) r.skip('Document', 'DocumentReference', `Document: ${title}`, file.problem ?? 'The document has no content', nonXml);
    else {
      const { fullUrl, resource } = docResource([{ attachment: { contentType: file.contentType, title, data: file.bytes.toString('base64') } }]);
      r.entries.push({ fullUrl, resource });
      r.sectionOf.set(resource, 'Document');
    }
  } else r.skip('Document', 'DocumentReference', `Document: ${title}`, 'The document has no body', doc);

  return { docKey, title, sourcePatient, entries: r.entries, sectionOf: r.sectionOf, codingsOf: r.codingsOf, leftOut: r.leftOut, sections };
}

function collectIds(el: El, into: Map<string, string>): void {
  for (const c of el.children) {
    if (c.attrs.ID) into.set(c.attrs.ID, textOf(c));
    collectIds(c, into);
  }
}
