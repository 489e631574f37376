import type { FormNoteData, SubmissionQuestion } from '../../../shared/forms/forms.js';
import { uploadError } from '../../../shared/notes/files.js';
import { LIMITS } from '../../../shared/limits.js';
import { NoteData, type Note } from '../../../shared/notes/note-schema.js';
import { formatPhone } from '../../../shared/patients/phone.js';
import type { ImportedCall } from './calls.js';
import { SYSTEMS, TIDEWELL_ID_SYSTEM } from './fhir-core.js';
import { FORM_NAME_EXTENSION } from './forms.js';
import { day, decode, escapeHtml } from './import-plan/read.js';

/*
 * Calls, faxes, form responses and dispenses from a FHIR bundle. Calls, faxes and form responses
 * come in as read-only history: a signed note of the kind Tidewell writes for them, holding what
 * the resource says (and its recording or PDF when the bundle carries it). Tidewell's own export
 * also writes each of those notes as a DocumentReference: that one is left out, and its text is
 * the note's, so a chart exported again reads the same.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface ImportedFile {
  name: string;
  contentType: string;
  bytes: Buffer;
}

/** A note the import writes for a call, fax or form response. */
export interface CommsNote {
  kind: 'note';
  noteType: Note['noteType'];
  status: Note['status'];
  at: string;
  text: string;
  data: Record<string, unknown>;
  files: ImportedFile[];
  /** Read-only history: signed whatever its status says. */
  signed: true;
}

export interface CommsPlan<P> {
  planned?: P;
  summary: string;
  reason?: string;
}

/** What the whole bundle says that calls, faxes, form responses and dispenses need. */
export interface CommsContext {
  /** DocumentReferences written from a call's, fax's or form response's note, with what brings them in. */
  leftOut: Map<Json, string>;
  /** The text, HTML and date of the note a call, fax or form response was written from. */
  noteTexts: Map<Json, { text?: string; html?: string; at?: string }>;
  /** Files carried inside the bundle, by the path in the zip they came from: a payload that only links to one finds its bytes here. */
  carried: Map<string, string>;
  /** References that name one of the bundle's prescriptions (MedicationRequest). */
  prescriptions: Set<string>;
  /** The note DocumentReference a call, fax or form response was written from: who wrote that note is who wrote its own. */
  twins: Map<Json, Json>;
}

const THROUGH = { call: 'Brought in through its call', fax: 'Brought in through its fax', form: 'Brought in through its form response' } as const;
/** The text the export writes for a note without any: not the note's words. */
const PLACEHOLDER = /^[A-Za-z ]+ \((PHONE_CALL|FAX|FORM)\)$/;

const mediumOf = (r: Json): string[] => ((r.medium as Json[] | undefined) ?? []).flatMap((m) => (m.coding ?? []).map((c: Json) => c.code));
/** A Tidewell id as another kind of the same practice's: a fax's or form's note has the fax's or form's id. */
const identity = (id: Json | undefined, kind: string) =>
  typeof id?.system === 'string' && id.system.startsWith(`${TIDEWELL_ID_SYSTEM}/`) && id.value
    ? `${id.system.replace(/\/[^/]+$/, `/${kind}`)}|${id.value}`
    : undefined;

