import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COPILOT_MESSAGES, decodeStreamEvents, type CopilotStreamEvent } from '../../shared/ai/copilot-schema.js';
import { cognitoAdminClient, ensurePoolUser } from '../../infra/local/cognito/provision-pool.js';
import type { LocalRuntime } from '../../infra/local/runtime.js';
import { DEMO_PASSWORD } from '../../infra/local/seed/demo-users.js';
import { putIfAbsentIn, userItem } from '../../infra/local/seed/seed-practice.js';
import { callApi, restartableRuntime, signInAs } from '../support/restartable-runtime.js';

/**
 * The Copilot on a runtime of its own, so the test decides whether the practice has a model: none
 * first, then a small OpenAI-compatible server started here that streams a reply built from the
 * request (the instructions' chart summary and the question), through the real client code.
 */
const runtime = restartableRuntime('tidewell-copilot-');
let rt: LocalRuntime;
let provider: string;
let employee: string;
let patientId: string;
const modelRequests: { messages: { role: string; content: string }[]; stream: boolean }[] = [];
let model: Server;
let modelUrl: string;
const TOKEN_DELAY_MS = 40;

function startModel(): Promise<void> {
  model = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', async () => {
      const body = JSON.parse(raw) as (typeof modelRequests)[number];
      modelRequests.push(body);
      const system = body.messages[0].content;
      const question = body.messages[body.messages.length - 1].content;
      if (question === 'make the model fail') return void res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"overloaded"}}');
      const facts = system.split('\n').filter((l) => /^(Patient|Allergies):/.test(l));
      const reply = `${facts.join(' ') || 'No patient.'} Answer to: ${question}`;
      if (!body.stream)
        return void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: reply } }] }));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const word of reply.split(/(?<= )/)) {
        res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: word } }] })}\n\n`);
        await new Promise((r) => setTimeout(r, TOKEN_DELAY_MS));
      }
      res.end('data: [DONE]\n\n');
    });
  });
  return new Promise((r) =>
    model.listen(0, '127.0.0.1', () => {
      modelUrl = `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`;
      r();
    }),
  );
}

const configure = () => Object.assign(process.env, { TIDEWELL_AI_BASE_URL: modelUrl, TIDEWELL_AI_MODEL: 'test-echo' });
const unconfigure = () => {
  delete process.env.TIDEWELL_AI_BASE_URL;
  delete process.env.TIDEWELL_AI_MODEL;
};

async function userOf(email: string, group: 'admin' | 'provider' | 'employee', practiceId: string): Promise<string> {
  const sub = await ensurePoolUser(cognitoAdminClient(rt.outputs.cognitoEndpoint, rt.outputs.region), rt.outputs.userPoolId, {
    email,
    firstName: 'Test',
    lastName: 'Copilot',
    group,
    practiceId,
    password: DEMO_PASSWORD,
  });
  const table = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: rt.endpoints.dynamodb, region: rt.outputs.region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
  );
  if (practiceId === rt.endpoints.practiceId)
    await putIfAbsentIn(
      table,
      rt.endpoints.tableName,
      userItem(practiceId, sub, { email, firstName: 'Test', lastName: 'Copilot', group }, new Date().toISOString()),
    );
  return signInAs(rt, email);
}

async function auditOf(patient: string): Promise<Record<string, unknown>[]> {
  const table = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: rt.endpoints.dynamodb, region: rt.outputs.region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
  );
  const out = await table.send(
    new QueryCommand({
      TableName: rt.endpoints.tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': `AUDIT#PATIENT#${patient}` },
    }),
  );
  return out.Items ?? [];
}

