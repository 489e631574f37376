import { FAMILY_RELATION_LABELS, type FamilyRelation } from '../chart/constants.js';
import { labAbnormality, labRangeText, labValueText, type LabResultItem } from '../labs/lab-format.js';
import type { Note } from '../notes/note-schema.js';
import { vitalsLines } from '../notes/vitals.js';
import { WILDCARD } from '../notes/note-constants.js';
import { PROVIDER_SIGNATURE_PENDING, SIGNATURE_PENDING } from '../notes/signature-line.js';
import { age, dobString, preferredName, primaryPhone } from '../patients/patient-derived.js';
import type { Patient } from '../patients/patient-schema.js';
import { formatPhone } from '../patients/phone.js';
import { isoToUsDate } from '../rules/dates.js';
import { TEMPLATE_MESSAGES } from './template-schema.js';

/** The double-brace tokens of spec shell §9, by group. */
export const PLACEHOLDER_TOKENS = {
  context: ['date', 'time', 'my name', 'my npi', 'signature', 'provider signature'],
  patient: [
    'first name',
    'preferred name',
    'middle name',
    'last name',
    'dob',
    'age',
    'phone number',
    'email',
    'gender',
    'pharmacy',
    'primary provider',
    'emergency contact',
    'address',
    'patient insurance',
  ],
  formAndVitals: ['form', 'vitals', 'all vitals'],
  chart: [
    'chart note',
    'chart notes',
    'allergies',
    'vaccines',
    'medical history',
    'current meds',
    'family history',
    'social history',
    'general info',
    'last visit note',
    'last lab',
    'last 3 labs',
    'final extract chart notes',
  ],
  wildcard: ['wild card'],
} as const;
export type PlaceholderToken = (typeof PLACEHOLDER_TOKENS)[keyof typeof PLACEHOLDER_TOKENS][number];
export const ALL_PLACEHOLDER_TOKENS: readonly string[] = Object.values(PLACEHOLDER_TOKENS).flat();

/** Tokens that need patient data; without a patient they expand to nothing ({{form}} refuses). */
const PATIENT_TOKENS = new Set<string>([...PLACEHOLDER_TOKENS.patient, ...PLACEHOLDER_TOKENS.formAndVitals, ...PLACEHOLDER_TOKENS.chart]);

/** Final extract chart notes: only these statuses and types (spec shell §9). */
export const FINAL_EXTRACT_STATUSES = ['SIGNED', 'ADDENDED', 'SENT'] as const;
export const FINAL_EXTRACT_TYPES = ['NOTE', 'DOCUMENT', 'FAX', 'EMAIL', 'PHONE_CALL'] as const;
/** Notes that count as part of the chart for {{chart note(s)}}: finished ones, never drafts. */
const CHART_NOTE_STATUSES = new Set(['SIGNED', 'ADDENDED', 'SENT', 'DELIVERED', 'FULFILLED']);

/* ---------- chart data as the engine reads it (the chart API's items, loosely typed) ---------- */
interface Dated {
  pinned?: boolean;
}
export interface ChartData {
  allergies: (Dated & { name: string; description?: string; severity?: string; active?: boolean })[];
  medications: (Dated & { productName: string; strength?: string; strengthUOM?: string; sigText?: string; status?: string; end?: string })[];
  freeformMedications: { name: string }[];
  vaccines: (Dated & { name: string; date?: string; doseNumber?: number })[];
  diagnoses: (Dated & { name: string; description?: string; date?: string; endDate?: string; active?: boolean })[];
  surgeries: (Dated & { name: string; date?: string; description?: string })[];
  familyHistory: (Dated & { diagnosis: string; family?: string[]; details?: string })[];
  socialHistory: (Dated & { question: string; answers?: { answer: string; timestamp?: string }[] })[];
  general: (Dated & { name: string; details?: string })[];
}
export const emptyChart = (): ChartData => ({
  allergies: [],
  medications: [],
  freeformMedications: [],
  vaccines: [],
  diagnoses: [],
  surgeries: [],
  familyHistory: [],
  socialHistory: [],
  general: [],
});

export interface PlaceholderUser {
  name: string;
  npiNumber?: string | null;
  educationDegree?: string | null;
}

export interface PlaceholderContext {
  now: Date;
  timeZone?: string;
  user: PlaceholderUser;
  patient: Patient | null;
  chart: ChartData;
  /** Every non-deleted note of the patient. */
  notes: Note[];
  /** The note being written: never quoted into itself. */
  currentNoteId?: string;
}

export class PlaceholderError extends Error {}