export function commsContext(entries: readonly { fullUrl?: string; resource: Record<string, unknown> }[] | undefined): CommsContext {
  const ctx: CommsContext = { leftOut: new Map(), noteTexts: new Map(), carried: new Map(), prescriptions: new Set(), twins: new Map() };
  const docsByUrl = new Map<string, Json>();
  const docsById = new Map<string, Json>();
  const docs: Json[] = [];
  for (const e of entries ?? []) {
    const r = e.resource as Json;
    if (r.resourceType === 'MedicationRequest') {
      if (e.fullUrl) ctx.prescriptions.add(e.fullUrl);
      if (typeof r.id === 'string') ctx.prescriptions.add(`MedicationRequest/${r.id}`);
    }
    if (r.resourceType !== 'DocumentReference') continue;
    docs.push(r);
    if (e.fullUrl) docsByUrl.set(e.fullUrl, r);
    const key = identity((r.identifier as Json[] | undefined)?.[0], 'note');
    if (key) docsById.set(key, r);
    for (const c of (r.content as Json[] | undefined) ?? [])
      if (c.attachment?.url && c.attachment.data) ctx.carried.set(String(c.attachment.url), String(c.attachment.data));
  }
  const twinOf = (r: Json): { doc?: Json; reason?: string; type?: string } => {
    if (r.resourceType === 'QuestionnaireResponse') return { doc: docsById.get(identity(r.identifier, 'note') ?? ''), reason: THROUGH.form, type: 'FORM' };
    if (r.resourceType !== 'Communication') return {};
    const medium = mediumOf(r);
    if (medium.includes('PHONE'))
      return {
        doc: ((r.about as Json[] | undefined) ?? []).map((a) => docsByUrl.get(String(a.reference))).find(Boolean),
        reason: THROUGH.call,
        type: 'PHONE_CALL',
      };
    if (medium.includes('FAXWRIT'))
      return { doc: docsById.get(identity(Array.isArray(r.identifier) ? r.identifier[0] : undefined, 'note') ?? ''), reason: THROUGH.fax, type: 'FAX' };
    return {};
  };
  const twinUrls = new Map<string, string>();
  for (const e of entries ?? []) {
    const { doc, reason, type } = twinOf(e.resource as Json);
    if (!doc || !reason || doc.type?.text !== type) continue;
    ctx.leftOut.set(doc, reason);
    ctx.twins.set(e.resource as Json, doc);
    const content = (doc.content as Json[] | undefined) ?? [];
    const plain = decode(content.find((c) => String(c.attachment?.contentType ?? '').startsWith('text/plain'))?.attachment);
    const html = decode(content.find((c) => String(c.attachment?.contentType ?? '').startsWith('text/html'))?.attachment);
    const at = doc.context?.period?.start;
    ctx.noteTexts.set(e.resource as Json, { text: plain && !PLACEHOLDER.test(plain) ? plain : undefined, html, at: validDate(at) ? at : undefined });
    for (const [url, d] of docsByUrl) if (d === doc) twinUrls.set(url, reason);
  }
  // The note's files (a voicemail, a fax's PDF) come with the call or fax that carries them too.
  for (const d of docs) {
    const related = ((d.context?.related as Json[] | undefined) ?? []).map((x) => twinUrls.get(String(x.reference))).find(Boolean);
    if (related && !ctx.leftOut.has(d)) ctx.leftOut.set(d, related);
  }
  return ctx;
}

/** The DocumentReference's reason to be left out, when a call, fax or form response in the bundle brings it in. */
export const broughtInElsewhere = (r: Json, ctx: CommsContext): string | undefined => ctx.leftOut.get(r);

const validDate = (v: unknown): v is string => typeof v === 'string' && !Number.isNaN(Date.parse(v));
const notes = (r: Json): string[] => ((r.note as Json[] | undefined) ?? []).map((n) => String(n.text ?? ''));
const words = (r: Json) =>
  ((r.payload as Json[] | undefined) ?? [])
    .map((p) => p.contentString)
    .filter((t): t is string => typeof t === 'string' && !!t.trim())
    .join('\n');
const secondsIn = (r: Json, url: string): number | null => {
  const v = ((r.extension as Json[] | undefined) ?? []).find((x) => x.url === url)?.valueDuration?.value;
  return typeof v === 'number' ? v : null;
};

/** A note's numbers are text when known and absent when not. */
const numbers = (n: Record<string, string | null | undefined>) => Object.fromEntries(Object.entries(n).filter(([, v]) => typeof v === 'string' && v));

/** The payload's attachments with their bytes (carried as data, or by a file elsewhere in the bundle with the same path); `missing` counts those not carried. */
function payloadFiles(r: Json, ctx: CommsContext, fallbackName: string): { files: ImportedFile[]; missing: number; refused?: string } {
  const files: ImportedFile[] = [];
  let missing = 0;
  let refused: string | undefined;
  for (const p of (r.payload as Json[] | undefined) ?? []) {
    const a = p.contentAttachment as Json | undefined;
    if (!a) continue;
    const data = a.data ?? (typeof a.url === 'string' ? ctx.carried.get(a.url) : undefined);
    if (!data) {
      missing++;
      continue;
    }
    const name =
      String(a.title ?? fallbackName)
        .replace(/[/\\]/g, '_')
        .trim()
        .slice(-LIMITS.shortText) || fallbackName;
    const bytes = Buffer.from(String(data), 'base64');
    const problem = uploadError(name, bytes.length);
    if (problem) {
      refused = problem;
      continue;
    }
    files.push({ name, contentType: String(a.contentType ?? 'application/octet-stream'), bytes });
  }
  return { files, missing, refused };
}

