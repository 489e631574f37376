import { describe, expect, it } from 'vitest';
import { ROUTE_KINDS } from '../../scripts/cost/workload.js';
import { LOAD_MIX, loadRunCounts, peakPerSecond, planLoad } from './load-mix.js';

describe('load plan', () => {
  it('runs each operation of each user at its interval: a 5 s draft save 24 times in two minutes, a 30–60 s poll 2 to 4 times', () => {
    const plan = planLoad({ users: 3, durationMs: 120_000, maxRequests: 1e6 });
    for (let user = 0; user < 3; user++) {
      const mine = (op: string) => plan.filter((p) => p.user === user && p.op === op).map((p) => p.at);
      const drafts = mine('draft save');
      expect(drafts.length).toBeGreaterThanOrEqual(23);
      expect(drafts.length).toBeLessThanOrEqual(24);
      expect(drafts.slice(1).map((t, i) => Math.round(t - drafts[i]))).toEqual(Array(drafts.length - 1).fill(5000));
      const polls = mine('unread notifications count');
      expect(polls.length).toBeGreaterThanOrEqual(2);
      expect(polls.length).toBeLessThanOrEqual(4);
      for (let i = 1; i < polls.length; i++) {
        expect(polls[i] - polls[i - 1]).toBeGreaterThanOrEqual(30_000);
        expect(polls[i] - polls[i - 1]).toBeLessThanOrEqual(60_000);
      }
    }
    expect(new Set(plan.map((p) => p.op))).toEqual(new Set(Object.keys(LOAD_MIX)));
  });

  it('spreads users over the interval instead of polling in the same second, and plans the same run for the same seed', () => {
    const plan = planLoad({ users: 50, durationMs: 5_000, maxRequests: 1e6 });
    const firstSaves = plan.filter((p) => p.op === 'draft save').map((p) => Math.floor(p.at / 1000));
    expect(new Set(firstSaves).size).toBe(5);
    expect(planLoad({ users: 50, durationMs: 5_000, maxRequests: 1e6 })).toEqual(plan);
    expect(planLoad({ users: 50, durationMs: 5_000, maxRequests: 1e6, seed: 7 })).not.toEqual(plan);
  });

  it('is in time order and keeps only the earliest requests within the request bound', () => {
    const all = planLoad({ users: 10, durationMs: 60_000, maxRequests: 1e6 });
    const bounded = planLoad({ users: 10, durationMs: 60_000, maxRequests: 100 });
    expect(all.map((p) => p.at)).toEqual([...all.map((p) => p.at)].sort((a, b) => a - b));
    expect(bounded).toEqual(all.slice(0, 100));
    expect(all.every((p) => p.at < 60_000)).toBe(true);
  });

  it('finds the busiest second', () => {
    expect(
      peakPerSecond(
        new Map([
          [0, 3],
          [1, 9],
          [2, 4],
        ]),
      ),
    ).toEqual({ second: 1, value: 9 });
    expect(peakPerSecond(new Map())).toEqual({ second: -1, value: 0 });
  });

  it('counts the run per route kind in the shape npm run cost -- --requests reads, each operation a kind it prices', () => {
    for (const { kind } of Object.values(LOAD_MIX)) expect(ROUTE_KINDS).toHaveProperty(kind);
    const run = loadRunCounts(2, 50, {
      'draft save': { count: 1200, read: 3600, written: 6000 },
      'unread notifications count': { count: 150, read: 450, written: 0 },
      'open tasks count': { count: 200, read: 0, written: 0 },
    });
    expect(run).toEqual({
      minutes: 2,
      users: 50,
      requests: { draftSave: 1200, unreadPoll: 350 },
      readUnits: { draftSave: 3600, unreadPoll: 450 },
      writeUnits: { draftSave: 6000, unreadPoll: 0 },
    });
  });
});
