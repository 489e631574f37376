/** The messaging routes that text, loaded with the first of them a container serves (handler.ts). */
import { ConversationIdParams, CreateConversationBody, SendMessageBody } from '../../shared/messaging/messaging-schema.js';
import { route } from '../lib/http/group-handler.js';
import type { SEND_ROUTE_KEYS } from './routes.js';
import { createConversation, sendMessage } from './send-messages.js';

export const SEND_ROUTES = {
  'POST /v1/messaging/conversations': route({
    body: CreateConversationBody,
    permission: 'sms.send',
    run: ({ auth, body }) => createConversation(auth, body),
  }),
  'POST /v1/messaging/conversations/{id}/messages': route({
    params: ConversationIdParams,
    body: SendMessageBody,
    permission: 'sms.send',
    status: 201,
    run: ({ auth, params, body }) => sendMessage(auth, params.id, body),
  }),
} satisfies Record<(typeof SEND_ROUTE_KEYS)[number], unknown>;
