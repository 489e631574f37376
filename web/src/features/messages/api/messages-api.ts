import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import {
  Conversation,
  ConversationList,
  CreateConversationResult,
  MESSAGING_PATHS,
  MessageList,
  SCHEDULED_SMS,
  ScheduledEvent,
  ScheduledEventList,
  SendMessageResult,
  type SmsAttachment,
} from '../../../../../shared/messaging/messaging-schema.js';
import { apiRequest } from '../../../lib/api-client.js';
import { messagingKeys, type ConversationListParams } from '../../../lib/messaging.js';

export { CONVERSATION_PAGE_SIZE } from '../../../../../shared/messaging/messaging-constants.js';
export type { Conversation, MessageList, ScheduledEvent, SmsMessage } from '../../../../../shared/messaging/messaging-schema.js';

export function useConversationList(params: ConversationListParams) {
  return useQuery({
    queryKey: messagingKeys.conversationList(params),
    queryFn: async ({ signal }) =>
      await apiRequest(
        { path: MESSAGING_PATHS.conversations, query: { offset: params.offset, search: params.search || undefined, filter: params.view }, signal },
        ConversationList,
      ),
    placeholderData: keepPreviousData,
  });
}

/** The conversation of one patient phone and one practice phone, created on first use. */
export function useConversation(patientPhone: string | null, practicePhone: string | null) {
  return useQuery({
    queryKey: messagingKeys.conversation(patientPhone ?? '', practicePhone ?? ''),
    queryFn: () => messagesApi.openConversation(patientPhone ?? '', practicePhone ?? ''),
    enabled: Boolean(patientPhone && practicePhone),
    staleTime: 30_000,
  });
}

export function useConversationMessages(conversationId: string | undefined) {
  return useQuery({
    queryKey: messagingKeys.messages(conversationId ?? ''),
    queryFn: async ({ signal }) => await apiRequest({ path: MESSAGING_PATHS.messages(conversationId ?? ''), query: { limit: 100 }, signal }, MessageList),
    enabled: Boolean(conversationId),
    // A chat opened again shows what arrived meanwhile, not the copy from the last visit.
    staleTime: 0,
  });
}

/** How close to its time a scheduled text is watched: its send shows without a reload. */
const DUE_SOON_MS = 60_000;
const DUE_POLL_MS = 2_000;

/** Active or past scheduled texts; while one is due within a minute the list is asked again every 2 s. */
export function useScheduledEvents(filters: { patientId?: string; to?: string; from?: string; status?: string }, enabled = true) {
  return useQuery({
    queryKey: messagingKeys.scheduledFor(filters),
    queryFn: async ({ signal }) =>
      await apiRequest({ path: MESSAGING_PATHS.scheduledEvents, query: { service: SCHEDULED_SMS.service, ...filters }, signal }, ScheduledEventList),
    enabled,
    refetchInterval: (query) =>
      query.state.data?.events.some((e) => (e.status === 'active' || e.status === 'processing') && Date.parse(e.when) - Date.now() < DUE_SOON_MS)
        ? DUE_POLL_MS
        : false,
  });
}

export const scheduledEventQuery = (eventId: string) =>
  queryOptions({
    queryKey: messagingKeys.scheduledEvent(eventId),
    queryFn: async ({ signal }) => await apiRequest({ path: MESSAGING_PATHS.scheduledEvent(eventId), signal }, ScheduledEvent),
    // A cancelled event is no longer served: once the page holds the cancel's answer, nothing asks
    // again, or the next live text's refresh of the messaging lists would turn it into "not found".
    enabled: (query) => query.state.data?.status !== 'deleted',
    refetchInterval: (query) => {
      const e = query.state.data;
      return e && (e.status === 'active' || e.status === 'processing') && Date.parse(e.when) - Date.now() < DUE_SOON_MS ? DUE_POLL_MS : false;
    },
  });

export function useScheduledEvent(eventId: string) {
  return useQuery(scheduledEventQuery(eventId));
}

/** The note and patient schemas come only with the rare answers that need them, not with the messages screen. */
const noteSchema = async () => (await import('../../../../../shared/notes/note-schema.js')).Note;
const hipaaResponses = () => import('../../../../../shared/patients/hipaa-responses.js');

