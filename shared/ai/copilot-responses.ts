/**
 * What the Copilot endpoints answer, read by the web client (the server builds these answers from
 * the interfaces in copilot-schema.ts).
 */
import * as z from '../zod.js';
import { COPILOT_ROLES } from './copilot-schema.js';

const CopilotMessageRecord = z.object({
  ident: z.string(),
  role: z.enum(COPILOT_ROLES),
  content: z.string(),
  timestamp: z.string(),
  createdAt: z.string(),
});

const CopilotConversationRecord = z.object({
  conversationId: z.string(),
  summary: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  patientId: z.optional(z.nullable(z.string())),
});

/** GET /v1/ai/conversations: one page of the user's conversations. */
export const ConversationListAnswer = z.object({
  conversations: z.array(CopilotConversationRecord),
  offset: z.number(),
  limit: z.number(),
  total: z.number(),
});

/** GET /v1/ai/conversations/{id}/messages: one page, counted back from the newest message. */
export const ConversationMessagesAnswer = z.object({
  messages: z.array(CopilotMessageRecord),
  offset: z.number(),
  limit: z.number(),
  hasMore: z.boolean(),
});

/** POST /v1/ai/conversation: the whole reply at once, with the model that answered. */
export const ConversationReplyAnswer = z.object({
  conversationId: z.string(),
  content: z.string(),
  message: CopilotMessageRecord,
  model: z.object({ name: z.string(), local: z.boolean() }),
});