/** A note Tidewell could not keep as it stands (text too long, …): left out with the notes' own words. */
function withValidData(plan: CommsPlan<CommsNote>): CommsPlan<CommsNote> {
  if (!plan.planned) return plan;
  const parsed = NoteData.safeParse(plan.planned.data);
  return parsed.success ? plan : { summary: plan.summary, reason: parsed.error.issues[0]?.message ?? 'Not valid' };
}

const NOT_HELD: Record<string, string> = {
  preparation: 'It had not taken place',
  unknown: 'Whether it took place is not known',
  'entered-in-error': 'It was entered in error',
};

/**
 * A phone call becomes a signed PHONE_CALL note: what was said (its note's words, else the payload's),
 * when, with which number and who, and the voicemail as the note's file when the bundle carries it.
 */
function callPlan(r: Json, ctx: CommsContext, patientRefs: Set<string>): CommsPlan<CommsNote> {
  const at = r.sent ?? r.received;
  const lines = notes(r);
  const inbound = patientRefs.has(String(r.sender?.reference ?? '')) || /^Call received/.test(String(r.category?.[0]?.text ?? '')) || (!!r.received && !r.sent);
  const other = lines.map((l) => /^(?:From|To) phone (.+)$/.exec(l)?.[1]).find(Boolean) ?? null;
  const practiceNumber = lines.map((l) => /^(?:From|To) practice number (.+)$/.exec(l)?.[1]).find(Boolean) ?? null;
  const categoryOutcome = /^Call (?:received|placed): (.+)$/.exec(String(r.category?.[0]?.text ?? ''))?.[1];
  const status: ImportedCall['status'] = r.status === 'not-done' ? 'not-done' : r.status === 'completed' ? 'completed' : 'in-progress';
  const outcome =
    r.statusReason?.text ??
    categoryOutcome ??
    (status === 'not-done' ? (inbound ? 'Missed call' : 'Not answered') : status === 'completed' ? 'Answered' : 'In progress');
  const summary = `Call${day(at) ? ` on ${day(at)}` : ''}: ${outcome}${other ? ` (${inbound ? 'from' : 'to'} ${other})` : ''}`;
  if (NOT_HELD[r.status]) return { summary, reason: NOT_HELD[r.status] };
  if (!validDate(at)) return { summary, reason: 'It has no date' };
  const { files, missing, refused } = payloadFiles(r, ctx, 'voicemail.wav');
  const userRef = inbound ? r.recipient?.find((x: Json) => !patientRefs.has(String(x.reference ?? ''))) : r.sender;
  const call: ImportedCall = {
    at: new Date(at).toISOString(),
    direction: inbound ? 'INBOUND' : 'OUTBOUND',
    status,
    outcome,
    other,
    practiceNumber,
    durationSeconds: secondsIn(r, 'https://tidewell.app/fhir/StructureDefinition/call-duration'),
    voicemailSeconds: secondsIn(r, 'https://tidewell.app/fhir/StructureDefinition/voicemail-duration'),
    userName: typeof userRef?.display === 'string' ? userRef.display : null,
  };
  const own = ctx.noteTexts.get(r);
  const text = own ? (own.text ?? '') : words(r) || `Call ${inbound ? 'from' : 'to'} ${other ? formatPhone(other) : 'an unknown number'}: ${outcome}`;
  return {
    summary: `${summary}${missing || refused ? ` (${refused ? `recording left out: ${refused}` : 'its recording is not in the bundle'})` : ''}`,
    planned: {
      kind: 'note',
      noteType: 'PHONE_CALL',
      status: 'SIGNED',
      at: own?.at ?? at,
      text,
      data: {
        text,
        ...(own ? (own.html ? { formattedText: own.html } : {}) : { formattedText: escapeHtml(text) }),
        direction: call.direction,
        ...numbers(inbound ? { from: other, to: practiceNumber } : { from: practiceNumber, to: other }),
        missed: outcome === 'Missed call',
        voicemailSeconds: call.voicemailSeconds,
        importedCall: call,
      },
      files,
      signed: true,
    },
  };
}

const FAX_STATUS: Record<string, Note['status']> = { completed: 'DELIVERED', 'not-done': 'FAILED', 'in-progress': 'SENT' };

