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
