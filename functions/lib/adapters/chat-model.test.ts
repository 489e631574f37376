import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BedrockRuntimeClient, ConverseCommand, ConverseStreamCommand, type ConverseStreamOutput } from '@aws-sdk/client-bedrock-runtime';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { alternatingTurns, bedrockChatModel, chatModelFromEnv, ChatModelError, MAX_REPLY_TOKENS, openAiCompatibleChatModel } from './chat-model.js';

const bedrockMock = mockClient(BedrockRuntimeClient);
const MODEL = 'anthropic.claude-3-5-haiku-20241022-v1:0';
const REQUEST = {
  system: 'You are a clinical assistant. Patient: Maria Lopez, 42. Allergies: penicillin.',
  messages: [
    { role: 'assistant' as const, content: 'How can I help you?' },
    { role: 'user' as const, content: 'Patient in context: Maria Lopez (42).' },
    { role: 'user' as const, content: 'Which allergies?' },
  ],
};

async function* events(list: ConverseStreamOutput[]): AsyncIterable<ConverseStreamOutput> {
  for (const e of list) yield e;
}

async function collect(it: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const t of it) out.push(t);
  return out;
}

describe('Bedrock Converse', () => {
  beforeEach(() => bedrockMock.reset());

  it('sends the system prompt, alternating user-first turns and the inference limits; reads the text blocks', async () => {
    // Documented ConverseResponse shape: output.message.content[].text, stopReason, usage.
    bedrockMock.on(ConverseCommand).resolves({
      output: { message: { role: 'assistant', content: [{ text: 'Penicillin ' }, { text: '(rash).' }] } },
      stopReason: 'end_turn',
      usage: { inputTokens: 40, outputTokens: 4, totalTokens: 44 },
      metrics: { latencyMs: 300 },
    });
    const model = bedrockChatModel({ modelId: MODEL, client: new BedrockRuntimeClient({ region: 'us-west-2' }) });
    expect(model.label).toEqual({ name: MODEL, local: false });
    await expect(model.complete(REQUEST)).resolves.toBe('Penicillin (rash).');
    const input = bedrockMock.commandCalls(ConverseCommand)[0].args[0].input;
    expect(input).toEqual({
      modelId: MODEL,
      system: [{ text: REQUEST.system }],
      // The greeting is dropped (Bedrock wants the user first) and the two user turns become one.
      messages: [{ role: 'user', content: [{ text: 'Patient in context: Maria Lopez (42).\n\nWhich allergies?' }] }],
      inferenceConfig: { maxTokens: MAX_REPLY_TOKENS, temperature: 0.2 },
    });
  });

  it('refuses an answer without text', async () => {
    bedrockMock.on(ConverseCommand).resolves({ output: { message: { role: 'assistant', content: [] } }, stopReason: 'max_tokens' });
    const model = bedrockChatModel({ modelId: MODEL, client: new BedrockRuntimeClient({ region: 'us-east-1' }) });
    await expect(model.complete(REQUEST)).rejects.toThrow(ChatModelError);
  });

  it('streams the contentBlockDelta texts of ConverseStream in order', async () => {
    bedrockMock.on(ConverseStreamCommand).resolves({
      stream: events([
        { messageStart: { role: 'assistant' } },
        { contentBlockDelta: { contentBlockIndex: 0, delta: { text: 'Peni' } } },
        { contentBlockDelta: { contentBlockIndex: 0, delta: { text: 'cillin.' } } },
        { contentBlockStop: { contentBlockIndex: 0 } },
        { messageStop: { stopReason: 'end_turn' } },
        { metadata: { usage: { inputTokens: 10, outputTokens: 2, totalTokens: 12 }, metrics: { latencyMs: 120 } } },
      ]),
    });
    const model = bedrockChatModel({ modelId: MODEL, client: new BedrockRuntimeClient({ region: 'us-east-1' }) });
    await expect(collect(model.stream(REQUEST))).resolves.toEqual(['Peni', 'cillin.']);
    expect(bedrockMock.commandCalls(ConverseStreamCommand)[0].args[0].input.modelId).toBe(MODEL);
  });

  it('fails on an exception member of the event stream', async () => {
    bedrockMock.on(ConverseStreamCommand).resolves({
      stream: events([
        { contentBlockDelta: { contentBlockIndex: 0, delta: { text: 'Pen' } } },
        { throttlingException: { name: 'ThrottlingException', message: 'Too many requests' } as never },
      ]),
    });
    const model = bedrockChatModel({ modelId: MODEL, client: new BedrockRuntimeClient({ region: 'us-east-1' }) });
    await expect(collect(model.stream(REQUEST))).rejects.toThrow('Bedrock stream failed: ThrottlingException');
  });
});