/** A fax becomes a signed FAX note shaped as the fax service leaves one: its words, its number, and its PDF as the note's file. */
function faxPlan(r: Json, ctx: CommsContext): CommsPlan<CommsNote> {
  const inbound = /^Fax received/.test(String(r.category?.[0]?.text ?? '')) || (!!r.received && !r.sent);
  const at = inbound ? (r.received ?? r.sent) : (r.sent ?? r.received);
  const party = notes(r)
    .map((l) => /^(?:From|To) fax (\S+)(?: \((.*)\))?$/.exec(l))
    .find(Boolean);
  const pages =
    Number(
      notes(r)
        .map((l) => /^(\d+) pages$/.exec(l)?.[1])
        .find(Boolean),
    ) || null;
  const summary = `Fax ${inbound ? 'received' : 'sent'}${day(at) ? ` on ${day(at)}` : ''}${party ? ` (${inbound ? 'from' : 'to'} ${party[1]})` : ''}`;
  if (NOT_HELD[r.status]) return { summary, reason: NOT_HELD[r.status] };
  const status = FAX_STATUS[r.status];
  if (!status) return { summary, reason: 'It was not sent' };
  if (!validDate(at)) return { summary, reason: 'It has no date' };
  const { files, missing, refused } = payloadFiles(r, ctx, 'fax.pdf');
  const own = ctx.noteTexts.get(r);
  const text = words(r) || own?.text || (inbound ? `Fax received${party ? ` from ${party[1]}` : ''}` : `Fax sent${party ? ` to ${party[1]}` : ''}`);
  return {
    summary: `${summary}${missing || refused ? ` (${refused ? `PDF left out: ${refused}` : 'its PDF is not in the bundle'})` : ''}`,
    planned: {
      kind: 'note',
      noteType: 'FAX',
      status,
      at: own?.at ?? at,
      text,
      data: {
        direction: inbound ? 'INBOUND' : 'OUTBOUND',
        ...(inbound
          ? numbers({ from: party?.[1] })
          : { ...numbers({ to: party?.[1] }), recipientName: party?.[2] ?? null, sentAt: new Date(at).toISOString() }),
        text,
        ...(own?.html ? { formattedText: own.html } : {}),
        pages,
      },
      files,
      signed: true,
    },
  };
}

/** Every answer of a response as the words a form shows, nested questions flattened in order. */
function questions(items: Json[] | undefined, out: SubmissionQuestion[] = []): SubmissionQuestion[] {
  for (const item of items ?? []) {
    const answers = ((item.answer as Json[] | undefined) ?? []).map(answerText).filter((a): a is string => !!a);
    if (answers.length || !item.item)
      out.push({ Id: String(item.linkId ?? `q${out.length + 1}`), Text: String(item.text ?? ''), Answer: answers.join(', '), QuestionType: 'OpenQuestion' });
    questions(item.item, out);
    for (const a of (item.answer as Json[] | undefined) ?? []) questions(a.item, out);
  }
  return out;
}

function answerText(a: Json): string | undefined {
  for (const [k, v] of Object.entries(a)) {
    if (!k.startsWith('value')) continue;
    if (typeof v === 'string' || typeof v === 'number') return String(v);
    if (typeof v === 'boolean') return v ? 'Yes' : 'No';
    if (k === 'valueCoding') return v.display ?? v.code;
    if (k === 'valueQuantity') return [v.value, v.unit ?? v.code].filter((x) => x !== undefined).join(' ');
    if (k === 'valueAttachment') return v.title ?? 'Attachment';
    if (k === 'valueReference') return v.display ?? v.reference;
  }
  return undefined;
}

const NOT_ANSWERED: Record<string, string> = {
  'in-progress': 'The form was not finished',
  stopped: 'The form was not finished',
  'entered-in-error': 'The form response was entered in error',
};

/**
 * A completed form response becomes a signed FORM note holding its answers as a submitted form
 * does. It was not sent through the practice's form service: the note says so (`imported`), and
 * the form view offers nothing that needs the service.
 */
