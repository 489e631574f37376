import { createHash } from 'node:crypto';
import type { LabNoteData, LabOrderStatus, LabResultItem } from '../../../shared/labs/lab-schema.js';
import { uploadError } from '../../../shared/notes/files.js';
import { identifiersOf, SYSTEMS, TIDEWELL_ID_SYSTEM } from './fhir-core.js';
import { categories, day, decode } from './import-plan/read.js';

/*
 * Lab reports from a FHIR bundle. A DiagnosticReport with its result Observations and the
 * ServiceRequests it is based on becomes one signed LAB note holding the results as a received
 * result holds them, marked `source: 'import'` (it was never ordered here, so it has no vendor
 * order id). The reports Tidewell's export wrote for one LAB note (one per panel) come back as that
 * one note again, with the note's own text. A lab Observation no report holds joins the other
 * report-less results of its day in one LAB note.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** What one bundle resource adds to an imported LAB note; the parts of one group make one note. */
export interface LabPlan {
  kind: 'lab';
  group: string;
  /** References (fullUrls) a file's context.related may name to go onto this note. */
  hosts: string[];
  at: string;
  data: LabNoteData & { formattedText?: string; subject?: string };
  file?: { name: string; contentType: string; bytes: Buffer };
}

type Outcome = { planned?: LabPlan; summary: string; reason?: string };

export const LAB_REASONS = {
  withReport: 'Brought in with its lab report',
  throughReport: 'Brought in through its lab report',
  orderOnly: 'A lab order without its results is not imported',
  notLab: 'Only lab reports are imported',
  noteElsewhere: 'Brought in through its note',
  empty: 'The report holds no results',
  inError: 'The report was entered in error',
  noValue: 'It has no value',
} as const;

const LOINC_CODE = /^\d{1,7}-\d$/;
const TIDEWELL_LAB_ID = new RegExp(`^${TIDEWELL_ID_SYSTEM.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}/(.+)/(lab-report|lab-order|lab-result|note)$`);
const text = (cc: Json | undefined): string | undefined => cc?.text || cc?.coding?.find((c: Json) => c.display)?.display || cc?.coding?.[0]?.code;
const plainText = (attachments: Json[] | undefined) =>
  decode((attachments ?? []).find((a) => a?.data && String(a.contentType ?? '').startsWith('text/plain')))?.trim() || undefined;
const instant = (v: unknown) => (typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? new Date(Date.parse(v)).toISOString() : undefined);

const REPORT_STATUS: Record<string, LabOrderStatus> = {
  registered: 'ordered',
  partial: 'partial',
  preliminary: 'partial',
  final: 'final',
  amended: 'final',
  corrected: 'final',
  appended: 'final',
  cancelled: 'cancelled',
};

/** The bundle's lab resources and how they hang together. */
export interface LabBundle {
  fullUrlOf: Map<Json, string>;
  /** Observations and ServiceRequests a lab report brings in. */
  broughtIn: Set<Json>;
  /** The note group of a report: the Tidewell LAB note it was exported from, else the report itself. */
  groupOf: Map<Json, string>;
  /** The first report of each group, which carries the group's note text and its orders no report names. */
  first: Map<string, Json>;
  /** The orders of a Tidewell LAB note, and the note's own DocumentReference, by group. */
  noteOrders: Map<string, Json[]>;
  noteDocument: Map<string, Json>;
  byRef: Map<string, Json>;
  /** The texts of the bundle's notes (DocumentReference): a report presenting one of them is that note again. */
  noteTexts: Set<string>;
}

/** `<practice>|<noteId>` for a resource Tidewell's export wrote for a LAB note. */
function tidewellNote(r: Json): string | undefined {
  for (const id of identifiersOf(r)) {
    const m = typeof id?.system === 'string' ? TIDEWELL_LAB_ID.exec(id.system) : null;
    if (m && typeof id.value === 'string') return `${m[1]}|${id.value.split('/')[0]}`;
  }
  return undefined;
}