describe('turn shaping', () => {
  it('starts with the user, merges neighbours, drops blank turns', () => {
    expect(
      alternatingTurns([
        { role: 'assistant', content: 'hi' },
        { role: 'user', content: 'a' },
        { role: 'user', content: ' ' },
        { role: 'assistant', content: 'b' },
        { role: 'assistant', content: 'c' },
        { role: 'user', content: 'd' },
      ]),
    ).toEqual([
      { role: 'user', content: 'a' },
      { role: 'assistant', content: 'b\n\nc' },
      { role: 'user', content: 'd' },
    ]);
  });
});

describe('OpenAI-compatible endpoint', () => {
  let server: Server;
  let baseUrl: string;
  const bodies: Record<string, unknown>[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        const body = JSON.parse(raw) as { stream: boolean; messages: { content: string }[] };
        bodies.push(body);
        const question = body.messages[body.messages.length - 1].content;
        if (question === 'fail') return void res.writeHead(500).end('{}');
        const words = `You asked: ${question}`.split(' ');
        if (!body.stream) {
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: words.join(' ') } }] }));
          return;
        }
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        words.forEach((w, i) => res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: i === 0 ? w : ` ${w}` } }] })}\n\n`));
        res.end('data: [DONE]\n\n');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('posts the system prompt first and reads a whole answer', async () => {
    const model = openAiCompatibleChatModel({ baseUrl, model: 'llama3.2' });
    expect(model.label).toEqual({ name: 'Local model llama3.2', local: true });
    await expect(model.complete(REQUEST)).resolves.toBe('You asked: Which allergies?');
    expect(bodies.at(-1)).toMatchObject({
      model: 'llama3.2',
      stream: false,
      messages: [{ role: 'system', content: REQUEST.system }, { role: 'assistant' }, { role: 'user' }, { role: 'user' }],
    });
  });

  it('streams the SSE deltas until [DONE]', async () => {
    const model = openAiCompatibleChatModel({ baseUrl, model: 'llama3.2' });
    const parts = await collect(model.stream(REQUEST));
    expect(parts.join('')).toBe('You asked: Which allergies?');
    expect(parts.length).toBeGreaterThan(2);
  });

  it('turns an HTTP error into a ChatModelError', async () => {
    const model = openAiCompatibleChatModel({ baseUrl, model: 'llama3.2' });
    await expect(model.complete({ system: 's', messages: [{ role: 'user', content: 'fail' }] })).rejects.toThrow('Chat endpoint answered HTTP 500');
  });
});

describe('configuration', () => {
  it('Bedrock when the practice names a model, the local endpoint when set, otherwise none', () => {
    expect(chatModelFromEnv({ AI_MODEL_ID: MODEL, AI_REGION: 'us-west-2' })?.label).toEqual({ name: MODEL, local: false });
    expect(chatModelFromEnv({ TIDEWELL_AI_BASE_URL: 'http://127.0.0.1:11434/v1', TIDEWELL_AI_MODEL: 'llama3.2' })?.label.local).toBe(true);
    expect(chatModelFromEnv({ TIDEWELL_AI_BASE_URL: 'http://127.0.0.1:11434/v1' })).toBeNull();
    expect(chatModelFromEnv({})).toBeNull();
  });
});
