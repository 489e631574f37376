import { PHONE_COUNTRY_CODE, PHONE_FUZZY_MIN_DIGITS } from '../constants/patients.js';

/** Spec: phone input may contain only digits, parentheses, hyphen and space. */
const PHONE_INPUT = /^[0-9() -]*$/;

export const PHONE_INPUT_MESSAGE = 'Phone number may contain only digits, parentheses, hyphen and space';
export const PHONE_LENGTH_MESSAGE = 'Phone number must have 10 digits';

/**
 * True when a typed phone uses only the allowed characters. A leading "+" is tolerated so the
 * stored form (+1 and ten digits) can be sent back unchanged.
 */
export function isAllowedPhoneInput(value: string): boolean {
  return PHONE_INPUT.test(value.startsWith('+') ? value.slice(1) : value);
}

export function phoneDigits(value: string): string {
  return value.replace(/\D/g, '');
}

/**
 * The 10 national digits, dropping a leading country code 1; null if there are not 10. A number
 * written with "+" must carry the country code: "+1512555001" is 9 digits, not 10.
 */
export function nationalDigits(value: string): string | null {
  let digits = phoneDigits(value);
  if (value.trim().startsWith('+') && !(digits.length === 11 && digits.startsWith('1'))) return null;
  if (digits.length === 11 && digits.startsWith('1')) digits = digits.slice(1);
  return digits.length === 10 ? digits : null;
}

/** Stored form: +1 plus 10 digits; null when the input is not a US phone number. */
export function normalizePhone(value: string): string | null {
  if (!isAllowedPhoneInput(value.trim())) return null;
  const national = nationalDigits(value);
  return national ? `${PHONE_COUNTRY_CODE}${national}` : null;
}

/** Display form (xxx) xxx-xxxx; anything that is not a 10-digit number is returned as given. */
export function formatPhone(value: string | null | undefined): string {
  if (!value) return '';
  const national = nationalDigits(value);
  if (!national) return value;
  return `(${national.slice(0, 3)}) ${national.slice(3, 6)}-${national.slice(6)}`;
}

/**
 * Formats as the user types: "5550" → "(555) 0", "5550101" → "(555) 010-1". Extra digits beyond
 * ten are dropped.
 */
export function formatPhoneAsTyped(value: string): string {
  const d = phoneDigits(value).slice(0, 10);
  if (d.length === 0) return '';
  if (d.length <= 3) return `(${d}`;
  if (d.length <= 6) return `(${d.slice(0, 3)}) ${d.slice(3)}`;
  return `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`;
}

/**
 * A search query is treated as a phone when it holds only phone characters (and an optional
 * leading +, dots) and at least the fuzzy minimum of digits: "555", "(555) 01", "555-0101".
 */
export function isPhoneLike(q: string): boolean {
  const trimmed = q.trim();
  if (!/^\+?[0-9() .-]+$/.test(trimmed)) return false;
  return phoneDigits(trimmed).length >= PHONE_FUZZY_MIN_DIGITS;
}

export const PHONE_MATCH_KINDS = ['exact', 'prefix', 'substring', 'subsequence', 'scrambled'] as const;
export type PhoneMatchKind = (typeof PHONE_MATCH_KINDS)[number];

/**
 * Higher is better; used to rank search results. The typed digits as one run (the whole number, its
 * start, or anywhere in it) come first, then the digits in order with gaps, then the same digits
 * in another order: the closer the number is to what was typed, the likelier it is the patient meant.
 */
export const PHONE_MATCH_SCORE: Record<PhoneMatchKind, number> = {
  exact: 100,
  prefix: 90,
  substring: 80,
  subsequence: 60,
  scrambled: 40,
};

function isSubsequence(needle: string, haystack: string): boolean {
  let i = 0;
  for (let j = 0; j < haystack.length && i < needle.length; j++) {
    if (haystack[j] === needle[i]) i++;
  }
  return i === needle.length;
}

const need = new Int16Array(10);
const have = new Int16Array(10);

/** Some window of haystack, as long as needle, holds exactly needle's digits in any order. */
function hasScrambledWindow(needle: string, haystack: string): boolean {
  const n = needle.length;
  if (n > haystack.length) return false;
  need.fill(0);
  have.fill(0);
  for (let i = 0; i < n; i++) need[needle.charCodeAt(i) - 48]++;
  let mismatched = 0;
  for (let d = 0; d < 10; d++) if (need[d] !== 0) mismatched++;
  for (let j = 0; j < haystack.length; j++) {
    const inD = haystack.charCodeAt(j) - 48;
    if (have[inD] === need[inD]) mismatched++;
    have[inD]++;
    if (have[inD] === need[inD]) mismatched--;
    if (j >= n) {
      const outD = haystack.charCodeAt(j - n) - 48;
      if (have[outD] === need[outD]) mismatched++;
      have[outD]--;
      if (have[outD] === need[outD]) mismatched--;
    }
    if (j >= n - 1 && mismatched === 0) return true;
  }
  return false;
}

function matchDigits(q: string, digits: string): PhoneMatchKind | null {
  if (q === digits) return 'exact';
  if (digits.startsWith(q)) return 'prefix';
  if (digits.includes(q)) return 'substring';
  if (isSubsequence(q, digits)) return 'subsequence';
  if (hasScrambledWindow(q, digits)) return 'scrambled';
  return null;
}

/** The digits a stored number is matched on: its 10 national digits when it has them. */
export function phoneMatchTarget(phone: string): string {
  return nationalDigits(phone) ?? phoneDigits(phone);
}

/**
 * Match already-extracted query digits against a prepared target (see phoneMatchTarget). A
 * query starting with 1 is also tried against the number with its country code, so "1555…"
 * and "555…" both match.
 */
export function matchPhoneDigits(q: string, target: string): PhoneMatchKind | null {
  if (q.length < PHONE_FUZZY_MIN_DIGITS || target.length === 0) return null;
  let best = matchDigits(q, target);
  if (q.charCodeAt(0) === 49 && target.length === 10 && best !== 'exact') {
    const withCode = matchDigits(q, `1${target}`);
    if (withCode && (!best || PHONE_MATCH_SCORE[withCode] > PHONE_MATCH_SCORE[best])) best = withCode;
  }
  return best;
}

/**
 * Fuzzy phone match of spec shell §5: a query of 3+ digits matches a stored number by substring,
 * by subsequence, or as scrambled digits (the same digits in a different order within a window
 * of the query's length). Returns the best kind found, or null.
 */
export function matchPhone(query: string, phone: string | null | undefined): PhoneMatchKind | null {
  if (!phone) return null;
  return matchPhoneDigits(phoneDigits(query), phoneMatchTarget(phone));
}
