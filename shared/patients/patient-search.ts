import { PHONE_FUZZY_MIN_DIGITS } from '../constants/patients.js';
import type { PatientSearchMatch } from './patient-schema.js';
import { isPhoneLike, matchPhoneDigits, PHONE_MATCH_SCORE, phoneDigits, phoneMatchTarget, type PhoneMatchKind } from './phone.js';

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
  return value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
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
type NameMatchKind = keyof typeof NAME_SCORE;

/** Why a patient matched, without the id: the API adds it per result. */
export type MatchReason = PatientSearchMatch extends infer M ? (M extends PatientSearchMatch ? Omit<M, 'id'> : never) : never;

/** How one part of a query matched, and how strongly. */
interface Hit {
  score: number;
  reason: MatchReason;
}

function nameTokenHit(token: string, names: string[]): Hit | null {
  let best: NameMatchKind | null = null;
  for (const name of names) {
    if (name === token) return { score: NAME_SCORE.exact, reason: { by: 'name', kind: 'exact' } };
    if (name.startsWith(token)) best = 'prefix';
    else if (best === null && name.includes(token)) best = 'contains';
  }
  return best ? { score: NAME_SCORE[best], reason: { by: 'name', kind: best } } : null;
}

function phoneHit(qDigits: string, p: PreparedPatient): Hit | null {
  let best: PhoneMatchKind | null = null;
  for (const target of p.phoneTargets) {
    const kind = matchPhoneDigits(qDigits, target);
    if (kind && (!best || PHONE_MATCH_SCORE[kind] > PHONE_MATCH_SCORE[best])) best = kind;
  }
  return best ? { score: PHONE_MATCH_SCORE[best], reason: { by: 'phone', kind: best } } : null;
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

function matchPrepared(q: ParsedQuery, p: PreparedPatient): Hit | null {
  if (q.phoneDigits !== null) return phoneHit(q.phoneDigits, p);
  if (q.tokens.length === 0) return null;
  let total = 0;
  let weakest: Hit | null = null;
  for (const token of q.tokens) {
    let hit = nameTokenHit(token, p.names);
    if (!hit && token.length >= PHONE_FUZZY_MIN_DIGITS && /^\d+$/.test(token)) {
      const phone = phoneHit(token, p);
      if (phone) hit = { ...phone, score: phone.score / 4 };
    }
    if (!hit) return null;
    total += hit.score;
    if (!weakest || hit.score < weakest.score) weakest = hit;
  }
  // A name that matches the whole query in order ("maria lopez") beats the same tokens scattered.
  if (q.tokens.length > 1 && p.fullName.startsWith(q.whole)) total += 5;
  return weakest && { score: total, reason: weakest.reason };
}

/**
 * How well a patient matches a search, 0 for no match. A phone-like query (spec shell §5) is
 * matched against every phone with the fuzzy rules: the digits as one run first, then in order with
 * gaps, then scrambled. Otherwise every token must match one of the first, middle, last or chosen
 * names: exactly, as a prefix, or contained (in that order of strength); a token of 3+ digits may
 * instead match a phone.
 */
export function scorePatient(q: string, p: SearchablePatient): number {
  return matchPrepared(parseQuery(q), preparePatient(p))?.score ?? 0;
}

export interface RankedPatient<T extends SearchablePatient> {
  entry: PreparedPatient<T>;
  reason: MatchReason;
}

/** Matching prepared patients, best first, each with why it matched; equal scores in last, first name order. */
export function rankPrepared<T extends SearchablePatient>(q: string, prepared: readonly PreparedPatient<T>[]): RankedPatient<T>[] {
  const parsed = parseQuery(q);
  const scored: { ranked: RankedPatient<T>; s: number }[] = [];
  for (const entry of prepared) {
    const match = matchPrepared(parsed, entry);
    if (match) scored.push({ ranked: { entry, reason: match.reason }, s: match.score });
  }
  const order = (a: PreparedPatient<T>, b: PreparedPatient<T>) => (a.sortName < b.sortName ? -1 : a.sortName > b.sortName ? 1 : 0);
  scored.sort((a, b) => b.s - a.s || order(a.ranked.entry, b.ranked.entry));
  return scored.map((x) => x.ranked);
}

export function rankPatients<T extends SearchablePatient>(q: string, patients: readonly T[]): T[] {
  return rankPrepared(q, patients.map(preparePatient)).map((r) => r.entry.patient);
}

/** What the search results say about a match that is not by name or by the number as typed. */
export function matchReasonLabel(reason: MatchReason): string | null {
  if (reason.by === 'name') return null;
  if (reason.kind === 'subsequence') return 'Phone has these digits in order';
  if (reason.kind === 'scrambled') return 'Phone has these digits in another order';
  return 'Phone number match';
}