/* ---------- formatting helpers ---------- */
const clean = (v: string | null | undefined) => (v ?? '').trim();
const usDate = (iso: string | undefined) => (iso && /^\d{4}-\d{2}-\d{2}/.test(iso) ? isoToUsDate(iso.slice(0, 10)) : clean(iso));
const capital = (v: string) => (v ? v[0]!.toUpperCase() + v.slice(1) : v);

function zonedParts(now: Date, timeZone: string | undefined) {
  const fmt = (opts: Intl.DateTimeFormatOptions) => {
    try {
      return new Intl.DateTimeFormat('en-US', { ...opts, timeZone: timeZone || 'UTC' }).format(now);
    } catch {
      return new Intl.DateTimeFormat('en-US', { ...opts, timeZone: 'UTC' }).format(now);
    }
  };
  return {
    date: fmt({ month: '2-digit', day: '2-digit', year: 'numeric' }),
    time: fmt({ hour: 'numeric', minute: '2-digit', hour12: true }),
  };
}

function noteDate(n: Note, timeZone?: string): string {
  return zonedParts(new Date(n.eventTimestamp), timeZone).date;
}

const NOTE_TYPE_LABEL = (t: string) => capital(t.toLowerCase().replace(/_/g, ' '));

/** A note quoted into another: a header line, its text, then its addenda. */
function noteLines(n: Note, timeZone?: string): string[] {
  const lines = [`${NOTE_TYPE_LABEL(n.noteType)} - ${noteDate(n, timeZone)}${n.author?.name ? ` - ${n.author.name}` : ''}`];
  if (n.noteType === 'VITALS') lines.push(...vitalsLines(n.data as never));
  else if (n.noteType === 'EMAIL' && n.data.subject) lines.push(`Subject: ${n.data.subject}`);
  const body = clean(n.data.text);
  if (body && n.noteType !== 'VITALS') lines.push(...body.split('\n'));
  if (n.noteType === 'LAB') lines.push(...labLines(n));
  for (const a of n.data.addenda ?? []) lines.push(`Addendum (${a.author.name}, ${zonedParts(new Date(a.timestamp), timeZone).date}): ${a.text}`);
  return lines;
}

const FLAG = { high: ' (H)', low: ' (L)', abnormal: ' (A)' } as const;
/** A lab note's results, one line each: test, value and unit, the flag when out of range, the reference range. */
function labLines(n: Note): string[] {
  const results = (Array.isArray(n.data.results) ? n.data.results : []) as LabResultItem[];
  return results.map((r) => {
    const flag = labAbnormality(r);
    const range = labRangeText(r);
    return `${r.text}: ${labValueText(r)}${flag ? FLAG[flag] : ''}${range ? ` [${range}]` : ''}`;
  });
}

/** A submitted FORM note's data, as the forms feature writes it (shared/forms). */
interface FormData {
  formName?: string;
  dateSubmitted?: string | null;
  submissionData?: { Questions?: { Id: string; Text: string; Answer: string }[] };
  savedResponses?: { questions: { Id: string; Text: string; Answer: string }[] };
}
const submittedAt = (n: Note) => String((n.data as FormData).dateSubmitted ?? n.eventTimestamp);

/**
 * {{form}}: the patient's latest submitted intake form, its name and date, then one line per
 * answered question; the responses the practice saved from it when it did, else every answer.
 */
function formLines(n: Note, timeZone?: string): string[] {
  const d = n.data as FormData;
  const questions = d.savedResponses?.questions ?? d.submissionData?.Questions ?? [];
  const answered = questions
    .filter((q) => clean(q.Answer))
    .map((q) => `${clean(q.Text)}: ${clean(q.Answer).split(/\r?\n/).map(clean).filter(Boolean).join('; ')}`);
  return [`${clean(d.formName) || 'Form'} - submitted ${zonedParts(new Date(submittedAt(n)), timeZone).date}`, ...answered];
}

const newestFirst = (a: Note, b: Note) => b.eventTimestamp.localeCompare(a.eventTimestamp);

function activeToday(end: string | undefined, today: string): boolean {
  return !end || end.slice(0, 10) >= today;
}

type Lines = string[];

