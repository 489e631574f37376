import * as z from '../zod.js';
import { MIN_YEAR } from '../constants/dates.js';
import { isIsoDate, todayIsoDate, usDateToIso } from '../rules/dates.js';
import { CHART_MESSAGES as M, NOTE_DATA_LINK_TYPES } from './constants.js';

/*
 * Building blocks shared by every chart section. Wire rules:
 * - text fields: trimmed strings; null/absent become '' (the form shows empty strings);
 * - pinned: 0/1 or boolean in, boolean out;
 * - dates: MM/DD/YYYY (as typed in the form) or YYYY-MM-DD in, YYYY-MM-DD out, '' for none;
 * - month dates (diagnoses): MM/YYYY or YYYY-MM in (a full date keeps its month), YYYY-MM out.
 * Unknown fields are dropped by z.object; a wrong type is a 400 naming the field.
 */

const nullToUndefined = (v: unknown) => (v === null ? undefined : v);

export function optionalText(label: string, max = 4000) {
  return z.pipe(
    z.transform(nullToUndefined),
    z.optional(z.string({ error: M.notText(label) }).check(z.trim(), z.maxLength(max, `${label} must be at most ${max} characters`))),
  );
}

export function requiredText(label: string, message: string, max = 500) {
  return z.pipe(
    z.transform(nullToUndefined),
    z
      .string({ error: (iss) => (iss.input === undefined ? message : M.notText(label)) })
      .check(z.trim(), z.minLength(1, message), z.maxLength(max, `${label} must be at most ${max} characters`)),
  );
}

/** 0/1, "0"/"1" or boolean → boolean. */
export const pinnedFlag = (label = 'Pinned') =>
  z.pipe(
    z.transform((v) => (v === 1 || v === '1' || v === 'true' ? true : v === 0 || v === '0' || v === 'false' ? false : nullToUndefined(v))),
    z.boolean({ error: (iss) => (iss.input === undefined ? `${label} is required` : M.notBoolean(label)) }),
  );

export const booleanFlag = pinnedFlag;

/** A calendar date as typed (MM/DD/YYYY) or as stored (YYYY-MM-DD) → YYYY-MM-DD; null when not a real date from 1900 on. */
export function toIsoDate(value: string): string | null {
  const v = value.trim();
  const iso = isIsoDate(v) ? v : usDateToIso(v);
  if (!iso || Number(iso.slice(0, 4)) < MIN_YEAR) return null;
  return iso;
}

/** A month as typed (MM/YYYY), stored (YYYY-MM) or a full date → YYYY-MM; null when not valid. */
export function toIsoMonth(value: string): string | null {
  const v = value.trim();
  let m = /^(\d{1,2})\/(\d{4})$/.exec(v);
  let year: number, month: number;
  if (m) {
    month = Number(m[1]);
    year = Number(m[2]);
  } else if ((m = /^(\d{4})-(\d{2})$/.exec(v))) {
    year = Number(m[1]);
    month = Number(m[2]);
  } else {
    const full = toIsoDate(v);
    if (!full) return null;
    return full.slice(0, 7);
  }
  if (month < 1 || month > 12 || year < MIN_YEAR) return null;
  return `${year}-${String(month).padStart(2, '0')}`;
}

/** YYYY-MM-DD → MM/DD/YYYY for display; '' stays ''. */
export function formatUsDate(iso: string | undefined | null): string {
  if (!iso) return '';
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  return m ? `${m[2]}/${m[3]}/${m[1]}` : iso;
}

/** YYYY-MM → MM/YYYY for display; '' stays ''. */
export function formatUsMonth(isoMonth: string | undefined | null): string {
  if (!isoMonth) return '';
  const m = /^(\d{4})-(\d{2})/.exec(isoMonth);
  return m ? `${m[2]}/${m[1]}` : isoMonth;
}

export const todayIsoMonth = (now = new Date()) => todayIsoDate(now).slice(0, 7);

function dateLike(message: string, normalise: (v: string) => string | null) {
  return z.pipe(
    z.transform((v) => (v === null || v === undefined ? '' : v)),
    z.pipe(
      z.string({ error: message }),
      z.transform((v, ctx) => {
        if (v.trim() === '') return '';
        const out = normalise(v);
        if (out === null) {
          ctx.issues.push({ code: 'custom', message, input: ctx.value });
          return z.NEVER;
        }
        return out;
      }),
    ),
  );
}

/** Optional calendar date; '' when absent. */
export const dateField = (message: string) => dateLike(message, toIsoDate);
/** Optional month date (diagnoses); '' when absent. */
export const monthField = (message: string) => dateLike(message, toIsoMonth);

export const formSourceField = z.pipe(z.transform(nullToUndefined), z.optional(z.string({ error: M.notText('formSource') }).check(z.maxLength(200))));

export const NoteDataLink = z.object({
  dataType: z.enum(NOTE_DATA_LINK_TYPES, { error: M.notOneOf('dataType') }),
  dataId: z.string({ error: M.notText('dataId') }).check(z.maxLength(128)),
  linkId: z.string({ error: M.notText('linkId') }).check(z.maxLength(128)),
  noteId: z.optional(z.string({ error: M.notText('noteId') }).check(z.maxLength(128))),
});
export type NoteDataLink = z.infer<typeof NoteDataLink>;
export const noteDataLinksField = z.pipe(
  z.transform(nullToUndefined),
  z.optional(z.array(NoteDataLink, { error: 'noteDataLinks must be a list' }).check(z.maxLength(200))),
);

/** ICD-10 code as carried on items: ident is the code without its dot (E119), code has the dot (E11.9). */
export const Icd10CodeRef = z.object({
  ident: z.string({ error: M.notText('icd10Code.ident') }).check(z.trim(), z.maxLength(16)),
  code: z.string({ error: M.notText('icd10Code.code') }).check(z.trim(), z.maxLength(16)),
  description: z._default(z.string({ error: M.notText('icd10Code.description') }).check(z.maxLength(1000)), ''),
});
export type Icd10CodeRef = z.infer<typeof Icd10CodeRef>;
export const icd10CodeIdField = z.pipe(
  z.transform(nullToUndefined),
  z.optional(z.string({ error: M.notText('icd10CodeId') }).check(z.trim(), z.maxLength(16))),
);
export const icd10CodeField = z.pipe(z.transform(nullToUndefined), z.optional(Icd10CodeRef));

/** Meta every stored chart item carries (set by the server, never taken from a body). */
export const ItemMeta = {
  ident: z.string(),
  patientId: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Optimistic lock: 1 on create, +1 on every change; a PUT may send the one it read. */
  version: z.optional(z.number().check(z.int())),
};

/** Adds "End Date must come after Start Date" when both dates exist and end < start (same day or month allowed). */
export function checkRange(ctx: z.core.$RefinementCtx, start: string | undefined, end: string | undefined, endPath = 'endDate') {
  if (start && end && end < start) ctx.addIssue({ code: 'custom', path: [endPath], message: M.endBeforeStart });
}

export { isIsoDate, todayIsoDate };
