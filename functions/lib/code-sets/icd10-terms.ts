import type { Icd10IndexTerm } from './icd10-index-parse.js';
import { entriesWithEveryToken, invertedIndex, words } from './sorted-prefix.js';

/**
 * The ICD-10-CM alphabetic index as diagnosis search reads it: a sorted vocabulary of the words
 * of every entry's path ("Sore › throat › streptococcal"), each with the ascending entry numbers
 * it occurs in. Built once per Lambda instance from the imported index (code-sets.ts).
 */
export class Icd10Terms {
  private readonly paths: string[];
  private readonly levels: Uint8Array;
  private readonly codes: string[];
  /** How many different words each path has: with every token matched, fewer means a closer entry. */
  private readonly wordCounts: Uint8Array;
  private readonly vocabulary: string[];
  private readonly postings: Int32Array[];
  private readonly stage: Uint8Array;

  constructor(terms: readonly Icd10IndexTerm[]) {
    this.paths = terms.map((t) => t[0]);
    this.levels = Uint8Array.from(terms, (t) => t[1]);
    // J02.9 → J029; a code to complete (H57.1-, A40.-) stands for the billable codes under it.
    this.codes = terms.map((t) => t[2].replace(/[.-]/g, ''));
    const distinct = this.paths.map((path) => new Set(words(path)));
    this.wordCounts = Uint8Array.from(distinct, (d) => Math.min(d.size, 255));
    ({ vocabulary: this.vocabulary, postings: this.postings } = invertedIndex(distinct));
    this.stage = new Uint8Array(terms.length);
  }

  get size(): number {
    return this.paths.length;
  }

  /**
   * The codes (or code prefixes) of the entries whose path has a word starting with every token:
   * entries with the fewest words besides the typed ones first ("sore throat" finds "Sore › throat"
   * before "Sore › throat › streptococcal"), then main terms before subterms, then book order.
   */
  match(tokens: readonly string[]): string[] {
    if (tokens.length === 0 || tokens.length > 250) return [];
    const hits = entriesWithEveryToken(this.vocabulary, this.postings, this.stage, tokens);
    hits.sort((a, b) => this.wordCounts[a] - this.wordCounts[b] || this.levels[a] - this.levels[b] || a - b);
    const out: string[] = [];
    const seen = new Set<string>();
    for (const e of hits) {
      if (seen.has(this.codes[e])) continue;
      seen.add(this.codes[e]);
      out.push(this.codes[e]);
    }
    return out;
  }
}
