/**
 * The Copilot chat's contract between the browser and the ai endpoint group (spec shell §2.8,
 * §3 Copilot message / Conversation / Patient profile for Copilot, §4 Copilot send status, §7.1, §9).
 */
import * as z from '../zod.js';
import { LIMITS } from '../limits.js';

/** Spec shell §9: Copilot and lists. */
export const COPILOT = {
  pageSize: 25,
  historySearchDebounceMs: 500,
  loadMoreMargins: [80, 90],
  loadMoreDelayMs: 300,
  windowHeight: 600,
  nearBottomPx: 64,
  historyPanelWidth: '34%',
  textareaMaxHeightPx: 120,
} as const;

/** Spec texts of the Copilot chat (shell §2.8, §4, §7.1, §8; notes §8). */
export const COPILOT_MESSAGES = {
  title: 'Copilot Chat',
  titleWithPatient: (name: string, age: number | null) => (age === null ? `Copilot Chat - ${name}` : `Copilot Chat - ${name} (${age})`),
  placeholderWithPatient: (name: string) => `Ask Copilot about ${name}`,
  placeholder: 'Ask Copilot',
  searchPlaceholder: 'Search for chats',
  recent: 'Recent',
  noConversations: 'No conversations found.',
  chatFailure: 'Error: Failed to get response. Please try again.',
  listFailure: 'Failed to load conversations',
  notConfigured: 'ECS AI endpoint not configured',
  /** Not in the spec: shown in the window before anyone types when the practice has no model. */
  noModel:
    'Copilot has no AI model set up for this practice, so it cannot answer yet. An administrator can add one to the practice configuration (ai.modelId).',
  greeting:
    "Hi, I'm Copilot, an AI clinical assistant. I can help you draft messages, review notes, prep for visits and work through care decisions. How can I help you?",
  conversationNotFound: 'Conversation not found',
  lastMessageFromUser: 'The last message must be from the user',
} as const;

/** Spec shell §4 Copilot send status. */
export const COPILOT_SEND_STATUSES = ['ready', 'submitted', 'streaming', 'error'] as const;
export type CopilotSendStatus = (typeof COPILOT_SEND_STATUSES)[number];

export const COPILOT_ROLES = ['user', 'assistant'] as const;
export type CopilotRole = (typeof COPILOT_ROLES)[number];

/** A chat message's text: long enough for a pasted note, far under the 400 KB item limit. */
export const COPILOT_MESSAGE_MAX = 20_000;
/** Messages a client may send in one call (the model sees the most recent of them). */
export const COPILOT_MESSAGES_MAX = 100;

export const AI_COPILOT_ROUTE_KEYS = [
  'POST /v1/ai/conversation',
  'POST /v1/ai/conversation/stream',
  'GET /v1/ai/conversations',
  'GET /v1/ai/conversations/{id}/messages',
] as const;

export const COPILOT_PATHS = {
  conversation: '/v1/ai/conversation',
  stream: '/v1/ai/conversation/stream',
  conversations: '/v1/ai/conversations',
  messages: (id: string) => `/v1/ai/conversations/${encodeURIComponent(id)}/messages`,
} as const;

const id = z.string().check(z.trim(), z.minLength(1), z.maxLength(LIMITS.id), z.regex(/^[A-Za-z0-9_-]+$/, 'must hold only letters, digits, - and _'));

export const CopilotChatMessage = z.object({
  role: z.enum(COPILOT_ROLES),
  content: z.string().check(z.maxLength(COPILOT_MESSAGE_MAX)),
});
export type CopilotChatMessage = z.infer<typeof CopilotChatMessage>;

