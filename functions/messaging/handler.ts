import {
  AddParticipantsBody,
  ConversationIdParams,
  ConversationListQuery,
  MarkConversationBody,
  MessageListQuery,
  ParticipantParams,
  SmsHistoryQuery,
} from '../../shared/messaging/messaging-schema.js';
import { groupHandler, lazyRoutes, route } from '../lib/http/group-handler.js';
import {
  addParticipants,
  listConversations,
  listMessages,
  markRead,
  markUnread,
  readConversation,
  removeParticipant,
  setArchived,
  smsHistory,
  unreadCount,
} from '../core/messaging/conversations.js';
import { MESSAGING_ROUTES, SCHEDULED_EVENT_ROUTE_KEYS, SEND_ROUTE_KEYS } from './routes.js';

export const handler = groupHandler(MESSAGING_ROUTES, {
  'GET /sms': route({ query: SmsHistoryQuery, permission: 'sms.send', run: ({ auth, query }) => smsHistory(auth, query) }),
  'GET /v1/messaging/conversations': route({ query: ConversationListQuery, permission: 'sms.send', run: ({ auth, query }) => listConversations(auth, query) }),
  'GET /v1/messaging/conversations/unread-count': route({ permission: 'sms.send', run: ({ auth }) => unreadCount(auth) }),
  'GET /v1/messaging/conversations/{id}': route({
    params: ConversationIdParams,
    permission: 'sms.send',
    run: ({ auth, params }) => readConversation(auth, params.id),
  }),
  'GET /v1/messaging/conversations/{id}/messages': route({
    params: ConversationIdParams,
    query: MessageListQuery,
    permission: 'sms.send',
    run: ({ auth, params, query }) => listMessages(auth, params.id, query),
  }),
  'PUT /v1/messaging/conversations/{id}/mark-as-read': route({
    params: ConversationIdParams,
    permission: 'sms.send',
    run: ({ auth, params }) => markRead(auth, params.id),
  }),
  'PUT /v1/messaging/conversations/{id}/mark-as-unread': route({
    params: ConversationIdParams,
    body: MarkConversationBody,
    permission: 'sms.send',
    run: ({ auth, params, body }) => markUnread(auth, params.id, body.messageIds),
  }),
  'PUT /v1/messaging/conversations/{id}/archive': route({
    params: ConversationIdParams,
    permission: 'sms.send',
    run: ({ auth, params }) => setArchived(auth, params.id, true),
  }),
  'PUT /v1/messaging/conversations/{id}/unarchive': route({
    params: ConversationIdParams,
    permission: 'sms.send',
    run: ({ auth, params }) => setArchived(auth, params.id, false),
  }),
  'POST /v1/messaging/conversations/{id}/participants': route({
    params: ConversationIdParams,
    body: AddParticipantsBody,
    permission: 'sms.send',
    run: ({ auth, params, body }) => addParticipants(auth, params.id, body),
  }),
  'DELETE /v1/messaging/conversations/{id}/participants/{participantId}': route({
    params: ParticipantParams,
    permission: 'sms.send',
    run: ({ auth, params }) => removeParticipant(auth, params.id, params.participantId),
  }),
  // Texting and scheduled events load on their first request: the hub's polling reads stay light.
  ...lazyRoutes(SEND_ROUTE_KEYS, () => import('./send-routes.js').then((m) => m.SEND_ROUTES)),
  ...lazyRoutes(SCHEDULED_EVENT_ROUTE_KEYS, () => import('./scheduled-routes.js').then((m) => m.SCHEDULED_EVENT_ROUTES)),
});
