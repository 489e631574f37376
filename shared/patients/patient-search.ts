import { PHONE_FUZZY_MIN_DIGITS } from '../constants/patients.js';
import { isPhoneLike, matchPhone, PHONE_MATCH_SCORE } from './phone.js';

/** The fields patient search reads; the repository keeps only these in its search cache. */
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

/** Lower case without diacritics, so "lopez" finds "López" typed elsewhere. */
export function foldName(value: string): string {
  return value.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

const NAME_SCORE = { exact: 30, prefix: 20, contains: 8 } as const;

function nameTokenScore(token: string, names: string[]): number {
  let best = 0;
  for (const name of names) {
    if (name === token) return NAME_SCORE.exact;
    if (name.startsWith(token)) best = Math.max(best, NAME_SCORE.prefix);
    else if (best < NAME_SCORE.contains && name.includes(token)) best = NAME_SCORE.contains;
  }
  return best;
}

function phoneScore(query: string, p: SearchablePatient): number {
  let best = 0;
  const numbers = [p.primaryPhoneNumber, ...(p.phones ?? []).map((ph) => ph.number)];
  for (const n of numbers) {
    const kind = matchPhone(query, n);
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

/**
 * How well a patient matches a search, 0 for no match. A phone-like query (spec shell §5) is
 * matched against every phone with the fuzzy rules. Otherwise every token must match one of the
 * first, middle, last or chosen names: exactly, as a prefix, or contained (in that order of
 * strength); a token of 3+ digits may instead match a phone.
 */
export function scorePatient(q: string, p: SearchablePatient): number {
  if (isPhoneLike(q)) return phoneScore(q, p);
  const tokens = splitQuery(q);
  if (tokens.length === 0) return 0;
  const names = [p.firstName, p.lastName, p.middleName, p.chosenFirstName, p.chosenLastName]
    .filter((n): n is string => !!n)
    .map(foldName);
  let total = 0;
  for (const token of tokens) {
    let s = nameTokenScore(token, names);
    if (s === 0 && /^\d+$/.test(token) && token.length >= PHONE_FUZZY_MIN_DIGITS) s = phoneScore(token, p) / 4;
    if (s === 0) return 0;
    total += s;
  }
  // A name that matches the whole query in order ("maria lopez") beats the same tokens scattered.
  const whole = tokens.join(' ');
  if (tokens.length > 1 && foldName(`${p.firstName} ${p.lastName}`).startsWith(whole)) total += 5;
  return total;
}

const byName = (a: SearchablePatient, b: SearchablePatient) =>
  foldName(a.lastName).localeCompare(foldName(b.lastName)) ||
  foldName(a.firstName).localeCompare(foldName(b.firstName)) ||
  a.id.localeCompare(b.id);

/** Matching patients, best first; equal scores in last, first name order. */
export function rankPatients<T extends SearchablePatient>(q: string, patients: readonly T[]): T[] {
  const scored: { p: T; s: number }[] = [];
  for (const p of patients) {
    const s = scorePatient(q, p);
    if (s > 0) scored.push({ p, s });
  }
  scored.sort((a, b) => b.s - a.s || byName(a.p, b.p));
  return scored.map((x) => x.p);
}
