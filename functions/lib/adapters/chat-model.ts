/**
 * The Copilot's language model. Deployed: Amazon Bedrock's Converse and ConverseStream APIs with the
 * model id and region of the practice config (`ai` in practices/<slug>.json → AI_MODEL_ID, AI_REGION).
 * Locally: any OpenAI-compatible chat completions endpoint (TIDEWELL_AI_BASE_URL, TIDEWELL_AI_MODEL),
 * e.g. a local Ollama, or the runtime's own rule-based sandbox. With neither, the practice has no
 * model and nothing is sent anywhere.
 */
import type { BedrockRuntimeClient, ContentBlock, Message } from '@aws-sdk/client-bedrock-runtime';
import type { CopilotModelLabel } from '../../../shared/ai/copilot-schema.js';

export interface ChatTurn {
  role: 'user' | 'assistant';
  content: string;
}

export interface ChatRequest {
  system: string;
  messages: ChatTurn[];
}

export interface ChatModel {
  label: CopilotModelLabel;
  complete(request: ChatRequest, signal?: AbortSignal): Promise<string>;
  /** Text deltas in order; the concatenation is the reply. */
  stream(request: ChatRequest, signal?: AbortSignal): AsyncIterable<string>;
}

/** The model failed or answered nothing usable; the message is safe to log (no request content). */
export class ChatModelError extends Error {
  override name = 'ChatModelError';
}

export const MAX_REPLY_TOKENS = 1024;
const TEMPERATURE = 0.2;

/** Bedrock wants alternating turns that start with the user: merge neighbours, drop leading assistant turns. */
export function alternatingTurns(messages: readonly ChatTurn[]): ChatTurn[] {
  const out: ChatTurn[] = [];
  for (const m of messages) {
    if (m.content.trim() === '') continue;
    if (out.length === 0 && m.role !== 'user') continue;
    const last = out[out.length - 1];
    if (last && last.role === m.role) last.content = `${last.content}\n\n${m.content}`;
    else out.push({ role: m.role, content: m.content });
  }
  return out;
}

export function bedrockConverseInput(modelId: string, request: ChatRequest) {
  return {
    modelId,
    system: [{ text: request.system }],
    messages: alternatingTurns(request.messages).map((m): Message => ({ role: m.role, content: [{ text: m.content }] })),
    inferenceConfig: { maxTokens: MAX_REPLY_TOKENS, temperature: TEMPERATURE },
  };
}

/** Amazon Bedrock Converse / ConverseStream (bedrock-runtime). The client is loaded on first use. */
export function bedrockChatModel(options: { modelId: string; region?: string; client?: BedrockRuntimeClient }): ChatModel {
  let client: BedrockRuntimeClient | undefined = options.client;
  const sdk = () => import('@aws-sdk/client-bedrock-runtime');
  async function bedrock(): Promise<BedrockRuntimeClient> {
    if (!client) {
      const { BedrockRuntimeClient: Client } = await sdk();
      client = new Client(options.region ? { region: options.region } : {});
    }
    return client;
  }
  return {
    label: { name: options.modelId, local: false },
    async complete(request, signal) {
      const { ConverseCommand } = await sdk();
      const out = await (await bedrock()).send(new ConverseCommand(bedrockConverseInput(options.modelId, request)), { abortSignal: signal });
      const text = (out.output?.message?.content ?? []).map((b: ContentBlock) => ('text' in b && typeof b.text === 'string' ? b.text : '')).join('');
      if (!text) throw new ChatModelError(`Bedrock answered no text (stopReason ${out.stopReason ?? 'unknown'})`);
      return text;
    },
    async *stream(request, signal) {
      const { ConverseStreamCommand } = await sdk();
      const out = await (await bedrock()).send(new ConverseStreamCommand(bedrockConverseInput(options.modelId, request)), { abortSignal: signal });
      if (!out.stream) throw new ChatModelError('Bedrock answered without a stream');
      for await (const event of out.stream) {
        const text = event.contentBlockDelta?.delta && 'text' in event.contentBlockDelta.delta ? event.contentBlockDelta.delta.text : undefined;
        if (text) yield text;
        // Errors arrive as members of the event stream, not as thrown responses.
        const failure =
          event.internalServerException ??
          event.modelStreamErrorException ??
          event.validationException ??
          event.throttlingException ??
          event.serviceUnavailableException;
        if (failure) throw new ChatModelError(`Bedrock stream failed: ${failure.name ?? 'error'}`);
      }
    },
  };
}

