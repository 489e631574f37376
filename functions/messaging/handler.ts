import {
  AddParticipantsBody,
  ConversationIdParams,
  ConversationListQuery,
  CreateConversationBody,
  MarkConversationBody,
  MessageListQuery,
  ParticipantParams,
  ScheduledEventCreateBody,
  ScheduledEventIdParams,
  ScheduledEventListQuery,
  ScheduledEventUpdateBody,
  SendMessageBody,
  SmsHistoryQuery,
} from '../../shared/messaging/messaging-schema.js';
import { groupHandler, route } from '../lib/http/group-handler.js';
import {
  addParticipants,
  createConversation,
  listConversations,
  listMessages,
  markRead,
  markUnread,
  readConversation,
  removeParticipant,
  sendMessage,
  setArchived,
  smsHistory,
  unreadCount,
} from './conversations.js';
import { MESSAGING_ROUTES } from './routes.js';
import { cancelScheduledEvent, createScheduledEvent, listScheduledEvents, readScheduledEvent, rescheduleEvent } from './scheduled-events.js';

export const handler = groupHandler(MESSAGING_ROUTES, {
  'GET /sms': route({ query: SmsHistoryQuery, permission: 'sms.send', run: ({ auth, query }) => smsHistory(auth, query) }),
  'GET /v1/messaging/conversations': route({ query: ConversationListQuery, permission: 'sms.send', run: ({ auth, query }) => listConversations(auth, query) }),
  'POST /v1/messaging/conversations': route({
    body: CreateConversationBody,
    permission: 'sms.send',
    run: ({ auth, body }) => createConversation(auth, body),
  }),
  'GET /v1/messaging/conversations/unread-count': route({ permission: 'sms.send', run: () => unreadCount() }),
  'GET /v1/messaging/conversations/{id}': route({ params: ConversationIdParams, permission: 'sms.send', run: ({ auth, params }) => readConversation(auth, params.id) }),
  'GET /v1/messaging/conversations/{id}/messages': route({
    params: ConversationIdParams,
    query: MessageListQuery,
    permission: 'sms.send',
    run: ({ auth, params, query }) => listMessages(auth, params.id, query),
  }),
  'POST /v1/messaging/conversations/{id}/messages': route({
    params: ConversationIdParams,
    body: SendMessageBody,
    permission: 'sms.send',
    status: 201,
    run: ({ auth, params, body }) => sendMessage(auth, params.id, body),
  }),
  'PUT /v1/messaging/conversations/{id}/mark-as-read': route({ params: ConversationIdParams, permission: 'sms.send', run: ({ auth, params }) => markRead(auth, params.id) }),
  'PUT /v1/messaging/conversations/{id}/mark-as-unread': route({
    params: ConversationIdParams,
    body: MarkConversationBody,
    permission: 'sms.send',
    run: ({ auth, params, body }) => markUnread(auth, params.id, body.messageIds),
  }),
  'PUT /v1/messaging/conversations/{id}/archive': route({ params: ConversationIdParams, permission: 'sms.send', run: ({ auth, params }) => setArchived(auth, params.id, true) }),
  'PUT /v1/messaging/conversations/{id}/unarchive': route({ params: ConversationIdParams, permission: 'sms.send', run: ({ auth, params }) => setArchived(auth, params.id, false) }),
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
  'GET /v1/scheduled-events': route({ query: ScheduledEventListQuery, permission: 'sms.send', run: ({ auth, query }) => listScheduledEvents(auth, query) }),
  'POST /v1/scheduled-events': route({
    body: ScheduledEventCreateBody,
    permission: 'sms.send',
    status: 201,
    run: ({ auth, body }) => createScheduledEvent(auth, body),
  }),
  'GET /v1/scheduled-events/{id}': route({ params: ScheduledEventIdParams, permission: 'sms.send', run: ({ auth, params }) => readScheduledEvent(auth, params.id) }),
  'PUT /v1/scheduled-events/{id}': route({
    params: ScheduledEventIdParams,
    body: ScheduledEventUpdateBody,
    run: ({ auth, params, body }) => rescheduleEvent(auth, params.id, body.when),
  }),
  'DELETE /v1/scheduled-events/{id}': route({ params: ScheduledEventIdParams, run: ({ auth, params }) => cancelScheduledEvent(auth, params.id) }),
});
