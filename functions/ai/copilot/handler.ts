import {
  ConversationBody,
  ConversationIdParams,
  ConversationListQuery,
  ConversationMessagesQuery,
  encodeStreamEvent,
} from '../../../shared/ai/copilot-schema.js';
import { route, type RouteTable } from '../../lib/http/group-handler.js';
import { StreamedResult } from '../../lib/http/response-stream.js';
import { converse, converseStream, listConversationMessages, listConversations } from './conversations.js';
import type { CopilotRouteKey } from './routes.js';

async function* sse(events: AsyncIterable<Parameters<typeof encodeStreamEvent>[0]>): AsyncIterable<string> {
  for await (const event of events) yield encodeStreamEvent(event);
}

/** Any member of the practice may chat; each sees only their own conversations. */
export const COPILOT_HANDLERS: RouteTable<CopilotRouteKey> = {
  'POST /v1/ai/conversation': route({ body: ConversationBody, run: ({ auth, body }) => converse(auth, body) }),
  'POST /v1/ai/conversation/stream': route({
    body: ConversationBody,
    run: async ({ auth, body }) => new StreamedResult(sse(await converseStream(auth, body))),
  }),
  'GET /v1/ai/conversations': route({ query: ConversationListQuery, run: ({ auth, query }) => listConversations(auth, query) }),
  'GET /v1/ai/conversations/{id}/messages': route({
    params: ConversationIdParams,
    query: ConversationMessagesQuery,
    run: ({ auth, params, query }) => listConversationMessages(auth, params.id, query),
  }),
};
