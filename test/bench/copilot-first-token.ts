/**
 * `npx tsx test/bench/copilot-first-token.ts [--samples 30]`
 *
 * Copilot first token locally: the demo provider asks about a demo patient through the ai group's
 * function URL (the local stand-in of the RESPONSE_STREAM URL), and each sample runs from sending
 * the request until the first token event arrives, and until the stored reply (`done`). The
 * answer comes from TIDEWELL_AI_BASE_URL/TIDEWELL_AI_MODEL when set (e.g. a local Ollama), otherwise
 * from the local rule-based assistant, so the figure is the product's own path (token check,
 * access check, chart read and its audit, the conversation writes, the model client, SSE) plus
 * that endpoint's time. Budget: p95 first token ≤ 1 s with the local assistant.
 */
import { InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { decodeStreamEvents } from '../../shared/ai/copilot-schema.js';
import { cognitoAdminClient } from '../../infra/local/cognito/provision-pool.js';
import { startLocalRuntime, type LocalRuntime } from '../../infra/local/runtime.js';
import { DEMO_PASSWORD } from '../../infra/local/seed/demo-users.js';
import { latencySummary } from './stats.js';

export const COPILOT_FIRST_TOKEN_BUDGET_P95_MS = 1000;

async function signIn(runtime: LocalRuntime, email: string): Promise<string> {
  const { cognitoEndpoint, region, userPoolClientId } = runtime.outputs;
  const out = await cognitoAdminClient(cognitoEndpoint, region).send(
    new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: userPoolClientId, AuthParameters: { USERNAME: email, PASSWORD: DEMO_PASSWORD } }),
  );
  return out.AuthenticationResult!.IdToken!;
}

export interface CopilotFirstToken {
  firstToken: { p50Ms: number; p95Ms: number };
  done: { p50Ms: number; p95Ms: number };
  samples: number;
  model: string;
}

export async function measureCopilotFirstToken(options: { samples?: number } = {}): Promise<CopilotFirstToken> {
  const samples = Math.max(1, Math.min(options.samples ?? 30, 500));
  process.env.TIDEWELL_LOG ??= 'silent';
  process.env.TIDEWELL_AI_LOCAL_ASSISTANT ??= '1';
  const dataDir = mkdtempSync(join(tmpdir(), 'tidewell-copilot-bench-'));
  const runtime = await startLocalRuntime({ dataDir, port: 0, serveWeb: false, seed: true });
  try {
    const token = await signIn(runtime, 'provider@demo.tidewell.local');
    const url = `${runtime.outputs.copilotStreamUrl}v1/ai/conversation/stream`;
    const first: number[] = [];
    const done: number[] = [];
    let model = '';
    // One unmeasured request loads the handler module, as a warm Lambda would have.
    for (let i = -1; i < samples; i++) {
      const started = performance.now();
      const response = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          conversationId: `bench-${Date.now().toString(36)}-${i + 1}`,
          patientId: 'pat-0003',
          entryPointPath: '/patients/pat-0003',
          messages: [{ role: 'user', content: 'Which allergies and medications?' }],
        }),
      });
      if (!response.ok || !response.body) throw new Error(`stream answered HTTP ${response.status}: ${await response.text()}`);
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      let firstAt: number | undefined;
      let doneAt: number | undefined;
      for (;;) {
        const { value, done: ended } = await reader.read();
        if (ended) break;
        buffer += decoder.decode(value, { stream: true });
        const decoded = decodeStreamEvents(buffer);
        buffer = decoded.rest;
        for (const e of decoded.events) {
          if (e.type === 'start') model = e.model.name;
          if (e.type === 'token' && firstAt === undefined) firstAt = performance.now() - started;
          if (e.type === 'done') doneAt = performance.now() - started;
          if (e.type === 'error') throw new Error(e.message);
        }
      }
      if (firstAt === undefined || doneAt === undefined) throw new Error('the stream ended without a reply');
      if (i >= 0) {
        first.push(firstAt);
        done.push(doneAt);
      }
    }
    const f = latencySummary(first);
    const d = latencySummary(done);
    return { firstToken: { p50Ms: f.p50, p95Ms: f.p95 }, done: { p50Ms: d.p50, p95Ms: d.p95 }, samples: f.count, model };
  } finally {
    await runtime.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const at = process.argv.indexOf('--samples');
  const samples = at > 0 ? Number(process.argv[at + 1]) : 30;
  const r = await measureCopilotFirstToken({ samples: Number.isFinite(samples) && samples > 0 ? samples : 30 });
  const verdict = r.firstToken.p95Ms <= COPILOT_FIRST_TOKEN_BUDGET_P95_MS ? 'within' : 'OVER';
  console.log(
    `Copilot first token (local, ${r.model}): p50 ${r.firstToken.p50Ms.toFixed(1)} ms, p95 ${r.firstToken.p95Ms.toFixed(1)} ms over ${r.samples} questions; ${verdict} the budget (p95 ≤ ${COPILOT_FIRST_TOKEN_BUDGET_P95_MS} ms); whole reply stored p50 ${r.done.p50Ms.toFixed(1)} ms, p95 ${r.done.p95Ms.toFixed(1)} ms`,
  );
  process.exit(0);
}
