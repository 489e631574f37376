import type { IncomingMessage, ServerResponse } from 'node:http';
import { LOCAL_RULES_MODEL } from '../../../functions/lib/adapters/chat-model.js';

/**
 * The local rule-based assistant: an OpenAI-compatible chat completions endpoint that `npm start`
 * serves when TIDEWELL_AI_LOCAL_ASSISTANT=1 and no other endpoint is configured. It is not a
 * language model and says so: it answers from what the request holds (the chart summary the server
 * read into the instructions, and the question) by rules, word by word like a streaming model.
 */
export const LOCAL_ASSISTANT_PATH = '/local/ai';

interface ChatBody {
  model?: string;
  stream?: boolean;
  messages?: { role: string; content: string }[];
}

const TOPICS: { pattern: RegExp; heading: string }[] = [
  { pattern: /allerg/i, heading: 'Allergies' },
  { pattern: /\b(med|meds|medication|medications|drug|drugs|prescri\w*|taking)\b/i, heading: 'Medications' },
  { pattern: /\b(diagnos\w*|problem\w*|condition\w*|history)\b/i, heading: 'Diagnoses' },
  { pattern: /\b(visit\w*|seen|appointment\w*|last time|follow[- ]?up|note)\b/i, heading: 'Last visit' },
  { pattern: /\b(lab\w*|result\w*|test\w*|a1c|glucose|panel|cbc|cmp|abnormal)\b/i, heading: 'Recent results' },
];
const ALL = ['Diagnoses', 'Medications', 'Allergies', 'Last visit', 'Recent results'];

/** The reply, derived from the request only. */
export function localAssistantReply(body: ChatBody): string {
  const messages = body.messages ?? [];
  const system = messages.find((m) => m.role === 'system')?.content ?? '';
  const question =
    [...messages]
      .reverse()
      .find((m) => m.role === 'user')
      ?.content.trim() ?? '';
  const chart = new Map<string, string>();
  for (const line of system.split('\n')) {
    const m = /^(Patient|Allergies|Diagnoses|Medications|Other medications|Last visit|Recent results): (.*)$/.exec(line.trim());
    if (m) chart.set(m[1], m[2]);
  }
  const intro = 'Local rule-based assistant (no language model):';
  if (!chart.has('Patient')) {
    return `${intro} no patient is in context, so I can only repeat your question: "${question}". Configure a model (TIDEWELL_AI_BASE_URL and TIDEWELL_AI_MODEL) for real answers.`;
  }
  const asked = TOPICS.filter((t) => t.pattern.test(question));
  const sections = asked.length ? asked.map((t) => t.heading) : ALL.filter((h) => chart.has(h));
  const facts = sections.map((h) => {
    const extra =
      h === 'Medications' && chart.get('Other medications') && chart.get('Other medications') !== 'none recorded.' ? ` ${chart.get('Other medications')}` : '';
    return `${h}: ${chart.get(h) ?? 'none recorded.'}${extra}`;
  });
  return `${intro} from the chart the server read. ${chart.get('Patient')} ${facts.join(' ')} You asked: "${question}".`;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (raw += c));
    req.on('end', () => resolve(raw));
    req.on('error', reject);
  });
}

/** POST /local/ai/v1/chat/completions, whole or as server-sent `chat.completion.chunk` events. */
export function localAssistantHandler(options: { tokenDelayMs?: number } = {}) {
  const delay = options.tokenDelayMs ?? 15;
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://local').pathname;
    if (req.method !== 'POST' || path !== `${LOCAL_ASSISTANT_PATH}/v1/chat/completions`) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'Not Found' } }));
      return;
    }
    let body: ChatBody;
    try {
      body = JSON.parse(await readBody(req)) as ChatBody;
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'Malformed JSON' } }));
      return;
    }
    const reply = localAssistantReply(body);
    const id = `chatcmpl-local-${Date.now().toString(36)}`;
    const created = Math.floor(Date.now() / 1000);
    if (!body.stream) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id,
          object: 'chat.completion',
          created,
          model: LOCAL_RULES_MODEL,
          choices: [{ index: 0, message: { role: 'assistant', content: reply }, finish_reason: 'stop' }],
        }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const words = reply.split(/(?<= )/);
    for (const word of words) {
      if (res.destroyed) return;
      res.write(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: LOCAL_RULES_MODEL, choices: [{ index: 0, delta: { content: word }, finish_reason: null }] })}\n\n`,
      );
      await new Promise((r) => setTimeout(r, delay));
    }
    res.write(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: LOCAL_RULES_MODEL, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`,
    );
    res.end('data: [DONE]\n\n');
  };
}
