import { PHONE_FUZZY_MIN_DIGITS } from '../constants/patients.js';
import { isPhoneLike, matchPhoneDigits, PHONE_MATCH_SCORE, phoneDigits, phoneMatchTarget } from './phone.js';

/** The fields patient search reads. */
export interface SearchablePatient {
  id: string;
  firstName: string;
  lastName: string;
  middleName?: string;
  chosenFirstName?: string;
  chosenLastName?: string;
  primaryPhoneNumber?: string;
  phones?: { number: string }[];
}

/** A patient with its search keys computed once (names folded, phone digits extracted). */
export interface PreparedPatient<T extends SearchablePatient = SearchablePatient> {
  patient: T;
  names: string[];
  fullName: string;
  phoneTargets: string[];
  sortName: string;
}

/** Lower case without diacritics, so "lopez" finds "López" typed elsewhere. */
export function foldName(value: string): string {
  return value.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

export function preparePatient<T extends SearchablePatient>(patient: T): PreparedPatient<T> {
  const names = [patient.firstName, patient.lastName, patient.middleName, patient.chosenFirstName, patient.chosenLastName]
    .filter((n): n is string => !!n)
    .map(foldName);
  const numbers = [patient.primaryPhoneNumber, ...(patient.phones ?? []).map((ph) => ph.number)].filter((n): n is string => !!n);
  return {
    patient,
    names,
    fullName: foldName(`${patient.firstName} ${patient.lastName}`),
    phoneTargets: [...new Set(numbers.map(phoneMatchTarget))],
    sortName: `${foldName(patient.lastName)}\u0000${foldName(patient.firstName)}\u0000${patient.id}`,
  };
}

const NAME_SCORE = { exact: 30, prefix: 20, contains: 8 } as const;

function nameTokenScore(token: string, names: string[]): number {
  let best = 0;
  for (const name of names) {
    if (name === token) return NAME_SCORE.exact;
    if (name.startsWith(token)) best = NAME_SCORE.prefix;
    else if (best < NAME_SCORE.contains && name.includes(token)) best = NAME_SCORE.contains;
  }
  return best;
}

function phoneScore(qDigits: string, p: PreparedPatient): number {
  let best = 0;
  for (const target of p.phoneTargets) {
    const kind = matchPhoneDigits(qDigits, target);
    if (kind) best = Math.max(best, PHONE_MATCH_SCORE[kind]);
  }
  return best;
}

export function splitQuery(q: string): string[] {
  return foldName(q)
    .split(/[\s,]+/)
    .map((t) => t.trim())
    .filter(Boolean);
}

/** A query parsed once per search. */
interface ParsedQuery {
  phoneDigits: string | null;
  tokens: string[];
  whole: string;
}

function parseQuery(q: string): ParsedQuery {
  if (isPhoneLike(q)) return { phoneDigits: phoneDigits(q), tokens: [], whole: '' };
  const tokens = splitQuery(q);
  return { phoneDigits: null, tokens, whole: tokens.join(' ') };
}

function scorePrepared(q: ParsedQuery, p: PreparedPatient): number {
  if (q.phoneDigits !== null) return phoneScore(q.phoneDigits, p);
  if (q.tokens.length === 0) return 0;
  let total = 0;
  for (const token of q.tokens) {
    let s = nameTokenScore(token, p.names);
    if (s === 0 && token.length >= PHONE_FUZZY_MIN_DIGITS && /^\d+$/.test(token)) s = phoneScore(token, p) / 4;
    if (s === 0) return 0;
    total += s;
  }
  // A name that matches the whole query in order ("maria lopez") beats the same tokens scattered.
  if (q.tokens.length > 1 && p.fullName.startsWith(q.whole)) total += 5;
  return total;
}

/**
 * How well a patient matches a search, 0 for no match. A phone-like query (spec shell §5) is
 * matched against every phone with the fuzzy rules. Otherwise every token must match one of the
 * first, middle, last or chosen names: exactly, as a prefix, or contained (in that order of
 * strength); a token of 3+ digits may instead match a phone.
 */
export function scorePatient(q: string, p: SearchablePatient): number {
  return scorePrepared(parseQuery(q), preparePatient(p));
}

/** Matching prepared patients, best first; equal scores in last, first name order. */
export function rankPrepared<T extends SearchablePatient>(q: string, prepared: readonly PreparedPatient<T>[]): PreparedPatient<T>[] {
  const parsed = parseQuery(q);
  const scored: { p: PreparedPatient<T>; s: number }[] = [];
  for (const p of prepared) {
    const s = scorePrepared(parsed, p);
    if (s > 0) scored.push({ p, s });
  }
  scored.sort((a, b) => b.s - a.s || (a.p.sortName < b.p.sortName ? -1 : a.p.sortName > b.p.sortName ? 1 : 0));
  return scored.map((x) => x.p);
}

export function rankPatients<T extends SearchablePatient>(q: string, patients: readonly T[]): T[] {
  return rankPrepared(q, patients.map(preparePatient)).map((p) => p.patient);
}
