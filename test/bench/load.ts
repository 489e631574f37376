/**
 * `npm run bench:load -- --users 50 --minutes 2 [--scale demo|5k|20k|large] [--data-dir <folder>] [--max-requests 100000] [--seed 42] [--out run.json]`
 *
 * Drives the local API as N signed-in staff at once with the mix of load-mix.ts (the spec's own
 * intervals where it gives them: a draft saved every 5 s, unread counts polled every 30–60 s),
 * while each of them listens on the live notification feed. Starts the local runtime on loopback
 * in a data folder (a kept `--data-dir` of `npm run bench` at the same scale reuses its patients),
 * and is bounded by `--minutes` and `--max-requests`. Prints per operation count, p50/p95/p99,
 * errors and p95 as a ratio to a bare GetItem measured in the same run on the same engine; how
 * much of each request's time had a table call out and how much was the rest (the code); the
 * requests/s; the notification write → subscriber latency; and a practice's peak read and write
 * units per second (counted by the data layer) against DynamoDB's per-partition limits, since
 * every item of a practice shares its partition key. `--out` writes the counted requests and units
 * per route kind for `npm run cost -- --requests <file>`. A figure, not a test.
 */
import { InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { INDEX_SETTLE_MS } from '../../functions/data/patients/patient-index-cache.js';
import { putPatientsBatch } from '../../functions/data/patients/patient-repository.js';
import {
  INDEX_WRITTEN_HEADER,
  ITEMS_READ_HEADER,
  ITEMS_WRITTEN_HEADER,
  ROUND_TRIPS_HEADER,
  TABLE_MS_HEADER,
  meterTotals,
} from '../../functions/lib/table/read-meter.js';
import { cognitoAdminClient, ensurePoolUser } from '../../infra/local/cognito/provision-pool.js';
import { startLocalRuntime, type LocalRuntime } from '../../infra/local/runtime.js';
import { DEMO_PASSWORD } from '../../infra/local/seed/demo-users.js';
import { putIfAbsent, userItem } from '../../infra/local/seed/seed-practice.js';
import { subscribeNotifications } from '../integration/notifications-socket.js';
import { LOAD_MIX, loadRunCounts, peakPerSecond, planLoad, type LoadOp } from './load-mix.js';
import { latencySummary } from './stats.js';
import { syntheticPatients } from './synthetic-patients.js';
import { PRACTICE_SHAPES, type PracticeShape } from './practice-shape.js';
import { seedPracticeShape } from './seed-practice-shape.js';

/** DynamoDB's throughput limits of one partition (a practice: every item shares its key). */
const PARTITION_READ_UNITS = 3000;
const PARTITION_WRITE_UNITS = 1000;
/**
 * The practice loaded on top of the demo practice at each scale: its patients (as `npm run bench`
 * loads them; its marker is shared), and their notes, conversations and texts (practice-shape.ts).
 */
const SCALES: Record<string, PracticeShape> = PRACTICE_SHAPES;
/** What a kept data folder's notes and texts are, so a later run at the same scale reuses them. */
const SHAPE_MARKER = 'bench-shape.json';
const SEED_MARKER = 'bench-seed.json';
const RUNS_MARKER = 'bench-load-runs.json';
const PRACTICE_PHONE = '+15415550100';
const HOUR_MS = 3_600_000;

interface Options {
  users: number;
  minutes: number;
  scale: string;
  dataDir?: string;
  out?: string;
  maxRequests: number;
  seed: number;
}

function parseArgs(argv: string[]): Options {
  const opts: Options = { users: 50, minutes: 2, scale: 'demo', maxRequests: 100_000, seed: 42 };
  const value = (flag: string) => {
    const at = argv.indexOf(flag);
    if (at < 0) return undefined;
    const v = argv[at + 1];
    if (v === undefined || v.startsWith('--')) throw new Error(`${flag} needs a value`);
    return v;
  };
  const number = (flag: string, max: number) => {
    const v = value(flag);
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`${flag} must be a positive number`);
    return Math.min(n, max);
  };
  opts.users = Math.floor(number('--users', 200) ?? opts.users);
  opts.minutes = number('--minutes', 60) ?? opts.minutes;
  opts.maxRequests = Math.floor(number('--max-requests', 1_000_000) ?? opts.maxRequests);
  opts.seed = Math.floor(number('--seed', 2 ** 31) ?? opts.seed);
  opts.dataDir = value('--data-dir');
  opts.out = value('--out');
  const scale = value('--scale');
  if (scale !== undefined) {
    if (!(scale in SCALES)) throw new Error(`--scale must be one of ${Object.keys(SCALES).join(', ')}`);
    opts.scale = scale;
  }
  return opts;
}

