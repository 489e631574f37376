/**
 * Patient list and search through the local API at the budget's load, and where the time of one
 * request goes: each step a request takes (token check, user record check, index version read, page read, ranking,
 * audit write, the local HTTP layer) is run on its own at the same concurrency in the same
 * process, and a bare GetItem on the same engine shows how much of a table read is dynalite's own.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Context } from 'aws-lambda';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { authorizeClaims } from '../../functions/lib/auth/authorize.js';
import { writeAudit } from '../../functions/lib/audit/audit-repository.js';
import { documentClient } from '../../functions/lib/table/client.js';
import { tableName } from '../../functions/lib/table/definition.js';
import { handler as patientsHandler } from '../../functions/patients/handler.js';
import { patientIndex } from '../../functions/data/patients/patient-index-cache.js';
import { pagePatients } from '../../functions/patients/patient-page.js';
import { readPatientIndexVersion } from '../../functions/data/patients/patient-repository.js';
import { rankPrepared } from '../../shared/patients/patient-search.js';
import { buildHttpApiEvent } from '../../infra/local/api/http-api-event.js';
import { jwtAuthorizer, type AuthorizerResult } from '../../infra/local/api/jwt-authorizer.js';
import type { LocalRuntime } from '../../infra/local/runtime.js';
import { latencySummary, type LatencySummary } from './stats.js';

export interface ApiBudgetOptions {
  runtime: LocalRuntime;
  token: string;
  /** Search terms the requests cycle through (e.g. 3-letter last-name prefixes). */
  searchTerms: readonly string[];
  requests: number;
  concurrency: number;
  deadline: number;
}

export interface ApiBudgetResult {
  list: LatencySummary;
  search: LatencySummary;
  /** Each step on its own, same concurrency: p50/p95 in ms. */
  steps: (LatencySummary & { step: string })[];
  /** dynalite GetItem (index version, consistent) over a bare GetItem of a small item, p50 ratio. */
  engineRatio: number;
}

/** Runs `work(i)` `count` times with `concurrency` workers; latency of each call. */
export async function measure(count: number, concurrency: number, deadline: number, work: (i: number) => Promise<unknown>): Promise<LatencySummary> {
  for (let w = 0; w < Math.min(5, count); w++) await work(w);
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < count && Date.now() < deadline) {
      const i = next++;
      const t0 = performance.now();
      await work(i);
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return latencySummary(latencies, (performance.now() - started) / 1000);
}

/**
 * The load generator of the list/search figures, in a thread of its own: in the bench process the
 * local API, its handlers and the table engine share one event loop, and a client on that loop
 * would be timed as part of the API. Plain JavaScript so the thread needs no TypeScript loader.
 */