const isLabReport = (r: Json) =>
  r.resourceType === 'DiagnosticReport' && (categories(r).includes('LAB') || ((r.result as Json[] | undefined) ?? []).length > 0);

function resolve(bundle: Pick<LabBundle, 'byRef'>, from: Json, ref: unknown): Json | undefined {
  if (typeof ref !== 'string') return undefined;
  if (ref.startsWith('#')) return (from.contained as Json[] | undefined)?.find((c) => `#${c.id}` === ref);
  return bundle.byRef.get(ref) ?? bundle.byRef.get(ref.split('/').slice(-2).join('/'));
}

export function labBundle(entries: { fullUrl?: string; resource: Record<string, unknown> }[] | undefined): LabBundle {
  const bundle: LabBundle = {
    fullUrlOf: new Map(),
    broughtIn: new Set(),
    groupOf: new Map(),
    first: new Map(),
    noteOrders: new Map(),
    noteDocument: new Map(),
    byRef: new Map(),
    noteTexts: new Set(),
  };
  for (const e of entries ?? []) {
    const r = e.resource as Json;
    if (e.fullUrl) {
      bundle.fullUrlOf.set(r, e.fullUrl);
      bundle.byRef.set(e.fullUrl, r);
    }
    if (typeof r.id === 'string') bundle.byRef.set(`${r.resourceType}/${r.id}`, r);
    if (r.resourceType === 'DocumentReference') {
      const note = plainText((r.content as Json[] | undefined)?.map((c) => c.attachment as Json));
      if (note) bundle.noteTexts.add(note);
    }
    // A transaction bundle's urn:uuid fullUrl is also what a relative reference (Observation/<uuid>) names.
    if (e.fullUrl?.startsWith('urn:uuid:')) bundle.byRef.set(`${r.resourceType}/${e.fullUrl.slice('urn:uuid:'.length)}`, r);
  }
  for (const e of entries ?? []) {
    const r = e.resource as Json;
    if (!isLabReport(r) || r.status === 'entered-in-error') continue;
    const group = tidewellNote(r) ?? `report|${bundle.fullUrlOf.get(r) ?? reportKey(r)}`;
    bundle.groupOf.set(r, group);
    if (!bundle.first.has(group)) bundle.first.set(group, r);
    for (const ref of (r.result as Json[] | undefined) ?? []) {
      const obs = resolve(bundle, r, ref?.reference);
      if (obs?.resourceType === 'Observation') bundle.broughtIn.add(obs);
    }
    for (const ref of (r.basedOn as Json[] | undefined) ?? []) {
      const order = resolve(bundle, r, ref?.reference);
      if (order?.resourceType === 'ServiceRequest') bundle.broughtIn.add(order);
    }
  }
  for (const e of entries ?? []) {
    const r = e.resource as Json;
    const note = tidewellNote(r);
    if (!note || !bundle.first.has(note)) continue;
    if (r.resourceType === 'ServiceRequest') {
      bundle.noteOrders.set(note, [...(bundle.noteOrders.get(note) ?? []), r]);
      bundle.broughtIn.add(r);
    }
    if (r.resourceType === 'DocumentReference' && r.type?.text === 'LAB') bundle.noteDocument.set(note, r);
    // Tidewell's export has every result of a note under one of its reports.
    if (r.resourceType === 'Observation') bundle.broughtIn.add(r);
  }
  return bundle;
}

function reportKey(r: Json): string {
  const id = identifiersOf(r).find((i) => i.value);
  const basis = id ? `${id.system ?? ''}|${id.value}` : typeof r.id === 'string' ? r.id : JSON.stringify(r);
  return createHash('sha256').update(basis).digest('hex').slice(0, 16);
}

