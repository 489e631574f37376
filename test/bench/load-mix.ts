/**
 * What one signed-in staff member does, and how often, in the load run (`npm run bench:load`).
 * Intervals marked `spec` are the spec's own (shell-and-operations.md, notes-and-interactions.md);
 * the others are an assumed busy clinic day, stated here so a reader can change them in one place.
 * Each interval is [min, max] seconds: the next run of an operation is uniformly within it. `kind`
 * is the route kind `npm run cost -- --requests` prices it as (scripts/cost/workload.ts).
 */
export const LOAD_MIX = {
  'draft save': { every: [5, 5], source: 'spec: draft autosave debounce 5 s', kind: 'draftSave' },
  'unread notifications count': { every: [30, 60], source: 'spec: polled every 60 s (30–60 s)', kind: 'unreadPoll' },
  'unread conversations count': { every: [30, 60], source: 'spec: polled every 60 s (30–60 s)', kind: 'unreadPoll' },
  'open tasks count': { every: [30, 30], source: 'spec: tasks count every 30 s', kind: 'unreadPoll' },
  'phone calls count': { every: [60, 60], source: 'spec: polled every 60 s', kind: 'unreadPoll' },
  'open chart (patient)': { every: [30, 60], source: 'assumed: a chart every 30–60 s', kind: 'chartRead' },
  'chart section': { every: [30, 60], source: 'assumed: with each chart', kind: 'chartRead' },
  'notes first page': { every: [30, 60], source: 'assumed: with each chart', kind: 'notesPage' },
  'notes next page': { every: [60, 120], source: 'assumed: every other chart', kind: 'notesPage' },
  'patient search (name)': { every: [20, 40], source: 'assumed', kind: 'patientSearch' },
  'patient search (phone fragment)': { every: [40, 80], source: 'assumed', kind: 'patientSearch' },
  'ICD-10 search': { every: [40, 80], source: 'assumed', kind: 'codeSearch' },
  'drug search': { every: [40, 80], source: 'assumed', kind: 'codeSearch' },
  'send text': { every: [30, 90], source: 'assumed', kind: 'textSend' },
  'read texts': { every: [30, 60], source: 'assumed', kind: 'textRead' },
  'list conversations': { every: [30, 60], source: 'assumed', kind: 'conversationList' },
  'book appointment': { every: [60, 120], source: 'assumed', kind: 'appointmentWrite' },
  'move appointment': { every: [60, 120], source: 'assumed', kind: 'appointmentWrite' },
  'create notification': { every: [30, 60], source: 'assumed: drives the live feed', kind: 'otherWrite' },
} as const satisfies Record<string, { every: readonly [number, number]; source: string; kind: string }>;

export type LoadOp = keyof typeof LOAD_MIX;

export interface Planned {
  /** Milliseconds from the start of the run. */
  at: number;
  user: number;
  op: LoadOp;
}

/** A small deterministic generator (mulberry32), so two runs plan the same requests. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Every request of the run, in time order: each user starts each operation at a random phase
 * within its first interval (so 50 users do not poll in the same second), then repeats it after
 * a gap drawn from its interval, until `durationMs`; at most `maxRequests` in all (the earliest).
 */
export function planLoad(opts: {
  users: number;
  durationMs: number;
  maxRequests: number;
  seed?: number;
  mix?: Record<string, { every: readonly [number, number] }>;
}): Planned[] {
  const mix = opts.mix ?? LOAD_MIX;
  const random = seededRandom(opts.seed ?? 42);
  const plan: Planned[] = [];
  for (let user = 0; user < opts.users; user++) {
    for (const [op, { every }] of Object.entries(mix)) {
      const gap = () => (every[0] + random() * (every[1] - every[0])) * 1000;
      for (let at = random() * every[1] * 1000; at < opts.durationMs; at += gap()) plan.push({ at, user, op: op as LoadOp });
    }
  }
  plan.sort((a, b) => a.at - b.at || a.user - b.user);
  return plan.slice(0, Math.max(0, opts.maxRequests));
}

/** The busiest whole second of a per-second series, and its value. */
export function peakPerSecond(buckets: ReadonlyMap<number, number>): { second: number; value: number } {
  let peak = { second: -1, value: 0 };
  for (const [second, value] of buckets) if (value > peak.value) peak = { second, value };
  return peak;
}

/** A run's counts per route kind, as `npm run cost -- --requests <file>` scales them to a month. */
export function loadRunCounts(minutes: number, users: number, byOp: Partial<Record<LoadOp, { count: number; read: number; written: number }>>) {
  const run = { minutes, users, requests: {} as Record<string, number>, readUnits: {} as Record<string, number>, writeUnits: {} as Record<string, number> };
  for (const [op, c] of Object.entries(byOp)) {
    if (!c?.count) continue;
    const { kind } = LOAD_MIX[op as LoadOp];
    run.requests[kind] = (run.requests[kind] ?? 0) + c.count;
    run.readUnits[kind] = (run.readUnits[kind] ?? 0) + c.read;
    run.writeUnits[kind] = (run.writeUnits[kind] ?? 0) + c.written;
  }
  return run;
}
