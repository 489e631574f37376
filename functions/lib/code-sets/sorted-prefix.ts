/** First index of `sorted` whose entry is not below `value` (binary search). */
export function lowerBound(sorted: readonly string[], value: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** [lo, hi) of the entries of `sorted` that start with `prefix`. */
export function prefixRange(sorted: readonly string[], prefix: string): [number, number] {
  return [lowerBound(sorted, prefix), lowerBound(sorted, `${prefix}\uffff`)];
}

export interface WordRange {
  /** [lo, hi) of the vocabulary words the token starts. */
  lo: number;
  hi: number;
  /** How many postings those words hold together. */
  size: number;
}

/**
 * Per token, the vocabulary words it is a prefix of and their postings count, rarest token first:
 * a word search walks the rarest token's postings and only checks the others against those.
 */
export function wordRangesRarestFirst(vocabulary: readonly string[], postings: readonly ArrayLike<number>[], tokens: readonly string[]): WordRange[] {
  const ranges = tokens.map((token) => {
    const [lo, hi] = prefixRange(vocabulary, token);
    let size = 0;
    for (let w = lo; w < hi; w++) size += postings[w].length;
    return { lo, hi, size };
  });
  return ranges.sort((a, b) => a.size - b.size);
}

/** The lower-case words of a text, as entries are indexed and queries split. */
export const words = (text: string): string[] =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/** A sorted vocabulary, each word with the ascending numbers of the entries holding it: what prefix search walks. */
export function invertedIndex(entryWords: readonly Iterable<string>[]): { vocabulary: string[]; postings: Int32Array[] } {
  const byWord = new Map<string, number[]>();
  entryWords.forEach((distinct, i) => {
    for (const w of distinct) {
      let list = byWord.get(w);
      if (!list) byWord.set(w, (list = []));
      list.push(i);
    }
  });
  const vocabulary = [...byWord.keys()].sort();
  return { vocabulary, postings: vocabulary.map((w) => Int32Array.from(byWord.get(w)!)) };
}

/**
 * The entries with a word starting with every token, in no order. Rarest token first: later tokens
 * only advance entries the first one touched. `stage` (one byte per entry, all 0) is scratch space
 * kept by the caller so a search allocates nothing per entry; it is left all 0 again.
 */
export function entriesWithEveryToken(vocabulary: readonly string[], postings: readonly Int32Array[], stage: Uint8Array, tokens: readonly string[]): number[] {
  const touched: number[] = [];
  wordRangesRarestFirst(vocabulary, postings, tokens).forEach(({ lo, hi }, k) => {
    for (let w = lo; w < hi; w++) {
      for (const e of postings[w]) {
        if (stage[e] !== k) continue;
        stage[e] = k + 1;
        if (k === 0) touched.push(e);
      }
    }
  });
  const hits = touched.filter((e) => stage[e] === tokens.length);
  for (const e of touched) stage[e] = 0;
  return hits;
}