const conversationId = () => `c${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
const ask = (content: string, extra: Record<string, unknown> = {}) => ({
  conversationId: conversationId(),
  entryPointPath: '/patients',
  messages: [{ role: 'user', content }],
  ...extra,
});

/** Reads a streamed reply as it arrives, noting when the first token and the end came. */
async function readStream(url: string, token: string | null, body: unknown) {
  const started = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const events: CopilotStreamEvent[] = [];
  let firstTokenMs: number | undefined;
  if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      const decoded = decodeStreamEvents(buffer);
      buffer = decoded.rest;
      for (const e of decoded.events) {
        if (e.type === 'token' && firstTokenMs === undefined) firstTokenMs = performance.now() - started;
        events.push(e);
      }
    }
    return { status: response.status, events, firstTokenMs, totalMs: performance.now() - started, json: null };
  }
  return { status: response.status, events, firstTokenMs, totalMs: performance.now() - started, json: (await response.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  unconfigure();
  await startModel();
  rt = await runtime.start();
  [provider, employee] = await Promise.all([signInAs(rt, 'provider@demo.tidewell.local'), signInAs(rt, 'employee@demo.tidewell.local')]);
  const created = await callApi(rt, provider, 'POST', '/v1/patients', {
    firstName: 'Rosa',
    lastName: `Quintero${Date.now().toString(36)}`,
    gender: 'female',
    dob: '1970-05-06',
  });
  expect(created.status).toBe(201);
  patientId = created.body.id as string;
  expect((await callApi(rt, provider, 'POST', `/v1/patients/${patientId}/allergies`, { name: 'Sulfa drugs', severity: 'severe' })).status).toBe(201);
}, 120_000);

afterAll(async () => {
  unconfigure();
  await runtime.dispose();
  await new Promise<void>((r) => model.close(() => r()));
});

describe('without a model configured', () => {
  it("answers 'ECS AI endpoint not configured' and reads nothing of the chart", async () => {
    const before = (await auditOf(patientId)).filter((a) => a.entity === 'copilot-patient-context').length;
    const whole = await callApi(rt, provider, 'POST', '/v1/ai/conversation', ask('Which allergies?', { patientId }));
    expect(whole.status).toBe(503);
    expect(whole.body.message).toBe(COPILOT_MESSAGES.notConfigured);
    const streamed = await readStream(`${rt.outputs.copilotStreamUrl}v1/ai/conversation/stream`, provider, ask('Which allergies?', { patientId }));
    expect(streamed.status).toBe(503);
    expect(streamed.json?.message).toBe(COPILOT_MESSAGES.notConfigured);
    expect((await auditOf(patientId)).filter((a) => a.entity === 'copilot-patient-context')).toHaveLength(before);
    expect(modelRequests).toHaveLength(0);
    // And no conversation was left behind.
    expect((await callApi(rt, provider, 'GET', '/v1/ai/conversations')).body.conversations).toEqual([]);
  });
});

describe('with a model', () => {
  beforeAll(configure);

  it('answers with the chart the server read (audited as a PHI read) and stores both turns', async () => {
    const body = ask('Which allergies does she have?', {
      patientId,
      messages: [
        { role: 'user', content: 'Patient in context: Rosa Quintero (56).' },
        { role: 'user', content: 'Which allergies does she have?' },
      ],
    });
    const res = await callApi(rt, provider, 'POST', '/v1/ai/conversation', body);
    expect(res.status).toBe(200);
    expect(res.body.content).toContain('Sulfa drugs');
    expect(res.body.content).toContain('Answer to: Which allergies does she have?');
    expect(res.body.model).toEqual({ name: 'Local model test-echo', local: true });
    expect(res.body.message).toMatchObject({ role: 'assistant', content: res.body.content, timestamp: expect.any(String), createdAt: expect.any(String) });
    // The chart went to the model in the instructions, never from the browser.
    expect(modelRequests.at(-1)!.messages[0]).toMatchObject({ role: 'system', content: expect.stringContaining('Allergies: Sulfa drugs, severity severe') });
    const audit = (await auditOf(patientId)).filter((a) => a.entity === 'copilot-patient-context');
    expect(audit.at(-1)).toMatchObject({ action: 'read', patientId, routeKey: 'POST /v1/ai/conversation' });

    const messages = await callApi(rt, provider, 'GET', `/v1/ai/conversations/${body.conversationId}/messages`);
    expect(messages.status).toBe(200);
    expect(messages.body.messages.map((m: { role: string; content: string }) => [m.role, m.content])).toEqual([
      ['user', 'Patient in context: Rosa Quintero (56).'],
      ['user', 'Which allergies does she have?'],
      ['assistant', res.body.content],
    ]);
  });

  it('streams tokens through the function URL as the model writes them, then the stored message', async () => {
    const body = ask('Summarize the chart', { patientId });
    const out = await readStream(`${rt.outputs.copilotStreamUrl}v1/ai/conversation/stream`, provider, body);
    expect(out.status).toBe(200);
    expect(out.events[0]).toMatchObject({ type: 'start', conversationId: body.conversationId, model: { local: true } });
    const tokens = out.events.filter((e) => e.type === 'token');
    expect(tokens.length).toBeGreaterThan(5);
    const text = tokens.map((t) => (t.type === 'token' ? t.text : '')).join('');
    expect(text).toContain('Answer to: Summarize the chart');
    const done = out.events.at(-1)!;
    expect(done).toMatchObject({ type: 'done', message: { role: 'assistant', content: text } });
    // Streamed, not buffered: the first token came long before the last one was written.
    expect(out.firstTokenMs!).toBeLessThan(out.totalMs - tokens.length * TOKEN_DELAY_MS * 0.5);
  });

  it('answers the same events whole through the API route (API Gateway buffers)', async () => {
    const out = await readStream(`${rt.outputs.apiUrl}/v1/ai/conversation/stream`, provider, ask('Hello there'));
    expect(out.status).toBe(200);
    expect(out.events.map((e) => e.type)).toEqual(['start', ...out.events.slice(1, -1).map(() => 'token'), 'done']);
  });

  it('refuses the function URL without a valid token, and blank questions', async () => {
    expect((await readStream(`${rt.outputs.copilotStreamUrl}v1/ai/conversation/stream`, null, ask('Hi'))).status).toBe(401);
    expect((await readStream(`${rt.outputs.copilotStreamUrl}v1/ai/conversation/stream`, `${provider}x`, ask('Hi'))).status).toBe(401);
    expect((await readStream(`${rt.outputs.copilotStreamUrl}v1/other`, provider, ask('Hi'))).status).toBe(404);
    const blank = await callApi(rt, provider, 'POST', '/v1/ai/conversation', ask('   '));
    expect(blank.status).toBe(400);
  });

  it('lists my conversations newest first, by patient and by keyword, 25 a page; others see none of them', async () => {
    const mine = await callApi(rt, provider, 'GET', '/v1/ai/conversations');
    expect(mine.status).toBe(200);
    expect(mine.body.limit).toBe(25);
    const summaries = mine.body.conversations.map((c: { summary: string }) => c.summary);
    expect(summaries.slice(0, 3)).toEqual(['Hello there', 'Summarize the chart', 'Which allergies does she have?']);
    const ofPatient = await callApi(rt, provider, 'GET', `/v1/ai/conversations?patientId=${patientId}`);
    expect(ofPatient.body.conversations.map((c: { summary: string }) => c.summary)).toEqual(['Summarize the chart', 'Which allergies does she have?']);
    const keyword = await callApi(rt, provider, 'GET', '/v1/ai/conversations?keyword=SUMMARIZE');
    expect(keyword.body.conversations.map((c: { summary: string }) => c.summary)).toEqual(['Summarize the chart']);
    expect((await callApi(rt, provider, 'GET', '/v1/ai/conversations?keyword=nothing-like-this')).body.conversations).toEqual([]);
    const paged = await callApi(rt, provider, 'GET', '/v1/ai/conversations?limit=1&offset=1');
    expect(paged.body.conversations.map((c: { summary: string }) => c.summary)).toEqual(['Summarize the chart']);
    expect((await callApi(rt, provider, 'GET', '/v1/ai/conversations?limit=26')).status).toBe(400);

    expect((await callApi(rt, employee, 'GET', '/v1/ai/conversations')).body.conversations).toEqual([]);
    const theirs = mine.body.conversations[0].conversationId as string;
    expect((await callApi(rt, employee, 'GET', `/v1/ai/conversations/${theirs}/messages`)).status).toBe(404);
    expect((await callApi(rt, employee, 'POST', '/v1/ai/conversation', { ...ask('Take over'), conversationId: theirs })).status).toBe(404);
  });

  it('pages a long conversation from the newest message back', async () => {
    const id = conversationId();
    const history: { role: 'user' | 'assistant'; content: string }[] = [];
    for (let i = 1; i <= 14; i++) {
      history.push({ role: 'user', content: `Question ${i}` });
      const res = await callApi(rt, provider, 'POST', '/v1/ai/conversation', { conversationId: id, messages: history });
      expect(res.status).toBe(200);
      history.push({ role: 'assistant', content: res.body.content as string });
    }
    const newest = await callApi(rt, provider, 'GET', `/v1/ai/conversations/${id}/messages?limit=25`);
    expect(newest.body.messages).toHaveLength(25);
    expect(newest.body.hasMore).toBe(true);
    expect(newest.body.messages.at(-1)).toMatchObject({ role: 'assistant', content: expect.stringContaining('Question 14') });
    expect(newest.body.messages[0]).toMatchObject({ role: 'assistant', content: expect.stringContaining('Question 2') });
    const older = await callApi(rt, provider, 'GET', `/v1/ai/conversations/${id}/messages?offset=25&limit=25`);
    expect(older.body.messages.map((m: { content: string }) => m.content)).toEqual(['Question 1', history[1].content, 'Question 2']);
    expect(older.body.hasMore).toBe(false);
    // Later questions are searchable too.
    expect(
      (await callApi(rt, provider, 'GET', '/v1/ai/conversations?keyword=question 14')).body.conversations.map(
        (c: { conversationId: string }) => c.conversationId,
      ),
    ).toEqual([id]);
  });

  it("a failing model: 502 with the spec's chat failure, or an error event in the stream; the question stays stored", async () => {
    const body = ask('make the model fail');
    const whole = await callApi(rt, provider, 'POST', '/v1/ai/conversation', body);
    expect(whole.status).toBe(502);
    expect(whole.body.message).toBe(COPILOT_MESSAGES.chatFailure);
    const streamed = await readStream(`${rt.outputs.copilotStreamUrl}v1/ai/conversation/stream`, provider, {
      ...body,
      messages: [...body.messages, { role: 'assistant', content: 'x' }, { role: 'user', content: 'make the model fail' }],
    });
    expect(streamed.status).toBe(200);
    expect(streamed.events.map((e) => e.type)).toEqual(['start', 'error']);
    expect(streamed.events[1]).toEqual({ type: 'error', message: COPILOT_MESSAGES.chatFailure });
    const stored = await callApi(rt, provider, 'GET', `/v1/ai/conversations/${body.conversationId}/messages`);
    expect(stored.body.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'user']);
  });

  it('refuses a token of another practice, with the refusal audited', async () => {
    const foreign = await userOf(`copilot-foreign-${Date.now().toString(36)}@other.tidewell.local`, 'admin', 'prc_other_copilot');
    const res = await callApi(rt, foreign, 'POST', '/v1/ai/conversation', ask('Which allergies?', { patientId }));
    expect(res.status).toBe(403);
    const viaUrl = await readStream(`${rt.outputs.copilotStreamUrl}v1/ai/conversation/stream`, foreign, ask('Which allergies?', { patientId }));
    expect(viaUrl.status).toBe(403);
    expect(viaUrl.json?.reason).toBe('other_practice');
    const table = DynamoDBDocumentClient.from(
      new DynamoDBClient({ endpoint: rt.endpoints.dynamodb, region: rt.outputs.region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
    );
    const audit = await table.send(
      new QueryCommand({
        TableName: rt.endpoints.tableName,
        KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :a)',
        ExpressionAttributeValues: { ':p': rt.endpoints.practiceId, ':a': 'AUDIT#' },
      }),
    );
    const refusals = (audit.Items ?? []).filter((a) => a.action === 'refused' && a.actorPracticeId === 'prc_other_copilot').map((a) => [a.route, a.reason]);
    expect(refusals).toEqual(
      expect.arrayContaining([
        ['POST /v1/ai/conversation', 'other_practice'],
        ['POST /v1/ai/conversation/stream', 'other_practice'],
      ]),
    );
  });
});
