/** A patient's bundle cut into the requests it is sent in, within a request's bounds. */
import { utf8Bytes } from './export-files.js';
import { referencesIn, refOf, relative, type PatientGroup } from './group.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * A request carries at most 6 MB (a Lambda's payload; base64 files inline count in full) and a bundle
 * 5,000 resources, and API Gateway answers within 29 s: a patient of ten years (thousands of notes,
 * results and texts) is sent in parts under 4 MiB and 500 resources. A resource takes about 20 ms to
 * write locally (its marker and what it makes), so a part is written in about 10 s, within the gateway's limit.
 */
export const PART_BYTES = 4 * 1024 * 1024;
export const PART_RESOURCES = 500;
/** Resources of no patient that the patient's resources name: sent with every part that names them, for the server to resolve. */
const CONTEXT_TYPES = new Set(['Practitioner', 'PractitionerRole', 'Location', 'Organization', 'Medication']);
/** An entry repeated in a later part only so references resolve: read by the import, not brought in again (FHIR's search mode for an included resource). */
export const INCLUDED = { mode: 'include' } as const;

type Entry = PatientGroup['entry'][number] & { search?: { mode: string } };

/** The UTC day an Observation was measured: the import makes one vitals note per moment and one lab note per day of results. */
function observationDay(r: Json): string | undefined {
  const when = r.effectiveDateTime ?? r.effectivePeriod?.start ?? r.effectiveInstant ?? r.issued;
  if (typeof when !== 'string') return undefined;
  return /T/.test(when) && !Number.isNaN(Date.parse(when)) ? new Date(Date.parse(when)).toISOString().slice(0, 10) : when.slice(0, 10);
}

const isSocial = (r: Json) =>
  ((r.category as Json[] | undefined) ?? []).some((c) => ((c.coding as Json[] | undefined) ?? []).some((x) => x.code === 'social-history'));

/**
 * What the import reads together must come in one request: a resource and what it names (a call and
 * its note, a report and its results, a file and its note), resources of one identity (a fax and its
 * note share the fax's id, a lab note's report, orders and results the note's), a payload and the
 * document carrying its file (same url), one moment's or day's Observations (one vitals or lab note),
 * a question's social history answers, the medication list with the prescriptions it holds, and a
 * series with its occurrences. These are the clusters a patient is cut between, never inside.
 */
function tokensOf(e: Entry, skip: Set<string>): string[] {
  const r = e.resource;
  const tokens = [e.fullUrl, refOf(r), ...referencesIn(r).map(relative)].filter((t) => !skip.has(t)).map((t) => `ref|${t}`);
  for (const id of (r.identifier as Json[] | undefined) ?? []) {
    if (typeof id?.value !== 'string') continue;
    // Tidewell's ids name the kind last (…/<practice>/fax, …/note): one record's resources share the rest.
    tokens.push(
      String(id.system ?? '').startsWith('https://tidewell.app/fhir/identifier/')
        ? `tw|${String(id.system).replace(/\/[^/]+$/, '')}|${id.value.split('/')[0]}`
        : `id|${String(id.system ?? '')}|${id.value}`,
    );
  }
  for (const c of (r.content as Json[] | undefined) ?? []) if (c.attachment?.url) tokens.push(`url|${String(c.attachment.url)}`);
  for (const p of (r.payload as Json[] | undefined) ?? []) if (p.contentAttachment?.url) tokens.push(`url|${String(p.contentAttachment.url)}`);
  if (r.resourceType === 'Observation') tokens.push(isSocial(r) ? 'social' : `day|${observationDay(r) ?? ''}`);
  if (['MedicationStatement', 'MedicationRequest', 'MedicationDispense'].includes(r.resourceType)) tokens.push('medications');
  if (r.resourceType === 'Appointment') tokens.push('appointments');
  return tokens;
}

const bytesOf = (e: Entry) => utf8Bytes(JSON.stringify(e)) + 1;