/** One lab Observation as a result line of the LAB note, as a received result holds it. */
function resultItem(obs: Json, id: string, report: Json | undefined, reportId: string | undefined): LabResultItem | undefined {
  const coding = (obs.code?.coding as Json[] | undefined)?.find((c) => c.system === SYSTEMS.loinc) ?? obs.code?.coding?.[0];
  const q = obs.valueQuantity;
  const valueString =
    typeof obs.valueString === 'string'
      ? obs.valueString
      : (text(obs.valueCodeableConcept) ?? (typeof obs.valueBoolean === 'boolean' ? String(obs.valueBoolean) : undefined));
  if (!(q && typeof q.value === 'number') && valueString === undefined) return undefined;
  const ranges = ((obs.referenceRange as Json[] | undefined) ?? [])
    .map((rr) => ({
      ...(typeof rr.low?.value === 'number' ? { low: rr.low.value } : {}),
      ...(typeof rr.high?.value === 'number' ? { high: rr.high.value } : {}),
    }))
    .filter((rr) => Object.keys(rr).length > 0);
  const issued = instant(obs.issued);
  const performer = obs.performer?.[0]?.display ?? report?.performer?.[0]?.display;
  const panel = report ? text(report.code) : undefined;
  return {
    id,
    text: text(obs.code) ?? 'Result',
    code: typeof coding?.code === 'string' ? coding.code : '',
    ...(coding?.display ? { codeText: coding.display } : {}),
    ...(obs.interpretation?.[0]?.coding?.[0]?.code ? { interpretation: String(obs.interpretation[0].coding[0].code) } : {}),
    ...(issued ? { issued } : {}),
    ...(ranges.length ? { ranges } : {}),
    ...(q && typeof q.value === 'number'
      ? { valueQuantity: { value: q.value, ...(q.unit || q.code ? { unit: String(q.unit ?? q.code) } : {}) } }
      : { valueString }),
    ...(performer ? { performer: String(performer) } : {}),
    ...(reportId ? { reportId } : {}),
    ...(panel ? { panel } : {}),
  };
}

const obsEffective = (obs: Json) => instant(obs.effectiveDateTime ?? obs.effectivePeriod?.start);