/** The chat completions body (OpenAI's API, which Ollama, vLLM and llama.cpp's server also speak). */
export function openAiChatBody(model: string, request: ChatRequest, stream: boolean) {
  return {
    model,
    stream,
    max_tokens: MAX_REPLY_TOKENS,
    temperature: TEMPERATURE,
    messages: [{ role: 'system', content: request.system }, ...request.messages.map((m) => ({ role: m.role, content: m.content }))],
  };
}

/** Local rule-based sandbox served by `npm start` (infra/local/ai): labelled as what it is. */
export const LOCAL_RULES_MODEL = 'tidewell-local-rules';

export function openAiCompatibleChatModel(options: { baseUrl: string; model: string; apiKey?: string; fetchImpl?: typeof fetch }): ChatModel {
  const doFetch = options.fetchImpl ?? fetch;
  const url = `${options.baseUrl.replace(/\/$/, '')}/chat/completions`;
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) };
  async function post(request: ChatRequest, stream: boolean, signal?: AbortSignal): Promise<Response> {
    let response: Response;
    try {
      response = await doFetch(url, { method: 'POST', headers, body: JSON.stringify(openAiChatBody(options.model, request, stream)), signal });
    } catch (error) {
      if ((error as Error)?.name === 'AbortError') throw error;
      throw new ChatModelError(`Chat endpoint unreachable: ${(error as Error)?.name ?? 'error'}`);
    }
    if (!response.ok) throw new ChatModelError(`Chat endpoint answered HTTP ${response.status}`);
    return response;
  }
  const name = options.model === LOCAL_RULES_MODEL ? 'Local rule-based assistant (no language model)' : `Local model ${options.model}`;
  return {
    label: { name, local: true },
    async complete(request, signal) {
      const body = (await (await post(request, false, signal)).json()) as { choices?: { message?: { content?: string } }[] };
      const text = body.choices?.[0]?.message?.content;
      if (!text) throw new ChatModelError('Chat endpoint answered no text');
      return text;
    },
    async *stream(request, signal) {
      const response = await post(request, true, signal);
      if (!response.body) throw new ChatModelError('Chat endpoint answered without a body');
      const decoder = new TextDecoder();
      let buffer = '';
      const reader = response.body.getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        const lines = buffer.split('\n');
        buffer = lines.pop() ?? '';
        for (const line of lines) {
          const data = line.startsWith('data:') ? line.slice(5).trim() : '';
          if (!data) continue;
          if (data === '[DONE]') return;
          let chunk: { choices?: { delta?: { content?: string } }[] };
          try {
            chunk = JSON.parse(data);
          } catch {
            throw new ChatModelError('Chat endpoint sent a malformed event');
          }
          const text = chunk.choices?.[0]?.delta?.content;
          if (text) yield text;
        }
      }
    },
  };
}

/** The practice's model from the environment, or null when none is configured. */
export function chatModelFromEnv(env: NodeJS.ProcessEnv = process.env): ChatModel | null {
  if (env.AI_MODEL_ID) return bedrockChatModel({ modelId: env.AI_MODEL_ID, region: env.AI_REGION || undefined });
  if (env.TIDEWELL_AI_BASE_URL && env.TIDEWELL_AI_MODEL) {
    return openAiCompatibleChatModel({ baseUrl: env.TIDEWELL_AI_BASE_URL, model: env.TIDEWELL_AI_MODEL, apiKey: env.TIDEWELL_AI_API_KEY || undefined });
  }
  return null;
}