function formPlan(r: Json, ctx: CommsContext): CommsPlan<CommsNote> {
  const canonical = typeof r.questionnaire === 'string' ? r.questionnaire : '';
  const formId = decodeURIComponent(canonical.split('/').pop() ?? '') || 'form';
  const formName = ((r.extension as Json[] | undefined) ?? []).find((x) => x.url === FORM_NAME_EXTENSION)?.valueString ?? r._questionnaire?.display ?? formId;
  const at = r.authored;
  const summary = `Form: ${formName}${day(at) ? ` on ${day(at)}` : ''}`;
  if (r.status !== 'completed' && r.status !== 'amended') return { summary, reason: NOT_ANSWERED[r.status] ?? 'The form was not completed' };
  if (!validDate(at)) return { summary, reason: 'It has no date' };
  const asked = questions(r.item);
  if (!asked.length) return { summary, reason: 'It has no answers' };
  const submitted = new Date(at).toISOString();
  const own = ctx.noteTexts.get(r);
  const data: Partial<FormNoteData> & Record<string, unknown> = {
    formId,
    formName,
    questionnaire: canonical || undefined,
    imported: true,
    intakeId: '',
    sendMethod: 'Email',
    sentTo: '',
    dateSent: submitted,
    dateSubmitted: submitted,
    numberOfQuestions: asked.length,
    submissionData: { Status: 'Submitted', DateSubmitted: submitted, QuestionnaireId: formId, Questions: asked },
    ...(own?.text ? { text: own.text } : {}),
    ...(own?.html ? { formattedText: own.html } : {}),
  };
  return { summary, planned: { kind: 'note', noteType: 'FORM', status: 'DELIVERED', at: own?.at ?? at, text: own?.text ?? '', data, files: [], signed: true } };
}

export const planCall = (r: Json, ctx: CommsContext, patientRefs: Set<string>) => withValidData(callPlan(r, ctx, patientRefs));
export const planFax = (r: Json, ctx: CommsContext) => withValidData(faxPlan(r, ctx));
export const planFormResponse = (r: Json, ctx: CommsContext) => withValidData(formPlan(r, ctx));

const NOT_HANDED_OVER: Record<string, string> = {
  preparation: 'The medication was not handed over yet',
  'in-progress': 'The medication was not handed over yet',
  'on-hold': 'The dispense is on hold',
  cancelled: 'The dispense was cancelled',
  declined: 'The dispense was declined',
  stopped: 'The dispense was stopped',
  'entered-in-error': 'The dispense was entered in error',
  unknown: 'Whether it was handed over is not known',
};

/** A medication list entry's input (the medications section's fields) for a dispense, or why it is left out. */
export function planDispense(r: Json, ctx: CommsContext): CommsPlan<{ input: Record<string, unknown> }> {
  const cc = r.medicationCodeableConcept as Json | undefined;
  const name: string | undefined = cc?.text || cc?.coding?.find((c: Json) => c.display)?.display || r.medicationReference?.display;
  const handed = day(r.whenHandedOver);
  const summary = `Dispensed: ${name ?? 'Medication'}${handed ? ` on ${handed}` : ''}`;
  if (r.status !== 'completed') return { summary, reason: NOT_HANDED_OVER[r.status] ?? 'The medication was not handed over' };
  if (((r.authorizingPrescription as Json[] | undefined) ?? []).some((p) => ctx.prescriptions.has(String(p.reference))))
    return { summary, reason: 'Brought in through its prescription' };
  if (!name) return { summary, reason: 'It names no medication' };
  const ndc = cc?.coding?.find((c: Json) => c.system === SYSTEMS.ndc)?.code;
  const quantity = r.quantity?.value;
  const by = r.performer?.map((p: Json) => p.actor?.display).find(Boolean);
  const description = [
    `Dispensed${typeof quantity === 'number' ? ` ${quantity}${r.quantity.unit ? ` ${r.quantity.unit}` : ''}` : ''}${handed ? ` on ${handed}` : ''}${by ? ` by ${by}` : ''}`,
    r.dosageInstruction?.[0]?.text,
    ...notes(r),
  ]
    .filter(Boolean)
    .join('\n');
  return {
    summary,
    planned: {
      input: {
        productName: name,
        status: 'Complete',
        start: handed,
        description,
        quantity: Number.isInteger(quantity) && quantity >= 0 ? quantity : undefined,
        daysSupply: Number.isInteger(r.daysSupply?.value) && r.daysSupply.value >= 0 ? r.daysSupply.value : undefined,
        code: ndc ? { type: 'NDC', value: ndc } : undefined,
      },
    },
  };
}