/** A DiagnosticReport: its results, orders, conclusion and PDF as (part of) one LAB note. */
export function planLabReport(r: Json, bundle: LabBundle): Outcome {
  const panel = text(r.code) ?? 'Lab report';
  const group = bundle.groupOf.get(r);
  const effective = instant(r.effectiveDateTime ?? r.effectivePeriod?.start);
  const summaryOf = (n: number, at?: string) => `Lab report: ${panel}${day(at) ? ` on ${day(at)}` : ''} (${n} result${n === 1 ? '' : 's'})`;
  if (r.status === 'entered-in-error') return { summary: summaryOf(0, effective), reason: LAB_REASONS.inError };
  if (!group) {
    // Synthea writes each visit's note twice: as a DocumentReference and as a report presenting the same text.
    const presented = plainText(r.presentedForm as Json[] | undefined);
    return { summary: `Report: ${panel}`, reason: presented && bundle.noteTexts.has(presented) ? LAB_REASONS.noteElsewhere : LAB_REASONS.notLab };
  }
  const reportId = reportKey(r);
  const observations = ((r.result as Json[] | undefined) ?? [])
    .map((ref) => resolve(bundle, r, ref?.reference))
    .filter((o): o is Json => o?.resourceType === 'Observation');
  const results = observations.map((o, i) => resultItem(o, `${reportId}/${i + 1}`, r, reportId)).filter((x): x is LabResultItem => Boolean(x));
  const first = bundle.first.get(group) === r;
  const basedOn = ((r.basedOn as Json[] | undefined) ?? [])
    .map((ref) => resolve(bundle, r, ref?.reference))
    .filter((o): o is Json => o?.resourceType === 'ServiceRequest');
  const orders = [...new Set([...basedOn, ...(first ? (bundle.noteOrders.get(group) ?? []) : [])])];
  const pdf = ((r.presentedForm as Json[] | undefined) ?? []).find((a) => a?.data && !String(a.contentType ?? '').startsWith('text/'));
  const presentedText = decode(((r.presentedForm as Json[] | undefined) ?? []).find((a) => a?.data && String(a.contentType ?? '').startsWith('text/plain')));
  const conclusion = (typeof r.conclusion === 'string' && r.conclusion.trim()) || presentedText?.trim() || undefined;
  // A Tidewell report comes back on its note's date (its order's); another system's report is dated
  // when its samples were taken or it was issued, not when it was ordered.
  const at = group.startsWith('report|')
    ? (effective ?? instant(r.issued) ?? instant(orders[0]?.authoredOn))
    : (instant(orders[0]?.authoredOn) ?? effective ?? instant(r.issued));
  // Named by the day its samples were taken, as a lab report is.
  const summary = summaryOf(results.length, effective ?? at);
  if (!at) return { summary, reason: 'The report has no date' };
  if (results.length === 0 && !conclusion && !pdf) return { summary, reason: LAB_REASONS.empty };

  let file: LabPlan['file'];
  if (pdf) {
    const name =
      String(pdf.title ?? `lab-report-${day(at) ?? 'imported'}.pdf`)
        .replace(/[/\\]/g, '_')
        .trim() || 'lab-report.pdf';
    const bytes = Buffer.from(String(pdf.data), 'base64');
    const problem = uploadError(name, bytes.length);
    if (problem) return { summary, reason: `The report's file: ${problem}` };
    file = { name, contentType: String(pdf.contentType ?? 'application/pdf'), bytes };
  }

  const tests: string[] = [];
  const testNames: Record<string, string> = {};
  for (const o of orders) {
    const loinc = (o.code?.coding as Json[] | undefined)?.find((c) => c.system === SYSTEMS.loinc && LOINC_CODE.test(String(c.code)))?.code as
      string | undefined;
    const name = text(o.code);
    const code = loinc ?? name;
    if (!code || tests.includes(code)) continue;
    tests.push(code);
    if (name && name !== code) testNames[code] = name;
  }
  // The collection time, when every result was collected then (a received result's note holds one for all).
  const collectedAt = effective && observations.every((o) => !obsEffective(o) || obsEffective(o) === effective) ? effective : undefined;
  const orderedFrom = r.performer?.[0]?.display ?? orders[0]?.performer?.[0]?.display;
  const doc = first ? bundle.noteDocument.get(group) : undefined;
  const docUrl = doc ? bundle.fullUrlOf.get(doc) : undefined;
  const ownUrl = bundle.fullUrlOf.get(r);
  return {
    summary,
    planned: {
      kind: 'lab',
      group,
      hosts: [ownUrl, docUrl].filter((u): u is string => Boolean(u)),
      at,
      file,
      data: {
        source: 'import',
        // The report's conclusion is what the chart's notes list shows of it, when no note text came with it.
        ...(doc ? noteText(doc) : conclusion ? { text: conclusion } : {}),
        tests,
        ...(Object.keys(testNames).length ? { testNames } : {}),
        actions: tests.length ? tests.map((c) => ({ display: testNames[c] ?? c })) : [{ display: panel }],
        ...(orderedFrom ? { orderedFrom: String(orderedFrom) } : {}),
        orderStatus: REPORT_STATUS[r.status] ?? 'final',
        ...(collectedAt ? { collectedAt } : {}),
        ...(instant(r.issued) ? { lastUpdated: instant(r.issued) } : {}),
        results,
        ...(conclusion ? { conclusions: { [reportId]: conclusion } } : {}),
      },
    },
  };
}

/** The text of the LAB note a Tidewell report came from, as its DocumentReference carries it. */
function noteText(doc: Json | undefined): { text?: string; formattedText?: string; subject?: string } {
  if (!doc) return {};
  const content = (doc.content as Json[] | undefined) ?? [];
  const plain = decode(content.find((c) => String(c.attachment?.contentType ?? '').startsWith('text/plain'))?.attachment);
  const html = decode(content.find((c) => String(c.attachment?.contentType ?? '').startsWith('text/html'))?.attachment);
  const subject = typeof doc.description === 'string' ? doc.description : undefined;
  // The export writes "Subject: …" above the text, and a stand-in line when the note had no text.
  let body = plain ?? '';
  if (subject && body.startsWith(`Subject: ${subject}`)) body = body.slice(`Subject: ${subject}`.length).replace(/^\n\n/, '');
  if (body === 'Laboratory report (LAB)') body = '';
  return { ...(body ? { text: body } : {}), ...(html ? { formattedText: html } : {}), ...(subject ? { subject } : {}) };
}