/** Resources referenced before what references them (a report's results before the report, a note before its file). */
function inReferenceOrder(entries: Entry[]): Entry[] {
  const byRef = new Map<string, Entry>();
  for (const e of entries) for (const ref of [e.fullUrl, refOf(e.resource)]) byRef.set(ref, e);
  const out: Entry[] = [];
  const state = new Map<Entry, 'visiting' | 'done'>();
  const visit = (e: Entry) => {
    if (state.has(e)) return;
    state.set(e, 'visiting');
    for (const ref of referencesIn(e.resource)) {
      const target = byRef.get(relative(ref));
      if (target && target !== e) visit(target);
    }
    state.set(e, 'done');
    out.push(e);
  };
  entries.forEach(visit);
  return out;
}

/**
 * One patient's bundle as the requests it is sent in: each at most `bytes` of JSON and `resources`
 * entries, cut only between clusters (tokensOf), the Patient first in each. The first part carries
 * the patient and every practitioner, location and medication of the group; a later part repeats the
 * Patient and those its resources name, marked included, so the chart is found and every reference
 * resolves while nothing is brought in twice. A cluster larger than a part goes alone.
 */
export function partsOf(entry: Entry[], limits: { bytes?: number; resources?: number } = {}): Entry[][] {
  const maxBytes = limits.bytes ?? PART_BYTES;
  const maxResources = limits.resources ?? PART_RESOURCES;
  const patient = entry.find((e) => e.resource.resourceType === 'Patient')!;
  const context = entry.filter((e) => CONTEXT_TYPES.has(e.resource.resourceType));
  const own = entry.filter((e) => e !== patient && !context.includes(e));
  const skip = new Set([patient, ...context].flatMap((e) => [e.fullUrl, refOf(e.resource)]));
  // Clusters by shared tokens (union-find over the resources of the patient).
  const parent = own.map((_, i) => i);
  const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i]!)));
  const firstWith = new Map<string, number>();
  own.forEach((e, i) => {
    for (const t of tokensOf(e, skip)) {
      const j = firstWith.get(t);
      if (j === undefined) firstWith.set(t, i);
      else parent[root(i)] = root(j);
    }
  });
  const clusters = new Map<number, Entry[]>();
  own.forEach((e, i) => clusters.set(root(i), [...(clusters.get(root(i)) ?? []), e]));
  const contextByRef = new Map(context.flatMap((e) => [e.fullUrl, refOf(e.resource)].map((ref) => [ref, e] as const)));
  /** The context a part's resources name, and what that names in turn (a role's practitioner). */
  const named = (members: Entry[]) => {
    const found = new Set<Entry>();
    const walk = (r: Json) => {
      for (const ref of referencesIn(r)) {
        const c = contextByRef.get(relative(ref));
        if (c && !found.has(c)) {
          found.add(c);
          walk(c.resource);
        }
      }
    };
    members.forEach((m) => walk(m.resource));
    return context.filter((c) => found.has(c));
  };
  const parts: Entry[][] = [];
  let members: Entry[] = [];
  let size = 0;
  const head = () =>
    parts.length === 0 ? [patient, ...context] : [{ ...patient, search: { ...INCLUDED } }, ...named(members).map((c) => ({ ...c, search: { ...INCLUDED } }))];
  const close = () => {
    parts.push([...head(), ...inReferenceOrder(members)]);
    members = [];
    size = 0;
  };
  const headBytes = bytesOf(patient) + context.reduce((n, c) => n + bytesOf(c), 0) + 200;
  for (const cluster of clusters.values()) {
    const bytes = cluster.reduce((n, e) => n + bytesOf(e), 0);
    if (members.length && (size + bytes + headBytes > maxBytes || members.length + cluster.length + 1 + context.length > maxResources)) close();
    members.push(...cluster);
    size += bytes;
  }
  if (members.length || parts.length === 0) close();
  return parts;
}
