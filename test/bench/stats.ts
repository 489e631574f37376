export interface LatencySummary {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  /** Completed requests per wall-clock second; undefined when requests were interleaved with unmeasured work. */
  requestsPerSecond?: number;
}

/** Nearest-rank percentile of an ascending list. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export function latencySummary(latenciesMs: readonly number[], elapsedSeconds?: number): LatencySummary {
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    ...(elapsedSeconds ? { requestsPerSecond: sorted.length / elapsedSeconds } : {}),
  };
}