/** A lab Observation: brought in with its report, else one line of its day's LAB note. */
export function planLabObservation(r: Json, bundle: LabBundle): Outcome {
  const at = obsEffective(r) ?? instant(r.issued);
  const item = resultItem(r, `${day(at) ?? 'result'}/${reportKey(r)}`, undefined, undefined);
  const value = item
    ? item.valueQuantity
      ? `${item.valueQuantity.value}${item.valueQuantity.unit ? ` ${item.valueQuantity.unit}` : ''}`
      : item.valueString
    : undefined;
  const summary = `Lab result: ${text(r.code) ?? 'Result'}${value ? ` ${value}` : ''}${day(at) ? ` on ${day(at)}` : ''}`;
  if (bundle.broughtIn.has(r)) return { summary, reason: LAB_REASONS.withReport };
  if (r.status === 'entered-in-error' || r.status === 'cancelled') return { summary, reason: 'The result was cancelled or entered in error' };
  if (!item) return { summary, reason: LAB_REASONS.noValue };
  if (!at) return { summary, reason: 'The result has no date' };
  return {
    summary,
    planned: {
      kind: 'lab',
      group: `results|${day(at)}`,
      hosts: [],
      at,
      data: {
        source: 'import',
        tests: [],
        actions: [{ display: 'Lab results' }],
        orderStatus: r.status === 'final' || r.status === 'amended' || r.status === 'corrected' ? 'final' : 'partial',
        results: [{ ...item, ...(item.issued ? {} : { issued: at }) }],
        ...(r.performer?.[0]?.display ? { orderedFrom: String(r.performer[0].display) } : {}),
      },
    },
  };
}

export function planLabOrder(r: Json, bundle: LabBundle): Outcome {
  const summary = `Lab order: ${text(r.code) ?? 'Test'}${day(r.authoredOn) ? ` on ${day(r.authoredOn)}` : ''}`;
  return { summary, reason: bundle.broughtIn.has(r) ? LAB_REASONS.withReport : LAB_REASONS.orderOnly };
}

/** A LAB note's own DocumentReference in a Tidewell bundle: its text comes in with the note's first report. */
export function planLabDocument(r: Json, bundle: LabBundle): Outcome {
  const note = tidewellNote(r);
  const summary = `Note: ${typeof r.description === 'string' ? r.description : 'Lab report'}`;
  return { summary, reason: note && bundle.first.has(note) ? LAB_REASONS.throughReport : LAB_REASONS.orderOnly };
}

/** Adds one plan's part to its group's note data (the first part made the note). */
export function mergeLabData(into: LabNoteData, part: LabNoteData): LabNoteData {
  const tests = [...new Set([...(into.tests ?? []), ...(part.tests ?? [])])];
  const actions = [...(into.actions ?? []), ...(part.actions ?? [])].filter((a, i, all) => all.findIndex((b) => b.display === a.display) === i);
  const statuses = [into.orderStatus, part.orderStatus];
  return {
    ...part,
    ...into,
    tests,
    actions,
    testNames: { ...(part.testNames ?? {}), ...(into.testNames ?? {}) },
    conclusions: { ...(into.conclusions ?? {}), ...(part.conclusions ?? {}) },
    orderStatus: statuses.includes('partial') ? 'partial' : statuses.includes('ordered') ? 'ordered' : (into.orderStatus ?? part.orderStatus),
    results: [...(into.results ?? []), ...(part.results ?? [])],
    ...(into.lastUpdated && part.lastUpdated && part.lastUpdated > into.lastUpdated ? { lastUpdated: part.lastUpdated } : {}),
  };
}