interface Staff {
  index: number;
  token: string;
  userId: string;
  patientId: string;
  noteId: string;
  noteVersion: number;
  conversationId: string;
  appointment: { id: string; updatedAt: string };
  booked: number;
  moved: number;
  /** Requests this member of staff has open: a browser opens at most six to one origin. */
  open: number;
  /**
   * The draft save or move in flight: the web app sends the next only after it answers (it carries
   * the version that answer returns), so a save due meanwhile is folded into the one after it.
   */
  busy: Partial<Record<LoadOp, boolean>>;
}

const BROWSER_CONNECTIONS = 6;

interface Request {
  method: string;
  path: string;
  body?: unknown;
  /** Reads the answer (a new version, an id) for the user's next requests. */
  after?: (body: any) => void; // eslint-disable-line @typescript-eslint/no-explicit-any
}

type Answer = { status: number; body: any; read: number; written: number; indexWritten: number; roundTrips: number; tableMs: number }; // eslint-disable-line @typescript-eslint/no-explicit-any

async function call(apiUrl: string, token: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const res = await fetch(`${apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return {
    status: res.status,
    body: parsed,
    read: Number(res.headers.get(ITEMS_READ_HEADER) ?? 0),
    written: Number(res.headers.get(ITEMS_WRITTEN_HEADER) ?? 0),
    indexWritten: Number(res.headers.get(INDEX_WRITTEN_HEADER) ?? 0),
    roundTrips: Number(res.headers.get(ROUND_TRIPS_HEADER) ?? 0),
    tableMs: Number(res.headers.get(TABLE_MS_HEADER) ?? 0),
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function must(answer: Promise<Answer>, what: string): Promise<any> {
  const a = await answer;
  if (a.status >= 300) throw new Error(`${what} answered ${a.status}: ${JSON.stringify(a.body).slice(0, 200)}`);
  return a.body;
}

async function signIn(runtime: LocalRuntime, email: string): Promise<string> {
  const { cognitoEndpoint, region, userPoolClientId } = runtime.outputs;
  const out = await cognitoAdminClient(cognitoEndpoint, region).send(
    new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: userPoolClientId, AuthParameters: { USERNAME: email, PASSWORD: DEMO_PASSWORD } }),
  );
  return out.AuthenticationResult!.IdToken!;
}

async function inBatches<T, R>(items: readonly T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(work))));
  return out;
}

async function run() {
  const opts = parseArgs(process.argv.slice(2));
  process.env.TIDEWELL_LOG ??= 'silent';
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'tidewell-load-'));
  if (opts.dataDir) mkdirSync(dataDir, { recursive: true });
  const shape = SCALES[opts.scale];
  const patientsWanted = shape.patients;
  const marker = join(dataDir, SEED_MARKER);
  const seeded = existsSync(marker) && (JSON.parse(readFileSync(marker, 'utf8')) as { patients?: number }).patients === patientsWanted;
  console.log(
    `Tidewell load run: ${opts.users} staff for ${opts.minutes} min at scale ${opts.scale} (≤ ${opts.maxRequests} requests), ${cpus().length} cores, ${new Date().toISOString()}`,
  );
  // Loopback only: the runtime listens on 127.0.0.1 and every request of the run goes there.
  const runtime = await startLocalRuntime({ dataDir, port: 0, host: '127.0.0.1', serveWeb: false, seed: true });
  const feeds: Awaited<ReturnType<typeof subscribeNotifications>>[] = [];
  try {
    const { apiUrl, graphqlUrl, userPoolId, cognitoEndpoint, region } = runtime.outputs;
    const practiceId = runtime.endpoints.practiceId;
    const patients = syntheticPatients(patientsWanted);
    if (!seeded) {
      for (let i = 0; i < patients.length; i += 500) await putPatientsBatch(practiceId, patients.slice(i, i + 500));
      if (opts.dataDir) writeFileSync(marker, JSON.stringify({ patients: patientsWanted, seed: 42 }));
      console.log(`  loaded ${patients.length} patients`);
      // The patient index settles after writes (GSI reads are eventually consistent); the run starts after it.
      await new Promise((resolve) => setTimeout(resolve, INDEX_SETTLE_MS));
    } else {
      console.log(`  reusing the ${patients.length} patients already in ${dataDir}`);
    }
    const namePrefixes = [...new Set(patients.map((p) => p.lastName.slice(0, 3).toLowerCase()))];
    const phoneFragments = patients.map((p) => p.phones?.[0]?.number.slice(-7, -3)).filter((f): f is string => !!f);

    // The practice's fixtures: an appointment type, and the patients the staff work on.
    const admin = await signIn(runtime, 'admin@demo.tidewell.local');
    const shapeMarker = join(dataDir, SHAPE_MARKER);
    const shapeWanted = JSON.stringify({ ...shape, seed: 42 });
    if (existsSync(shapeMarker) && readFileSync(shapeMarker, 'utf8') === shapeWanted) {
      console.log(`  reusing the notes, conversations and texts already in ${dataDir}`);
    } else {
      const me = await must(call(apiUrl, admin, 'GET', '/v1/practices/users/me'), 'me');
      console.log(
        `  loading ${shape.notes.toLocaleString('en-US')} notes, ${shape.conversations.toLocaleString('en-US')} conversations and ${shape.texts.toLocaleString('en-US')} texts…`,
      );
      const loaded = await seedPracticeShape(practiceId, patients, shape, { userId: me.userId, name: me.name ?? 'Demo Admin' }, (line) => console.log(line));
      const items = loaded.notes + loaded.texts + loaded.conversations;
      console.log(`  loaded them in ${loaded.seconds.toFixed(0)} s (${(items / loaded.seconds).toFixed(0)} items/s)`);
      if (opts.dataDir) writeFileSync(shapeMarker, shapeWanted);
    }
    const type = await must(
      call(apiUrl, admin, 'POST', '/v1/appointment-types', { name: `Load run ${Date.now().toString(36)}`, durationMinutes: 30 }),
      'appointment type',
    );
    const patientIds = patients.length
      ? patients.slice(0, 1000).map((p) => p.id)
      : ((await must(call(apiUrl, admin, 'GET', '/v1/patients?limit=100&offset=0'), 'patient list')).items as { id: string }[]).map((p) => p.id);

    // N staff in the pool, each with a User item, signed in, a draft open, a conversation and an appointment.
    const slot = runSlotHours(dataDir, opts.users);
    const setupStart = performance.now();
    const admin2 = cognitoAdminClient(cognitoEndpoint, region);
    const now = new Date().toISOString();
    const staff: Staff[] = await inBatches(
      Array.from({ length: opts.users }, (_, i) => i),
      10,
      async (index) => {
        const user = { email: `load-${index}@bench.tidewell.local`, firstName: 'Load', lastName: `Staff${index}`, group: 'provider' as const };
        const sub = await ensurePoolUser(admin2, userPoolId, { ...user, practiceId, password: DEMO_PASSWORD });
        await putIfAbsent(userItem(practiceId, sub, user, now));
        const token = await signIn(runtime, user.email);
        const userId = (await must(call(apiUrl, token, 'GET', '/v1/practices/users/me'), 'me')).userId as string;
        const patientId = patientIds[(index * 37) % patientIds.length];
        const note = await must(call(apiUrl, token, 'POST', '/v2/notes', { noteId: 'new', noteType: 'NOTE', patientId }), 'new draft');
        const phone = `+1503555${String(1000 + index).padStart(4, '0')}`;
        const conversation = await must(
          call(apiUrl, token, 'POST', '/v1/messaging/conversations', { patientPhoneNumber: phone, practicePhoneNumber: PRACTICE_PHONE }),
          'conversation',
        );
        const booked = await must(
          call(
            apiUrl,
            token,
            'POST',
            '/v1/appointments',
            booking(patientId, type.ident, userId, new Date(Date.UTC(2029, 0, 1, 14) + (index * 1000 + slot) * HOUR_MS).toISOString()),
          ),
          'appointment',
        );
        return {
          index,
          token,
          userId,
          patientId,
          noteId: note.noteId,
          noteVersion: 1,
          conversationId: conversation.conversation.conversationId,
          appointment: { id: booked.appointmentId, updatedAt: booked.updatedAt },
          booked: 0,
          moved: 0,
          open: 0,
          busy: {},
        };
      },
    );
    for (const s of staff) feeds.push(await subscribeNotifications(graphqlUrl, s.token, practiceId));
    console.log(
      `  ${staff.length} staff signed in with a draft, a conversation and an appointment each, and subscribed, in ${((performance.now() - setupStart) / 1000).toFixed(1)} s`,
    );

    const pick = <T>(list: readonly T[], i: number, fallback: T) => (list.length ? list[(i * 7919) % list.length] : fallback);
    const icd10 = ['diab', 'hypert', 'E11', 'asthma', 'J45', 'migraine', 'low back', 'I10'];
    const drugs = ['amox', 'lisin', 'metformin', 'atorva', 'sertraline', 'omeprazole'];
    const sections = ['allergies', 'medications', 'diagnoses', 'vaccines', 'general', 'surgeries'];
    const notificationsSent = new Map<string, number>();
    let counter = 0;

    /** The request of one planned operation, for one member of staff. */
    const requestOf = (op: LoadOp, s: Staff): Request => {
      const n = counter++;
      switch (op) {
        case 'draft save':
          return {
            method: 'POST',
            path: `/v1/notes/${s.noteId}`,
            // The web's autosave body: the version it last saw, the text, and the patient the note is for.
            body: {
              noteVersion: s.noteVersion,
              data: { text: `Visit note ${n}`, formattedText: `<p>Visit note ${n}: ${'subjective and plan '.repeat(20)}</p>` },
              patientId: s.patientId,
            },
            after: (b) => (s.noteVersion = typeof b?.noteVersion === 'number' ? b.noteVersion : s.noteVersion + 1),
          };
        case 'unread notifications count':
          return { method: 'GET', path: '/v1/notifications/unread-count' };
        case 'unread conversations count':
          return { method: 'GET', path: '/v1/messaging/conversations/unread-count' };
        case 'open tasks count':
          return { method: 'GET', path: `/v1/tasks?assigned=${s.userId}&status=UNREAD,UPDATED&limit=1` };
        case 'phone calls count':
          return { method: 'GET', path: '/v1/phone-calls/count' };
        case 'open chart (patient)':
          return { method: 'GET', path: `/v1/patients/${pick(patientIds, n, s.patientId)}` };
        case 'chart section':
          return { method: 'GET', path: `/v1/patients/${pick(patientIds, n, s.patientId)}/${sections[n % sections.length]}` };
        case 'notes first page':
          return { method: 'GET', path: `/v2/notes?patientId=${s.patientId}&offset=0&limit=20` };
        case 'notes next page':
          return { method: 'GET', path: `/v2/notes?patientId=${s.patientId}&offset=20&limit=20` };
        case 'patient search (name)':
          return { method: 'GET', path: `/v1/patients?q=${encodeURIComponent(pick(namePrefixes, n, 'smi'))}&limit=100&offset=0` };
        case 'patient search (phone fragment)':
          return { method: 'GET', path: `/v1/patients?q=${pick(phoneFragments, n, '5550')}&limit=100&offset=0` };
        case 'ICD-10 search':
          return { method: 'GET', path: `/v1/icd-10-codes?search=${encodeURIComponent(icd10[n % icd10.length])}` };
        case 'drug search':
          return { method: 'GET', path: `/v1/nationaldrugcodes/search?search=${drugs[n % drugs.length]}` };
        case 'send text':
          return { method: 'POST', path: `/v1/messaging/conversations/${s.conversationId}/messages`, body: { text: `Your appointment is confirmed (${n})` } };
        case 'read texts':
          return { method: 'GET', path: `/v1/messaging/conversations/${s.conversationId}/messages` };
        case 'list conversations':
          return { method: 'GET', path: '/v1/messaging/conversations?filter=all&offset=0&limit=25' };
        case 'book appointment': {
          // Each member of staff books in their own hours (their own provider calendar), so no booking clashes.
          const start = new Date(Date.UTC(2030, 0, 1, 14) + (s.index * 1000 + slot + ++s.booked) * HOUR_MS).toISOString();
          return { method: 'POST', path: '/v1/appointments', body: booking(s.patientId, type.ident, s.userId, start) };
        }
        case 'move appointment': {
          const start = new Date(Date.UTC(2029, 0, 1, 14) + (s.index * 1000 + slot + ++s.moved) * HOUR_MS).toISOString();
          return {
            method: 'PUT',
            path: `/v1/appointments/${s.appointment.id}`,
            body: { ...booking(s.patientId, type.ident, s.userId, start), updatedAt: s.appointment.updatedAt },
            after: (b) => (s.appointment.updatedAt = b?.updatedAt ?? s.appointment.updatedAt),
          };
        }
        case 'create notification':
          return {
            method: 'POST',
            path: '/v1/notifications',
            body: { notificationType: 'LAB_RESULTS', text: `Load result ${n}` },
          };
      }
    };

    // The bare GetItem baseline: its own client (not counted by the meter), on the same engine, all run long.
    const bare = DynamoDBDocumentClient.from(
      new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT, region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
    );
    const baseline: number[] = [];
    const durationMs = opts.minutes * 60_000;
    const plan = planLoad({ users: staff.length, durationMs, maxRequests: opts.maxRequests, seed: opts.seed });
    const results = new Map<
      LoadOp,
      {
        latencies: number[];
        /** Per request, the time with a table call out, and the rest of its latency (the code, the HTTP layers, queueing). */
        tableMs: number[];
        restMs: number[];
        errors: number;
        read: number;
        written: number;
        indexWritten: number;
        roundTrips: number;
        firstError?: string;
      }
    >();
    for (const op of Object.keys(LOAD_MIX) as LoadOp[])
      results.set(op, { latencies: [], tableMs: [], restMs: [], errors: 0, read: 0, written: 0, indexWritten: 0, roundTrips: 0 });
    const readsBySecond = new Map<number, number>();
    const writesBySecond = new Map<number, number>();
    const processReads = new Map<number, number>();
    const processWrites = new Map<number, number>();
    const processIndexWrites = new Map<number, number>();
    const add = (m: Map<number, number>, k: number, v: number) => m.set(k, (m.get(k) ?? 0) + v);

    console.log(`  running ${plan.length} planned requests over ${opts.minutes} min…`);
    const start = performance.now();
    let running = true;
    const baselineLoop = (async () => {
      while (running) {
        const t0 = performance.now();
        await bare.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: { practiceId, sk: 'PATIENTS#INDEX_VERSION' } }));
        baseline.push(performance.now() - t0);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    // The bare write baselines: the local engine takes one write at a time (a transaction's checks
    // and writes must not interleave), so a write waits for every write ahead of it, however
    // little it writes. A small Put and a transaction of four small Puts (the shape of a draft
    // save's notification version) show that wait apart from the handlers' own work.
    const barePuts: number[] = [];
    const bareTransactions: number[] = [];
    const probeItem = (n: number) => ({ practiceId, sk: `BENCH#WRITE_PROBE#${n}`, at: new Date().toISOString() });
    const writeProbeLoop = (async () => {
      while (running) {
        const t0 = performance.now();
        await bare.send(new PutCommand({ TableName: process.env.TABLE_NAME, Item: probeItem(0) }));
        const t1 = performance.now();
        barePuts.push(t1 - t0);
        await bare.send(
          new TransactWriteCommand({ TransactItems: [1, 2, 3, 4].map((n) => ({ Put: { TableName: process.env.TABLE_NAME, Item: probeItem(n) } })) }),
        );
        bareTransactions.push(performance.now() - t1);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    })();
    let last = meterTotals();
    const sampler = setInterval(() => {
      const second = Math.floor((performance.now() - start) / 1000);
      const totals = meterTotals();
      processReads.set(second, totals.read - last.read);
      processWrites.set(second, totals.written - last.written);
      processIndexWrites.set(second, totals.indexWritten - last.indexWritten);
      last = totals;
    }, 1000);

    const inFlight = new Set<Promise<void>>();
    // Bounded in time as well as in requests: what a stalled engine still holds back is not sent.
    const stopAt = start + durationMs + 30_000;
    let notSent = 0;
    let delayed = 0;
    let folded = 0;
    for (const planned of plan) {
      const wait = start + planned.at - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      // A bound on open requests, so a stalled engine slows the run instead of piling up sockets.
      while (inFlight.size >= 256 && performance.now() < stopAt) await Promise.race(inFlight);
      if (performance.now() >= stopAt) {
        notSent++;
        continue;
      }
      const s = staff[planned.user];
      const result = results.get(planned.op)!;
      const chainedOp = planned.op === 'draft save' || planned.op === 'move appointment';
      if (chainedOp && s.busy[planned.op]) {
        folded++;
        continue;
      }
      if (chainedOp) s.busy[planned.op] = true;
      const send = async () => {
        if (s.open >= BROWSER_CONNECTIONS) delayed++;
        while (s.open >= BROWSER_CONNECTIONS) await Promise.race(inFlight);
        s.open++;
        const req = requestOf(planned.op, s);
        const t0 = performance.now();
        try {
          const a = await call(apiUrl, s.token, req.method, req.path, req.body);
          const t1 = performance.now();
          result.latencies.push(t1 - t0);
          result.tableMs.push(a.tableMs);
          result.restMs.push(t1 - t0 - a.tableMs);
          result.read += a.read;
          result.written += a.written;
          result.indexWritten += a.indexWritten;
          result.roundTrips += a.roundTrips;
          const second = Math.floor((t1 - start) / 1000);
          add(readsBySecond, second, a.read);
          add(writesBySecond, second, a.written);
          if (a.status >= 400) {
            result.errors++;
            result.firstError ??= `${req.method} ${req.path} → ${a.status} ${JSON.stringify(a.body).slice(0, 160)}`;
          } else {
            req.after?.(a.body);
            if (planned.op === 'create notification' && a.body?.notificationId) notificationsSent.set(a.body.notificationId, t0);
          }
        } catch (error) {
          result.errors++;
          result.firstError ??= `${req.method} ${req.path}: ${(error as Error).message}`;
        } finally {
          s.open--;
          if (chainedOp) s.busy[planned.op] = false;
        }
      };
      const p: Promise<void> = send().finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
    await Promise.all(inFlight);
    const elapsed = (performance.now() - start) / 1000;
    running = false;
    clearInterval(sampler);
    await baselineLoop;
    await writeProbeLoop;

    // Deliveries still on their way when the last request answered: wait for them, at most 10 s.
    const expected = notificationsSent.size * feeds.length;
    const delivered = () =>
      feeds.reduce(
        (n, f) => n + f.received.filter((r) => r.field === 'onCreateNotification' && notificationsSent.has(String(r.notification.notificationId))).length,
        0,
      );
    const drainUntil = performance.now() + 10_000;
    while (delivered() < expected && performance.now() < drainUntil) await new Promise((resolve) => setTimeout(resolve, 100));
    const feedLatencies = feeds.flatMap((f) =>
      f.received
        .filter((r) => r.field === 'onCreateNotification' && notificationsSent.has(String(r.notification.notificationId)))
        .map((r) => r.at - notificationsSent.get(String(r.notification.notificationId))!),
    );

    // The table.
    const base = latencySummary(baseline);
    const pad = (v: string, n: number) => v.padStart(n);
    const lines: string[] = [];
    lines.push(
      `${'operation'.padEnd(32)}${pad('n', 6)}${pad('p50 ms', 9)}${pad('p95 ms', 9)}${pad('p99 ms', 9)}${pad('errors', 8)}${pad('p95/GetItem', 13)}${pad('reads/req', 11)}${pad('WCU/req', 9)}${pad('+index', 8)}${pad('trips', 7)}${pad('table p95', 11)}${pad('rest p95', 10)}`,
    );
    let total = 0;
    let errors = 0;
    for (const [op, r] of results) {
      const sum = latencySummary(r.latencies);
      total += sum.count;
      errors += r.errors;
      if (!sum.count) continue;
      lines.push(
        `${op.padEnd(32)}${pad(String(sum.count), 6)}${pad(sum.p50.toFixed(1), 9)}${pad(sum.p95.toFixed(1), 9)}${pad(sum.p99.toFixed(1), 9)}${pad(String(r.errors), 8)}${pad(`${(sum.p95 / base.p95).toFixed(1)}x`, 13)}${pad((r.read / sum.count).toFixed(1), 11)}${pad((r.written / sum.count).toFixed(1), 9)}${pad((r.indexWritten / sum.count).toFixed(1), 8)}${pad((r.roundTrips / sum.count).toFixed(1), 7)}${pad(latencySummary(r.tableMs).p95.toFixed(1), 11)}${pad(latencySummary(r.restMs).p95.toFixed(1), 10)}`,
      );
    }
    console.log(`\n${lines.join('\n')}`);
    console.log(
      "  table p95: the request's time with a table call out (calls side by side once: the SDK, the local endpoint, the engine); rest p95: its latency less that (the code, the HTTP layers, queueing on the process)",
    );
    console.log(
      `\n  ${total} requests in ${elapsed.toFixed(1)} s: ${(total / elapsed).toFixed(1)} requests/s, ${errors} errors (planned ${plan.length}; ${delayed} waited for one of the user's ${BROWSER_CONNECTIONS} connections; ${folded} draft saves or moves due while the last was unanswered, folded into the next; ${notSent} not sent by the time bound)`,
    );
    console.log(`  bare GetItem on the same engine during the run: p50 ${base.p50.toFixed(2)} ms, p95 ${base.p95.toFixed(2)} ms (${base.count} reads)`);
    for (const [what, latencies] of [
      ['PutItem', barePuts],
      ['TransactWriteItems of 4 Puts', bareTransactions],
    ] as const) {
      const w = latencySummary(latencies);
      console.log(
        `  bare ${what} on the same engine, queued with the run's writes: p50 ${w.p50.toFixed(2)} ms, p95 ${w.p95.toFixed(2)} ms (${w.count} writes)`,
      );
    }
    const feed = latencySummary(feedLatencies);
    console.log(
      `  notification write → subscriber: p50 ${feed.p50.toFixed(1)} ms, p95 ${feed.p95.toFixed(1)} ms, p99 ${feed.p99.toFixed(1)} ms over ${feed.count} of ${expected} deliveries (${notificationsSent.size} notifications × ${feeds.length} subscribers)`,
    );
    const unitLine = (what: string, reads: Map<number, number>, writes: Map<number, number>) => {
      const r = peakPerSecond(reads);
      const w = peakPerSecond(writes);
      const seconds = Math.max(1, reads.size);
      const mean = (m: Map<number, number>) => [...m.values()].reduce((a, b) => a + b, 0) / seconds;
      console.log(
        `  ${what}: reads peak ${r.value}/s (mean ${mean(reads).toFixed(0)}/s) = ${((100 * r.value) / PARTITION_READ_UNITS).toFixed(1)}% of ${PARTITION_READ_UNITS} RCU; write units peak ${w.value}/s (mean ${mean(writes).toFixed(0)}/s) = ${((100 * w.value) / PARTITION_WRITE_UNITS).toFixed(1)}% of ${PARTITION_WRITE_UNITS} WCU`,
      );
    };
    console.log(
      `  one practice's partition (items read counted as read units, conservative: DynamoDB bills a Query by 4 KB, eventually consistent reads half):`,
    );
    unitLine('API requests (response headers)', readsBySecond, writesBySecond);
    unitLine('whole process (requests, stream consumers, jobs)', processReads, processWrites);
    // An index spreads its entries over partitions of its own keys (a patient's notes, a
    // notification type and status): all of them together bound the busiest one from above.
    const indexPeak = peakPerSecond(processIndexWrites);
    console.log(
      `  the indexes' writes as the data layer sees them (read-meter.ts), every index partition together: peak ${indexPeak.value}/s = ${((100 * indexPeak.value) / PARTITION_WRITE_UNITS).toFixed(1)}% of one partition's ${PARTITION_WRITE_UNITS} WCU`,
    );
    for (const [op, r] of results) if (r.firstError) console.log(`  first error of ${op}: ${r.firstError}`);
    if (opts.out) {
      // The month is billed for the indexes' writes too; the partition figures above are the table's.
      const counts = Object.fromEntries([...results].map(([op, r]) => [op, { count: r.latencies.length, read: r.read, written: r.written + r.indexWritten }]));
      writeFileSync(opts.out, `${JSON.stringify(loadRunCounts(elapsed / 60, staff.length, counts), null, 2)}\n`);
      console.log(`  counted requests per route kind written to ${opts.out} (npm run cost -- --requests ${opts.out})`);
    }
  } finally {
    for (const f of feeds) f.close();
    await runtime.stop();
    if (opts.dataDir) console.log(`  data kept in ${dataDir}`);
    else rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Where this run's bookings start within each member of staff's hours. A kept --data-dir still
 * holds the earlier runs' appointments, so each run takes the next 50 hours of the staff member's
 * 1,000 (room for 49 bookings or moves each), and after 20 runs the next block of every staff member's hours.
 */
function runSlotHours(dataDir: string, users: number): number {
  const file = join(dataDir, RUNS_MARKER);
  const runs = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { runs: number }).runs : 0;
  writeFileSync(file, JSON.stringify({ runs: runs + 1 }));
  return (runs % 20) * 50 + Math.floor(runs / 20) * users * 1000;
}

function booking(patientId: string, appointmentTypeId: string, providerId: string, start: string) {
  return { patientId, appointmentTypeId, providerId, bookingLocationId: null, visitType: 'virtual', durationMinutes: 30, start };
}

run().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
