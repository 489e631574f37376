import { describe, expect, it } from 'vitest';
import { pollDecision, STALE_RETRY_MS } from './transcription-poll.js';

const t0 = Date.parse('2026-01-01T10:00:00Z');
const base = { startedAt: t0, lastRetryAt: null, updatedAt: new Date(t0).toISOString() };

describe('pollDecision', () => {
  it('stops on completed, failed and cancelled', () => {
    for (const status of ['completed', 'failed', 'cancelled'] as const) expect(pollDecision({ ...base, status, now: t0 + 5000 })).toBe('done');
  });
  it('keeps waiting while the run moves', () => {
    expect(pollDecision({ ...base, status: 'processing_transcription', now: t0 + 2000 })).toBe('wait');
    expect(pollDecision({ ...base, status: 'queued', now: t0 + STALE_RETRY_MS })).toBe('wait');
  });
  it('asks for a retry when the last update is older than the threshold, once per threshold', () => {
    const now = t0 + STALE_RETRY_MS + 1;
    expect(pollDecision({ ...base, status: 'processing_audio_file', now })).toBe('retry');
    expect(pollDecision({ ...base, status: 'processing_audio_file', now, lastRetryAt: now - 1000 })).toBe('wait');
    expect(pollDecision({ ...base, status: 'processing_audio_file', now: now + STALE_RETRY_MS, lastRetryAt: now - 1000 })).toBe('retry');
  });
  it('gives up after 900,000 ms of watching', () => {
    expect(pollDecision({ ...base, status: 'processing', now: t0 + 899_999, updatedAt: new Date(t0 + 899_000).toISOString() })).toBe('wait');
    expect(pollDecision({ ...base, status: 'processing', now: t0 + 900_000, updatedAt: new Date(t0 + 899_000).toISOString() })).toBe('timeout');
  });
});
