import type { Icd10Code } from '../../../shared/chart/code-sets.js';
import { dottedIcd10 } from './icd10-parse.js';
import { ICD10_CLINICIAN_TERMS } from './icd10-synonyms.js';
import { entriesWithEveryToken, invertedIndex, lowerBound, prefixRange, words } from './sorted-prefix.js';

const CODE_QUERY = /^[A-Z][0-9A-Z]{1,6}$/;
/** A typed plural finds the singular too ("throats" → throat…); "sepsis", "abscess", "herpes" keep theirs. */
const stem = (word: string) => (word.length > 4 && /[^suie]s$/.test(word) ? word.slice(0, -1) : word);

/** Codes of the clinician phrases every typed word begins a word of, in the list's order. */
function clinicianCodes(tokens: readonly string[]): string[] {
  if (tokens.length === 0) return [];
  const out: string[] = [];
  for (const [phrase, idents] of ICD10_CLINICIAN_TERMS) {
    const phraseWords = phrase.split(' ');
    if (tokens.every((t) => phraseWords.some((w) => w.startsWith(t)))) for (const id of idents) if (!out.includes(id)) out.push(id);
  }
  return out;
}

/**
 * In-memory ICD-10-CM search over a whole release (74,879 codes): entries sorted by code, and a
 * sorted vocabulary of description words each with the ascending entry numbers it occurs in.
 * A query is a code prefix (with or without the dot, any case) and/or word prefixes of the
 * description (a plural typed finds the singular); best matches first: exact code, code prefix,
 * the clinician phrases of icd10-synonyms.ts, the alphabetic index entries when it is loaded
 * (icd10-terms.ts), then all words matched, each tier by code.
 */
export class Icd10Index {
  private readonly idents: string[];
  private readonly descriptions: string[];
  private readonly vocabulary: string[];
  private readonly postings: Int32Array[];
  private readonly stage: Uint8Array;

  constructor(entries: readonly (readonly [string, string])[]) {
    const sorted = [...entries].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    this.idents = sorted.map((e) => e[0]);
    this.descriptions = sorted.map((e) => e[1]);
    ({ vocabulary: this.vocabulary, postings: this.postings } = invertedIndex(sorted.map(([, description]) => new Set(words(description)))));
    this.stage = new Uint8Array(sorted.length);
  }

  get size(): number {
    return this.idents.length;
  }

  private entry(i: number): Icd10Code {
    return { ident: this.idents[i], code: dottedIcd10(this.idents[i]), description: this.descriptions[i] };
  }

  get(identOrCode: string): Icd10Code | null {
    const ident = identOrCode.replace(/\./g, '').trim().toUpperCase();
    const i = lowerBound(this.idents, ident);
    return this.idents[i] === ident ? this.entry(i) : null;
  }

  /** Entry numbers whose description has a word starting with every token, ascending. */
  private allWords(tokens: string[]): number[] {
    if (tokens.length === 0 || tokens.length > 250) return [];
    const hits = entriesWithEveryToken(this.vocabulary, this.postings, this.stage, tokens);
    return hits.sort((a, b) => a - b);
  }

  search(keyword: string, limit: number, offset: number, terms?: { match(tokens: readonly string[]): string[] } | null): { items: Icd10Code[]; total: number } {
    const q = keyword.trim();
    if (q.length < 3) return { items: [], total: 0 };
    const ranked: number[] = [];
    let codeLo = 0;
    let codeHi = 0;
    const codeQuery = q.replace(/[.\s]/g, '').toUpperCase();
    if (CODE_QUERY.test(codeQuery)) {
      [codeLo, codeHi] = prefixRange(this.idents, codeQuery);
      // The exact code sorts first in its own prefix range.
      for (let i = codeLo; i < codeHi; i++) ranked.push(i);
    }
    const tokens = words(q).map(stem);
    // What clinicians call it comes before the description matches, after any code match.
    const seen = new Set(ranked);
    for (const ident of clinicianCodes(tokens)) {
      const i = lowerBound(this.idents, ident);
      if (this.idents[i] !== ident || seen.has(i)) continue;
      ranked.push(i);
      seen.add(i);
    }
    // An index entry's code is billable, or a category or code to complete: its billable codes then.
    for (const ident of terms?.match(tokens) ?? []) {
      const [lo, hi] = prefixRange(this.idents, ident);
      const exact = this.idents[lo] === ident;
      for (let i = lo; i < (exact ? lo + 1 : hi); i++) {
        if (seen.has(i)) continue;
        ranked.push(i);
        seen.add(i);
      }
    }
    for (const e of this.allWords(tokens)) if (!seen.has(e)) ranked.push(e);
    return { items: ranked.slice(offset, offset + limit).map((i) => this.entry(i)), total: ranked.length };
  }
}