/** Spec shell §3 Conversation message call: conversationId, messages, entryPointPath, patientId. */
export const ConversationBody = z
  .object({
    conversationId: id,
    messages: z.array(CopilotChatMessage).check(z.minLength(1), z.maxLength(COPILOT_MESSAGES_MAX)),
    entryPointPath: z.optional(z.string().check(z.maxLength(LIMITS.shortText))),
    patientId: z.nullish(id),
  })
  .check(
    z.superRefine((v, ctx) => {
      const last = v.messages[v.messages.length - 1];
      // Spec shell §5: blank input is never sent; the server refuses it too.
      if (!last || last.role !== 'user' || last.content.trim() === '') {
        ctx.addIssue({ code: 'custom', path: ['messages'], message: COPILOT_MESSAGES.lastMessageFromUser });
      }
    }),
  );
export type ConversationBody = z.infer<typeof ConversationBody>;

const offset = z._default(z.coerce.number().check(z.int(), z.gte(0), z.lte(100_000)), 0);
const limit = z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(COPILOT.pageSize)), COPILOT.pageSize);

export const ConversationListQuery = z.object({
  patientId: z.optional(id),
  keyword: z.optional(z.string().check(z.trim(), z.maxLength(200))),
  offset,
  limit,
});
export type ConversationListQuery = z.infer<typeof ConversationListQuery>;

export const ConversationMessagesQuery = z.object({ offset, limit });
export type ConversationMessagesQuery = z.infer<typeof ConversationMessagesQuery>;

export const ConversationIdParams = z.object({ id });

/** Spec shell §3 Copilot message: ident, role, content, timestamp; the server message has createdAt. */
export interface CopilotMessage {
  ident: string;
  role: CopilotRole;
  content: string;
  timestamp: string;
  createdAt: string;
}

/** Spec shell §3 Conversation: conversationId, summary, createdAt. */
export interface CopilotConversation {
  conversationId: string;
  summary: string;
  createdAt: string;
  updatedAt: string;
  patientId?: string | null;
}

export interface ConversationListResponse {
  conversations: CopilotConversation[];
  offset: number;
  limit: number;
  total: number;
}

/** Newest page first: `offset` counts back from the latest message; each page is in time order. */
export interface ConversationMessagesResponse {
  messages: CopilotMessage[];
  offset: number;
  limit: number;
  hasMore: boolean;
}

/** What answered: a deployed model, or a local stand-in that says so (`local`). */
export interface CopilotModelLabel {
  name: string;
  local: boolean;
}

export interface ConversationReply {
  conversationId: string;
  content: string;
  message: CopilotMessage;
  model: CopilotModelLabel;
}

/**
 * The streamed reply is server-sent events, one JSON object per `data:` line: `start` (the model),
 * `token` (text to append), then `done` (the stored message) or `error` (what to show).
 */
export type CopilotStreamEvent =
  | { type: 'start'; conversationId: string; model: CopilotModelLabel }
  | { type: 'token'; text: string }
  | { type: 'done'; message: CopilotMessage }
  | { type: 'error'; message: string };

export function encodeStreamEvent(event: CopilotStreamEvent): string {
  return `data: ${JSON.stringify(event)}\n\n`;
}

/** Splits a growing SSE buffer into complete events and the unfinished rest. */
export function decodeStreamEvents(buffer: string): { events: CopilotStreamEvent[]; rest: string } {
  const events: CopilotStreamEvent[] = [];
  const parts = buffer.split('\n\n');
  const rest = parts.pop() ?? '';
  for (const part of parts) {
    const data = part
      .split('\n')
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).trimStart())
      .join('\n');
    if (!data) continue;
    try {
      events.push(JSON.parse(data) as CopilotStreamEvent);
    } catch {
      // A line that is not one of ours (a proxy's comment) is skipped, not fatal.
    }
  }
  return { events, rest };
}

/** Spec shell §3 Patient profile for Copilot. */
export interface CopilotPatientProfile {
  patientId: string;
  firstName: string;
  lastName: string;
  fullName: string;
  age: number | null;
}

/** The message the browser adds once to a new conversation that has a patient in context (spec shell §4). */
export function patientContextMessage(p: CopilotPatientProfile): string {
  return `Patient in context: ${p.fullName}${p.age === null ? '' : ` (${p.age})`}.`;
}