const HTTP_LOAD_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { urls, concurrency, authorization, deadline } = workerData;
(async () => {
  const get = async (url) => {
    const res = await fetch(url, { headers: { authorization } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error('GET ' + url + ' answered ' + res.status);
  };
  // Warm-up outside the figures: a few requests in a row, then one round at full concurrency, so
  // the thread's connections are open and the handlers compiled before the steady state is timed
  // (the cold first list is reported on its own).
  for (const url of urls.slice(0, 5)) await get(url);
  await Promise.all(urls.slice(0, concurrency).map(get));
  const latencies = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < urls.length && Date.now() < deadline) {
      const url = urls[next++];
      const t0 = performance.now();
      await get(url);
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  parentPort.postMessage({ latencies, seconds: (performance.now() - started) / 1000 });
})().catch((error) => parentPort.postMessage({ error: String(error) }));
`;

/** GETs every url from a separate thread, `concurrency` at a time; latency of each. */
export function measureHttpFromThread(urls: readonly string[], concurrency: number, token: string, deadline: number): Promise<LatencySummary> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(HTTP_LOAD_WORKER, { eval: true, workerData: { urls, concurrency, authorization: `Bearer ${token}`, deadline } });
    worker.once('message', (result: { latencies?: number[]; seconds?: number; error?: string }) => {
      void worker.terminate();
      if (result.error) reject(new Error(result.error));
      else resolve(latencySummary(result.latencies!, result.seconds));
    });
    worker.once('error', reject);
  });
}

const lambdaContext = { awsRequestId: 'bench', getRemainingTimeInMillis: () => 30_000 } as unknown as Context;

export async function measureApiBudget(opts: ApiBudgetOptions): Promise<ApiBudgetResult> {
  const { runtime, token, requests, concurrency, deadline } = opts;
  const { apiUrl, cognitoEndpoint, userPoolId, userPoolClientId } = runtime.outputs;
  const practiceId = runtime.endpoints.practiceId;
  const term = (i: number) => opts.searchTerms[(i * 7919) % opts.searchTerms.length];
  const get = async (path: string, authorization = `Bearer ${token}`) => {
    const res = await fetch(`${apiUrl}${path}`, { headers: authorization ? { authorization } : {} });
    await res.arrayBuffer();
    return res.status;
  };

  const list = await measureHttpFromThread(
    Array.from({ length: requests }, () => `${apiUrl}/v1/patients?limit=100&offset=0`),
    concurrency,
    token,
    deadline,
  );
  const search = await measureHttpFromThread(
    Array.from({ length: requests }, (_, i) => `${apiUrl}/v1/patients?q=${encodeURIComponent(term(i))}`),
    concurrency,
    token,
    deadline,
  );

  // The same checks the local API makes, with their own JWKS cache.
  const authorize = jwtAuthorizer({
    issuer: `${cognitoEndpoint}/${userPoolId}`,
    audience: userPoolClientId,
    jwksUrl: `${cognitoEndpoint}/${userPoolId}/.well-known/jwks.json`,
  });
  const authorizer = (await authorize(`Bearer ${token}`)) as AuthorizerResult;
  if (!authorizer) throw new Error('The bench token does not pass the local authorizer');
  const auth = await authorizeClaims(authorizer.claims, practiceId);
  const index = await patientIndex(practiceId, 'active');
  const listEvent = (rawQueryString: string) =>
    buildHttpApiEvent(
      {
        method: 'GET',
        rawPath: '/v1/patients',
        rawQueryString,
        headers: {},
        body: Buffer.alloc(0),
        sourceIp: '127.0.0.1',
        domainName: 'localhost',
        protocol: 'HTTP/1.1',
      },
      { routeKey: 'GET /v1/patients', pathParameters: {}, authorizer, requestId: 'bench', now: new Date(), accountId: '000000000000', apiId: 'bench' },
    );

  const steps: [string, (i: number) => Promise<unknown>][] = [
    ['token check (JWT signature, JWKS cached)', () => authorize(`Bearer ${token}`)],
    ['user record check (cached per instance)', () => authorizeClaims(authorizer.claims, practiceId)],
    ['index version read (consistent GetItem)', () => readPatientIndexVersion(practiceId)],
    ['bare GetItem, same engine', () => documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: 'PATIENTS#INDEX_VERSION' } }))],
    ['page read (cached index, 100 rows)', async () => pagePatients(practiceId, (await patientIndex(practiceId, 'active')).entries, true, 0, 100)],
    ['search ranking (in memory)', async (i) => rankPrepared(term(i), index.entries)],
    ['audit write (PutItem)', () => writeAudit(auth, { action: 'list', entity: 'patient', count: 0 })],
    [
      'list handler in process (no HTTP)',
      () => (patientsHandler as (e: unknown, c: Context) => Promise<unknown>)(listEvent('limit=100&offset=0'), lambdaContext),
    ],
    ['local HTTP layer (401, no token)', () => get('/v1/patients', '')],
  ];
  const results: (LatencySummary & { step: string })[] = [];
  for (const [step, work] of steps) {
    if (Date.now() > deadline) break;
    results.push({ step, ...(await measure(requests, concurrency, deadline, work)) });
  }
  const p50 = (name: string) => results.find((r) => r.step.startsWith(name))?.p50 ?? NaN;
  return { list, search, steps: results, engineRatio: p50('index version read') / p50('bare GetItem') };
}
