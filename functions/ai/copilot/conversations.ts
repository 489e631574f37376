import { randomUUID } from 'node:crypto';
import {
  COPILOT_MESSAGES,
  type ConversationBody,
  type ConversationListQuery,
  type ConversationListResponse,
  type ConversationMessagesQuery,
  type ConversationMessagesResponse,
  type ConversationReply,
  type CopilotMessage,
  type CopilotStreamEvent,
} from '../../../shared/ai/copilot-schema.js';
import { chatModelFromEnv, ChatModelError, type ChatModel, type ChatRequest } from '../../lib/adapters/chat-model.js';
import type { AuthContext } from '../../lib/auth/auth-context.js';
import { writeAuditForPatients } from '../../lib/audit/audit-repository.js';
import { DependencyError, NotFoundError } from '../../lib/errors.js';
import { log } from '../../lib/log.js';
import {
  createConversation,
  getConversation,
  listConversations as queryConversations,
  listMessages as queryMessages,
  publicConversation,
  putMessage,
  summaryOf,
  touchConversation,
  type StoredConversation,
} from '../../data/copilot/copilot-repository.js';
import { readPatientContext } from './patient-context.js';

/** What the model sees of the conversation: the latest turns the browser sent. */
const MODEL_TURNS = 40;

const INSTRUCTIONS = [
  'You are Copilot, an AI clinical assistant inside a practice-management application used by clinicians and practice staff.',
  'You help draft messages, review notes, prepare for visits and work through care decisions.',
  "Be concise and clinically precise. Say when something needs the clinician's judgement; never invent chart facts.",
].join(' ');

/** Spec shell §7.1 / notes §8: without a configured model the chat answers this, and nothing is read or sent. */
export function requireModel(): ChatModel {
  const model = chatModelFromEnv();
  if (!model) throw new DependencyError(503, COPILOT_MESSAGES.notConfigured, 'ai_not_configured');
  return model;
}

async function ownConversation(auth: AuthContext, conversationId: string): Promise<StoredConversation | null> {
  const c = await getConversation(auth.practiceId, conversationId);
  // Another user's chat is answered exactly like a missing one.
  if (c && c.ownerUserId !== auth.userId) throw new NotFoundError(COPILOT_MESSAGES.conversationNotFound);
  return c;
}

/** A strictly increasing time per message written in one call, so their order survives. */
function clock(start = Date.now()): () => string {
  let t = start;
  return () => new Date(t++).toISOString();
}

interface Prepared {
  model: ChatModel;
  request: ChatRequest;
  conversation: StoredConversation;
  next: () => string;
}

/**
 * Everything before the model answers: the model, the patient context (read and audited), the
 * conversation (created on its first message with the messages the browser holds) and the question stored.
 */
async function prepare(auth: AuthContext, body: ConversationBody): Promise<Prepared> {
  const model = requireModel();
  const existing = await ownConversation(auth, body.conversationId);
  const patientId = existing ? (existing.patientId ?? null) : (body.patientId ?? null);
  const context = patientId ? await readPatientContext(auth, patientId) : null;
  const question = body.messages[body.messages.length - 1].content;
  const next = clock();
  let conversation = existing;
  if (!conversation) {
    const createdAt = next();
    const firstQuestion = body.messages.find((m) => m.role === 'user' && !m.content.startsWith('Patient in context:'))?.content ?? question;
    const fresh: StoredConversation = {
      conversationId: body.conversationId,
      ownerUserId: auth.userId,
      summary: summaryOf(firstQuestion),
      searchText: body.messages
        .filter((m) => m.role === 'user')
        .map((m) => m.content.toLowerCase())
        .join(' '),
      createdAt,
      updatedAt: createdAt,
      patientId,
    };
    if (await createConversation(auth.practiceId, fresh)) {
      conversation = fresh;
      // The turns the browser held before the first send (e.g. the patient-context message) belong to it.
      for (const m of body.messages.slice(0, -1))
        if (m.content.trim())
          await putMessage(auth.practiceId, fresh.conversationId, { ident: randomUUID(), role: m.role, content: m.content, createdAt: next() });
    } else {
      conversation = await ownConversation(auth, body.conversationId);
      if (!conversation) throw new NotFoundError(COPILOT_MESSAGES.conversationNotFound);
    }
  } else {
    await touchConversation(auth.practiceId, conversation, question, new Date().toISOString());
  }
  await putMessage(auth.practiceId, conversation.conversationId, { ident: randomUUID(), role: 'user', content: question, createdAt: next() });
  const system = context ? `${INSTRUCTIONS}\n\nThe clinician is asking about this patient. Chart summary:\n${context.text}` : INSTRUCTIONS;
  return { model, conversation, next, request: { system, messages: body.messages.slice(-MODEL_TURNS) } };
}

