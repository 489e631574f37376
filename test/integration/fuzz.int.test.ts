import { beforeAll, describe, expect, it } from 'vitest';
import { GROUPS } from '../../functions/groups.js';
import { api, createTestUser } from '../support/local-stack.js';

/*
 * Random, oversized and wrong-typed input on every route of the route table (read from
 * functions/groups.ts, so a route added anywhere is fuzzed too). Whatever a client sends, the
 * answer is a 2xx/4xx: a 5xx means input reached something that could not take it (a DynamoDB
 * key, a parser, a dependency). The seed is fixed, so a failure replays exactly.
 */

const SEED = 0x7157_2026;
const CASES_PER_ROUTE = 24;

function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rand = () => number;
const pick = <T>(rand: Rand, list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;

const ONE_MB = 'x'.repeat(1024 * 1024);
const STRINGS = [
  '',
  ' ',
  'a',
  'pat-0001',
  'new',
  '#',
  'PATIENT#x#ALLERGY#y',
  '../../etc/passwd',
  '%',
  '\u0000',
  '🙂'.repeat(40),
  'A'.repeat(3000),
  '2026-02-30',
  '13/45/2020',
  'null',
  '{"a":1}',
];
const FIELD_NAMES = [
  'id',
  'ident',
  'patientId',
  'noteId',
  'templateId',
  'interactionId',
  'shortcut',
  'key',
  'contentType',
  'size',
  'name',
  'text',
  'formattedText',
  'noteVersion',
  'version',
  'status',
  'noteType',
  'data',
  'items',
  'group',
  'create',
  'update',
  'answers',
  'answer',
  'dueAt',
  'assigned',
  'email',
  'firstName',
  'lastName',
  'dob',
  'permissionGroup',
  'userStatus',
  'pinned',
  'date',
  'startDate',
  'endDate',
  'icd10CodeId',
  'query',
  'q',
  'prefix',
  'limit',
  'cursor',
  'page',
  'type',
  'subject',
  'to',
  'description',
  'title',
  'body',
  'files',
  'onBehalfOf',
  'flags',
  'widgets',
];

function randomString(rand: Rand): string {
  const r = rand();
  if (r < 0.5) return pick(rand, STRINGS);
  if (r < 0.6) return ONE_MB.slice(0, 200_000);
  const length = Math.floor(rand() * 80);
  let s = '';
  for (let i = 0; i < length; i++) s += String.fromCharCode(32 + Math.floor(rand() * 95));
  return s;
}

function randomValue(rand: Rand, depth = 0): unknown {
  const r = rand();
  if (r < 0.35) return randomString(rand);
  if (r < 0.45) return pick(rand, [0, -1, 1.5, 1e308, Number.MAX_SAFE_INTEGER, 2 ** 53 + 1]);
  if (r < 0.52) return pick(rand, [true, false, null]);
  if (r < 0.72 && depth < 3) return Array.from({ length: Math.floor(rand() * 4) }, () => randomValue(rand, depth + 1));
  if (depth < 3) return randomObject(rand, depth + 1);
  return randomString(rand);
}

function randomObject(rand: Rand, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const n = 1 + Math.floor(rand() * 6);
  for (let i = 0; i < n; i++) out[pick(rand, FIELD_NAMES)] = randomValue(rand, depth);
  return out;
}

function randomBody(rand: Rand, caseIndex: number): unknown {
  if (caseIndex === 0) return { id: ONE_MB, templateId: ONE_MB, interactionId: ONE_MB, shortcut: ONE_MB, patientId: ONE_MB, key: ONE_MB };
  if (caseIndex === 1) return Object.fromEntries(FIELD_NAMES.map((f) => [f, 'A'.repeat(3000)]));
  if (caseIndex === 2) return '{"unterminated": ';
  const r = rand();
  if (r < 0.1) return randomValue(rand);
  return randomObject(rand);
}

function pathWith(template: string, rand: Rand, caseIndex: number): string {
  return template.replace(/\{[^}]+\}/g, () => {
    if (caseIndex === 0) return 'A'.repeat(3000);
    return encodeURIComponent(randomString(rand).slice(0, 1000)) || 'x';
  });
}

function queryFor(rand: Rand, caseIndex: number): string {
  if (caseIndex % 3 !== 0) return '';
  const params = new URLSearchParams();
  // Case 0: one 3,000-character value; the whole request line stays under the 16 KB a server takes.
  const n = caseIndex === 0 ? 1 : 1 + Math.floor(rand() * 3);
  for (let i = 0; i < n; i++) params.set(pick(rand, FIELD_NAMES), caseIndex === 0 ? 'A'.repeat(3000) : randomString(rand).slice(0, 2000));
  return `?${params.toString()}`;
}

// Signing out ends the caller's tokens by design (every later request would be a 401), so it goes last.
const endsSession = (key: string) => key.endsWith('/users/me/sign-out');
const ROUTES = GROUPS.flatMap((g) => g.routes.map((key) => ({ group: g.name, key }))).sort((a, b) => Number(endsSession(a.key)) - Number(endsSession(b.key)));

let admin: string;
let employee: string;

// Users of their own, so what the fuzz may change of a user (dashboard, reminders) is nobody else's.
beforeAll(async () => {
  const run = Date.now().toString(36);
  admin = await createTestUser({ email: `fuzz-admin-${run}@demo.tidewell.local`, group: 'admin' });
  employee = await createTestUser({ email: `fuzz-employee-${run}@demo.tidewell.local`, group: 'employee' });
});

describe('fuzzing the route table', () => {
  it(`answers ${ROUTES.length} routes × ${CASES_PER_ROUTE} random requests without a 5xx`, async () => {
    const rand = prng(SEED);
    const failures: string[] = [];
    const byStatus = new Map<number, number>();
    let sent = 0;
    for (const { key } of ROUTES) {
      const [method, template] = key.split(' ') as [string, string];
      for (let c = 0; c < CASES_PER_ROUTE; c++) {
        const path = pathWith(template, rand, c) + queryFor(rand, c);
        const body = method === 'GET' || method === 'DELETE' ? undefined : randomBody(rand, c);
        const token = c % 4 === 3 ? employee : admin;
        // A connection the client's keep-alive pool lost is retried once; only an answer counts.
        const send = () => api(token, method, path, body);
        const res = await send()
          .catch(() => send())
          .catch(() => ({ status: 599 }));
        sent++;
        byStatus.set(res.status, (byStatus.get(res.status) ?? 0) + 1);
        if (res.status >= 500) failures.push(`${res.status} ${key} case ${c}: ${method} ${path.slice(0, 120)}`);
      }
    }
    console.info(`fuzz: ${sent} requests, by status ${JSON.stringify(Object.fromEntries([...byStatus].sort(([a], [b]) => a - b)))}`);
    expect(sent).toBeGreaterThanOrEqual(2000);
    // The input reached the handlers: most requests were answered by validation, some succeeded.
    expect(byStatus.get(400) ?? 0).toBeGreaterThan(sent / 4);
    expect([...byStatus].filter(([status]) => status < 300).reduce((n, [, c]) => n + c, 0)).toBeGreaterThan(0);
    expect(failures).toEqual([]);
  }, 600_000);
});