export const messagesApi = {
  openConversation: async (patientPhoneNumber: string, practicePhoneNumber: string) =>
    (await apiRequest({ method: 'POST', path: MESSAGING_PATHS.conversations, body: { patientPhoneNumber, practicePhoneNumber } }, CreateConversationResult))
      .conversation,
  send: async (conversationId: string, body: { text: string; files?: SmsAttachment[]; from?: string; patientId?: string }) =>
    await apiRequest({ method: 'POST', path: MESSAGING_PATHS.messages(conversationId), body }, SendMessageResult),
  markRead: (conversationId: string, body: { messageIds?: string[] } = {}) =>
    apiRequest({ method: 'PUT', path: MESSAGING_PATHS.markAsRead(conversationId), body }, Conversation),
  markUnread: (conversationId: string, body: { messageIds?: string[] } = {}) =>
    apiRequest({ method: 'PUT', path: MESSAGING_PATHS.markAsUnread(conversationId), body }, Conversation),
  archive: (conversationId: string) => apiRequest({ method: 'PUT', path: MESSAGING_PATHS.archive(conversationId), body: {} }, Conversation),
  unarchive: (conversationId: string) => apiRequest({ method: 'PUT', path: MESSAGING_PATHS.unarchive(conversationId), body: {} }, Conversation),
  /** Spec shell §4: each selected text becomes a DELIVERED SMS note in the chosen patient's chart. */
  addToChart: (body: { patientId: string; from: string; to: string; text: string; timestamp: string; files?: SmsAttachment[] }) =>
    apiRequest(
      {
        method: 'POST',
        path: '/v2/notes',
        body: {
          noteId: 'new',
          noteType: 'SMS',
          status: 'DELIVERED',
          patientId: body.patientId,
          eventTimestamp: body.timestamp,
          data: { from: body.from, to: body.to, text: body.text },
          files: (body.files ?? []).map((f) => ({ key: f.key, name: f.name, contentType: f.contentType, size: f.size })),
        },
      },
      noteSchema,
    ),
  schedule: async (body: { when: string; patientId: string; from: string; to: string; text: string }) =>
    await apiRequest(
      {
        method: 'POST',
        path: MESSAGING_PATHS.scheduledEvents,
        body: {
          when: body.when,
          eventType: SCHEDULED_SMS.eventType,
          service: SCHEDULED_SMS.service,
          operationId: SCHEDULED_SMS.operationId,
          operationVersion: SCHEDULED_SMS.operationVersion,
          invocations: SCHEDULED_SMS.invocations,
          request: { noteType: SCHEDULED_SMS.noteType, patientId: body.patientId, status: 'SIGNED', data: { from: body.from, to: body.to, text: body.text } },
        },
      },
      ScheduledEvent,
    ),
  reschedule: async (eventId: string, when: string) =>
    await apiRequest({ method: 'PUT', path: MESSAGING_PATHS.scheduledEvent(eventId), body: { when } }, ScheduledEvent),
  /** Each text is an SMS note: deleting one removes it from the conversation and the chart. */
  deleteMessage: (noteId: string) => apiRequest({ method: 'DELETE', path: `/v1/notes/${encodeURIComponent(noteId)}` }, noteSchema),
  /** The cancelled event (status deleted); reading it again afterwards answers 404. */
  cancelScheduled: async (eventId: string) => await apiRequest({ method: 'DELETE', path: MESSAGING_PATHS.scheduledEvent(eventId) }, ScheduledEvent),
  acceptWaiver: (patientId: string) =>
    apiRequest(
      { method: 'POST', path: `/v1/patients/${encodeURIComponent(patientId)}/accept_hipaa_authorization`, body: {} },
      async () => (await hipaaResponses()).HipaaAccepted,
    ),
  requestWaiver: (patientId: string) =>
    apiRequest(
      { method: 'POST', path: `/v1/patients/${encodeURIComponent(patientId)}/patient_documents/request_acceptance`, body: {} },
      async () => (await hipaaResponses()).HipaaAcceptanceRequested,
    ),
};