async function storeReply(auth: AuthContext, prepared: Prepared, content: string): Promise<CopilotMessage> {
  return putMessage(auth.practiceId, prepared.conversation.conversationId, { ident: randomUUID(), role: 'assistant', content, createdAt: prepared.next() });
}

function modelFailure(error: unknown): DependencyError {
  // Only our own adapter's messages are known to hold no request content; the SDK's are not logged.
  log.warn('Copilot model failed', { error: (error as Error)?.name, ...(error instanceof ChatModelError ? { detail: error.message } : {}) });
  return new DependencyError(502, COPILOT_MESSAGES.chatFailure, 'ai_model_failed');
}

/** POST /v1/ai/conversation: the whole reply at once. */
export async function converse(auth: AuthContext, body: ConversationBody): Promise<ConversationReply> {
  const prepared = await prepare(auth, body);
  let content: string;
  try {
    content = await prepared.model.complete(prepared.request);
  } catch (error) {
    throw modelFailure(error);
  }
  const message = await storeReply(auth, prepared, content);
  return { conversationId: prepared.conversation.conversationId, content, message, model: prepared.model.label };
}

/**
 * POST /v1/ai/conversation/stream: checks and the stored question happen before the first byte
 * (so a refusal is an ordinary 4xx/503); then events as the model writes.
 */
export async function converseStream(auth: AuthContext, body: ConversationBody): Promise<AsyncIterable<CopilotStreamEvent>> {
  const prepared = await prepare(auth, body);
  return (async function* () {
    yield { type: 'start', conversationId: prepared.conversation.conversationId, model: prepared.model.label } as const;
    let content = '';
    try {
      for await (const text of prepared.model.stream(prepared.request)) {
        content += text;
        yield { type: 'token', text } as const;
      }
      if (!content) throw new Error('empty reply');
    } catch (error) {
      modelFailure(error);
      yield { type: 'error', message: COPILOT_MESSAGES.chatFailure } as const;
      return;
    }
    yield { type: 'done', message: await storeReply(auth, prepared, content) } as const;
  })();
}

export async function listConversations(auth: AuthContext, query: ConversationListQuery): Promise<ConversationListResponse> {
  const all = await queryConversations(auth.practiceId, auth.userId, query.patientId);
  const keyword = query.keyword?.toLowerCase();
  const matching = keyword ? all.filter((c) => c.searchText.includes(keyword) || c.summary.toLowerCase().includes(keyword)) : all;
  const page = matching.slice(query.offset, query.offset + query.limit);
  // Summaries quote what was asked about a patient: each patient shown is in its access history.
  await writeAuditForPatients(
    auth,
    { action: 'list', entity: 'copilot-conversation', count: page.length },
    page.map((c) => c.patientId),
  );
  return { conversations: page.map(publicConversation), offset: query.offset, limit: query.limit, total: matching.length };
}

export async function listConversationMessages(
  auth: AuthContext,
  conversationId: string,
  query: ConversationMessagesQuery,
): Promise<ConversationMessagesResponse> {
  const conversation = await ownConversation(auth, conversationId);
  if (!conversation) throw new NotFoundError(COPILOT_MESSAGES.conversationNotFound);
  const page = await queryMessages(auth.practiceId, conversationId, query.offset, query.limit);
  await writeAuditForPatients(auth, { action: 'read', entity: 'copilot-conversation', count: page.messages.length }, [conversation.patientId]);
  return { messages: page.messages, offset: query.offset, limit: query.limit, hasMore: page.hasMore };
}