/** Each token's lines; [] means "no data" (listed as unresolved). */
function resolveToken(token: string, ctx: PlaceholderContext): Lines {
  const p = ctx.patient;
  const { date, time } = zonedParts(ctx.now, ctx.timeZone);
  const todayIso = ctx.now.toISOString().slice(0, 10);
  const others = ctx.notes.filter((n) => n.noteId !== ctx.currentNoteId && n.status !== 'DELETED').sort(newestFirst);
  const chartNotes = others.filter((n) => CHART_NOTE_STATUSES.has(n.status));
  const one = (v: string | null | undefined) => (clean(v) ? [clean(v)] : []);
  switch (token) {
    case 'date':
      return [date];
    case 'time':
      return [time];
    case 'my name':
      return one(ctx.user.name);
    case 'my npi':
      return one(ctx.user.npiNumber);
    // Written by whoever signs, when they sign (shared/notes/signature-line.ts), never before.
    case 'signature':
      return [SIGNATURE_PENDING];
    case 'provider signature':
      return [PROVIDER_SIGNATURE_PENDING];
    case 'wild card':
      return [WILDCARD];
  }
  if (!p) return [];
  switch (token) {
    case 'first name':
      return one(p.firstName);
    case 'preferred name':
      return one(preferredName(p));
    case 'middle name':
      return one(p.middleName);
    case 'last name':
      return one(p.lastName);
    case 'dob':
      return one(dobString(p));
    case 'age': {
      const years = age(p, ctx.now);
      return years === null ? [] : [String(years)];
    }
    case 'phone number':
      return one(formatPhone(primaryPhone(p)));
    case 'email':
      return one(p.email);
    case 'gender':
      return one(capital(clean(p.gender)));
    case 'pharmacy':
      return one(p.preferredPharmacy);
    case 'primary provider':
      return one(p.practitioner?.name);
    case 'emergency contact': {
      const ec = p.emergencyContact;
      return one([clean(ec?.name), formatPhone(ec?.phoneNumber)].filter(Boolean).join(', '));
    }
    case 'address': {
      const a = p.address;
      if (!a) return [];
      const cityLine = [clean(a.city), [clean(a.state), clean(a.zip)].filter(Boolean).join(' ')].filter(Boolean).join(', ');
      return [clean(a.line1), clean(a.line2), cityLine].filter(Boolean);
    }
    case 'patient insurance': {
      const i = p.healthInsurance;
      if (!i) return [];
      return [
        clean(i.payerName),
        i.memberId ? `Member ID: ${i.memberId}` : '',
        i.groupId ? `Group: ${i.groupId}` : '',
        i.payerPhoneNumber ? `Phone: ${formatPhone(i.payerPhoneNumber)}` : '',
      ].filter(Boolean);
    }
    case 'form': {
      const latest = others
        .filter((n) => n.noteType === 'FORM' && (n.status === 'DELIVERED' || n.status === 'FULFILLED'))
        .sort((a, b) => submittedAt(b).localeCompare(submittedAt(a)))[0];
      return latest ? formLines(latest, ctx.timeZone) : [];
    }
    case 'vitals': {
      const latest = others.filter((n) => n.noteType === 'VITALS').sort(newestFirst)[0];
      return latest ? vitalsLines(latest.data as never) : [];
    }
    case 'all vitals':
      return others
        .filter((n) => n.noteType === 'VITALS')
        .sort(newestFirst)
        .flatMap((n) => [`Vitals - ${noteDate(n, ctx.timeZone)}`, ...vitalsLines(n.data as never)]);
    case 'chart note':
      return chartNotes[0] ? noteLines(chartNotes[0], ctx.timeZone) : [];
    case 'chart notes':
      return chartNotes.flatMap((n, i) => [...(i ? [''] : []), ...noteLines(n, ctx.timeZone)]);
    case 'final extract chart notes':
      return others
        .filter((n) => (FINAL_EXTRACT_STATUSES as readonly string[]).includes(n.status) && (FINAL_EXTRACT_TYPES as readonly string[]).includes(n.noteType))
        .flatMap((n, i) => [...(i ? [''] : []), ...noteLines(n, ctx.timeZone)]);
    case 'last visit note': {
      const visit = chartNotes.find((n) => n.noteType === 'NOTE');
      return visit ? noteLines(visit, ctx.timeZone) : [];
    }
    case 'last lab':
    case 'last 3 labs': {
      // The lab table's notes: an order still waiting at the lab (SENT) has nothing to quote yet.
      const labs = chartNotes.filter((n) => n.noteType === 'LAB' && n.status !== 'SENT').slice(0, token === 'last lab' ? 1 : 3);
      return labs.flatMap((n, i) => [...(i ? [''] : []), ...noteLines(n, ctx.timeZone)]);
    }
    case 'allergies':
      return ctx.chart.allergies
        .filter((a) => a.active !== false)
        .map((a) => [a.name, a.severity ? `(${a.severity})` : '', clean(a.description) ? `- ${clean(a.description)}` : ''].filter(Boolean).join(' '));
    case 'current meds':
      return [
        ...ctx.chart.medications
          .filter((m) => (m.status ?? 'Active') === 'Active' && activeToday(m.end, todayIso))
          .map((m) => [m.productName, clean(m.strength), clean(m.strengthUOM), clean(m.sigText) ? `- ${clean(m.sigText)}` : ''].filter(Boolean).join(' ')),
        ...ctx.chart.freeformMedications.map((m) => m.name),
      ];
    case 'medical history':
      return [
        ...ctx.chart.diagnoses.map((d) => {
          const span = [clean(d.date), clean(d.endDate)].filter(Boolean).join(' to ');
          return [d.name, span ? `(${span})` : '', d.active === false ? '- resolved' : ''].filter(Boolean).join(' ');
        }),
        ...ctx.chart.surgeries.map((s) => `Surgery: ${s.name}${s.date ? ` (${usDate(s.date)})` : ''}`),
      ];
    case 'family history':
      return ctx.chart.familyHistory.map((f) => {
        const who = (f.family ?? []).map((r) => FAMILY_RELATION_LABELS[r as FamilyRelation] ?? r).join(', ');
        return [f.diagnosis, who ? `- ${who}` : '', clean(f.details) ? `(${clean(f.details)})` : ''].filter(Boolean).join(' ');
      });
    case 'social history':
      return ctx.chart.socialHistory.map((s) => {
        const latest = [...(s.answers ?? [])].sort((a, b) => clean(b.timestamp).localeCompare(clean(a.timestamp)))[0];
        return `${s.question}: ${latest?.answer ?? ''}`.trim();
      });
    case 'general info':
      return ctx.chart.general.map((g) => (clean(g.details) ? `${g.name}: ${clean(g.details)}` : g.name));
    case 'vaccines':
      return ctx.chart.vaccines.map((v) =>
        [v.name, v.date ? `- ${usDate(v.date)}` : '', v.doseNumber != null ? `(dose ${v.doseNumber})` : ''].filter(Boolean).join(' '),
      );
  }
  return [];
}

