/**
 * `npx tsx test/bench/stream-latency.ts [--samples 100]`
 *
 * Write → subscriber latency of live notifications on the local runtime: the demo provider
 * creates a notification (then updates it) through the HTTP API while the demo employee listens
 * on the AppSync realtime socket; each sample runs from sending the request until the event
 * arrives, through the table's change stream and the notification publisher. Budget: p95 ≤ 1 s.
 */
import { InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { inboundNotificationId } from '../../functions/messaging/sms-inbound.js';
import { cognitoAdminClient } from '../../infra/local/cognito/provision-pool.js';
import { startLocalRuntime, type LocalRuntime } from '../../infra/local/runtime.js';
import { DEMO_PASSWORD } from '../../infra/local/seed/demo-users.js';
import { subscribeNotifications } from '../integration/notifications-socket.js';
import { latencySummary } from './stats.js';

export const STREAM_LATENCY_BUDGET_P95_MS = 1000;

export interface StreamLatency {
  p50Ms: number;
  p95Ms: number;
  /** Measured events (creates and updates). */
  samples: number;
  /** Inbound text (POST /local/carrier/sms, the SNS path's handler) → its SMS notification at the subscriber. */
  inbound: { p50Ms: number; p95Ms: number; samples: number };
}

async function signIn(runtime: LocalRuntime, email: string): Promise<string> {
  const { cognitoEndpoint, region, userPoolClientId } = runtime.outputs;
  const out = await cognitoAdminClient(cognitoEndpoint, region).send(
    new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: userPoolClientId, AuthParameters: { USERNAME: email, PASSWORD: DEMO_PASSWORD } }),
  );
  return out.AuthenticationResult!.IdToken!;
}

/** Starts its own runtime on a temporary folder, measures `notifications` create+update pairs, and stops it. */
export async function measureStreamLatency(options: { notifications?: number; texts?: number } = {}): Promise<StreamLatency> {
  const count = Math.max(1, Math.min(options.notifications ?? 50, 1000));
  const texts = Math.max(1, Math.min(options.texts ?? 50, 1000));
  process.env.TIDEWELL_LOG ??= 'silent';
  const dataDir = mkdtempSync(join(tmpdir(), 'tidewell-stream-bench-'));
  const runtime = await startLocalRuntime({ dataDir, port: 0, serveWeb: false, seed: true });
  try {
    const [provider, employee] = await Promise.all([signIn(runtime, 'provider@demo.tidewell.local'), signIn(runtime, 'employee@demo.tidewell.local')]);
    const feed = await subscribeNotifications(runtime.outputs.graphqlUrl, employee, runtime.endpoints.practiceId);
    const send = async (method: string, path: string, body: unknown) => {
      const response = await fetch(`${runtime.outputs.apiUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${provider}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}`);
      return (await response.json()) as { notificationId: string };
    };
    const latencies: number[] = [];
    const inbound: number[] = [];
    try {
      for (let i = 0; i < count; i++) {
        let start = performance.now();
        const { notificationId } = await send('POST', '/v1/notifications', { notificationType: 'LAB_RESULTS', text: `Bench result ${i}` });
        latencies.push((await feed.next('onCreateNotification', notificationId, 1, 10_000)).at - start);
        start = performance.now();
        await send('PUT', `/v1/notifications/${notificationId}`, { notificationStatus: 'READ' });
        latencies.push((await feed.next('onUpdateNotification', notificationId, 2, 10_000)).at - start);
      }
      // A patient phone texts the practice through the sandbox carrier, as the SMS topic would deliver it.
      for (let i = 0; i < texts; i++) {
        const start = performance.now();
        const response = await fetch(`${runtime.outputs.webUrl}/local/carrier/sms`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ from: `+1971555${String(1000 + (i % 9000)).padStart(4, '0')}`, to: '+15415550100', text: `Bench reply ${i}` }),
        });
        if (response.status !== 202) throw new Error(`POST /local/carrier/sms answered ${response.status}`);
        const { inboundMessageId } = (await response.json()) as { inboundMessageId: string };
        inbound.push((await feed.next('onCreateNotification', inboundNotificationId(inboundMessageId), 1, 10_000)).at - start);
      }
    } finally {
      feed.close();
    }
    const summary = latencySummary(latencies);
    const texted = latencySummary(inbound);
    return { p50Ms: summary.p50, p95Ms: summary.p95, samples: summary.count, inbound: { p50Ms: texted.p50, p95Ms: texted.p95, samples: texted.count } };
  } finally {
    await runtime.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const at = process.argv.indexOf('--samples');
  const samples = at > 0 ? Number(process.argv[at + 1]) : 100;
  const result = await measureStreamLatency({ notifications: Math.ceil((Number.isFinite(samples) && samples > 0 ? samples : 100) / 2) });
  const verdict = result.p95Ms <= STREAM_LATENCY_BUDGET_P95_MS ? 'within' : 'OVER';
  console.log(
    `notification write → subscriber (local): p50 ${result.p50Ms.toFixed(1)} ms, p95 ${result.p95Ms.toFixed(1)} ms over ${result.samples} events; ${verdict} the budget (p95 ≤ ${STREAM_LATENCY_BUDGET_P95_MS} ms)`,
  );
  console.log(
    `inbound text → subscriber (local sandbox carrier): p50 ${result.inbound.p50Ms.toFixed(1)} ms, p95 ${result.inbound.p95Ms.toFixed(1)} ms over ${result.inbound.samples} texts; ${result.inbound.p95Ms <= STREAM_LATENCY_BUDGET_P95_MS ? 'within' : 'OVER'} the budget (p95 ≤ ${STREAM_LATENCY_BUDGET_P95_MS} ms)`,
  );
  process.exit(0);
}
