import { describe, expect, it } from 'vitest';
import { latencySummary, percentile } from './stats.js';

describe('bench stats', () => {
  it('uses nearest-rank percentiles', () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(sorted, 50)).toBe(50);
    expect(percentile(sorted, 95)).toBe(95);
    expect(percentile(sorted, 99)).toBe(99);
    expect(percentile([7], 99)).toBe(7);
  });
  it('summarises unsorted latencies and the rate', () => {
    expect(latencySummary([30, 10, 20, 40], 2)).toEqual({ count: 4, p50: 20, p95: 40, p99: 40, requestsPerSecond: 2 });
    expect(latencySummary([5])).toEqual({ count: 1, p50: 5, p95: 5, p99: 5 });
  });
});