/** "{{ First_Name }}" → "first name". */
export function normalizeToken(raw: string): string {
  return raw
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

const TOKEN = /\{\{\s*([^{}]+?)\s*\}\}/g;

/** The known tokens a body uses, in first-use order (stored on the template as transformKeys). */
export function placeholderKeys(body: string): string[] {
  const out: string[] = [];
  for (const m of body.matchAll(TOKEN)) {
    const t = normalizeToken(m[1]!);
    if ((ALL_PLACEHOLDER_TOKENS.includes(t) || t === 'labs') && !out.includes(t)) out.push(t);
  }
  return out;
}

const escapeHtml = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const looksLikeHtml = (v: string) => /<\/?[a-z][^>]*>/i.test(v);

/** Plain text → paragraphs, so a template written as text becomes editor HTML. */
export function textToHtml(text: string): string {
  return text
    .split('\n')
    .map((line) => `<p>${line === '' ? '' : escapeHtml(line)}</p>`)
    .join('');
}

/** Editor HTML → plain text: blocks and <br> become line breaks. */
export function htmlToText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|h[1-6]|blockquote)>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\n+$/, '');
}

export interface ExpansionResult {
  text: string;
  formattedText: string;
  unresolved: string[];
  unknown: string[];
}

/**
 * Expands every {{token}} of a template body (text or editor HTML) from the context. Known tokens
 * without data expand to nothing and are listed in `unresolved`; unknown ones stay as typed and
 * are listed in `unknown`; the retired 'labs' token is removed. {{form}} needs a patient.
 */
export function expandPlaceholders(body: string, ctx: PlaceholderContext): ExpansionResult {
  const html = looksLikeHtml(body) ? body : textToHtml(body);
  const unresolved: string[] = [];
  const unknown: string[] = [];
  const formattedText = html.replace(TOKEN, (whole, raw: string) => {
    const token = normalizeToken(raw);
    if (token === 'labs') return '';
    if (!ALL_PLACEHOLDER_TOKENS.includes(token)) {
      if (!unknown.includes(token)) unknown.push(token);
      return whole;
    }
    if (token === 'form' && !ctx.patient) throw new PlaceholderError(TEMPLATE_MESSAGES.selectPatient);
    const lines = resolveToken(token, ctx);
    if (lines.length === 0 || (PATIENT_TOKENS.has(token) && !ctx.patient)) {
      if (!unresolved.includes(token)) unresolved.push(token);
      return '';
    }
    return lines.map(escapeHtml).join('<br>');
  });
  return { text: htmlToText(formattedText), formattedText, unresolved, unknown };
}
