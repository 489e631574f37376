import {
  MESSAGING_MESSAGES,
  type AddParticipantsBody,
  type Conversation,
  type ConversationList,
  type ConversationListQuery,
  type MessageList,
  type MessageListQuery,
  type MessagingUnreadCount,
  type Participant,
  type SmsHistory,
  type SmsHistoryQuery,
} from '../../../shared/messaging/messaging-schema.js';
import { matchPhone } from '../../../shared/patients/phone.js';
import { writeAuditForPatients } from '../../lib/audit/audit-repository.js';
import type { AuthContext } from '../../lib/auth/auth-context.js';
import { ConflictError, NotFoundError, ValidationError } from '../../lib/errors.js';
import { setConversationStatus } from '../notifications/conversation-status.js';
import { updateNotification } from '../../data/notifications/notification-repository.js';
import { getPatient } from '../../data/patients/patient-repository.js';
import { getUser } from '../../data/users/user-repository.js';
import {
  getConversation,
  getConversationCounts,
  getOptOut,
  getOptOuts,
  listConversationPage,
  listConversationRecords,
  listSmsNotesByPhone,
  messageFromNote,
  putConversation,
  setParticipants,
  type ConversationRecord,
  smsDataOf,
  toConversation,
} from '../../data/messaging/messaging-repository.js';

/** The sender as the note's author: the practice's name for the user (a token need not carry one). */
export async function senderOf(auth: AuthContext) {
  const user = await getUser(auth.practiceId, auth.userId);
  return { userId: auth.userId, name: user?.name.trim() || auth.name, ...(auth.email ? { email: auth.email } : {}) };
}

export async function requireConversation(auth: AuthContext, id: string): Promise<ConversationRecord> {
  const c = await getConversation(auth.practiceId, id);
  if (!c) throw new NotFoundError(MESSAGING_MESSAGES.conversationNotFound);
  return c;
}

export const withOptOut = async (auth: AuthContext, c: ConversationRecord): Promise<Conversation> =>
  toConversation(c, await getOptOut(c.patientPhoneNumber, auth.practiceId));

export const auditConversation = (
  auth: AuthContext,
  action: 'read' | 'create' | 'update',
  c: Pick<ConversationRecord, 'conversationId' | 'patientIds'>,
  entity = 'sms-conversation',
) => writeAuditForPatients(auth, { action, entity, ...(c.patientIds.length === 0 ? { entityId: c.conversationId } : {}) }, c.patientIds);

function matchesFilter(c: ConversationRecord, filter: ConversationListQuery['filter']): boolean {
  if (filter === 'archived') return c.archived;
  if (c.archived) return false;
  if (filter === 'unread') return c.readStatus === 'UNREAD';
  if (filter === 'read') return c.readStatus === 'READ';
  return true;
}

function matchesSearch(c: ConversationRecord, search: string | undefined): boolean {
  if (!search) return true;
  const q = search.toLowerCase();
  return !!matchPhone(search, c.patientPhoneNumber) || c.patientNames.some((n) => n.toLowerCase().includes(q));
}

/** GET /v1/messaging/conversations: most recent first, offset/limit/search (spec shell §7.5) and the hub's filter. */
export async function listConversations(auth: AuthContext, query: ConversationListQuery): Promise<ConversationList> {
  // A tab is one Query page of its own partition, its total one item, read together; a search by a
  // fragment of a name or number has no key to read and filters every conversation.
  let page: ConversationRecord[];
  let total: number;
  const [counts, tabPage] = query.search
    ? [null, null]
    : await Promise.all([getConversationCounts(auth.practiceId), listConversationPage(query.filter, query.offset, query.limit)]);
  if (counts && tabPage) {
    page = tabPage;
    total = counts[query.filter];
  } else {
    const all = (await listConversationRecords()).filter((c) => matchesFilter(c, query.filter) && matchesSearch(c, query.search));
    page = all.slice(query.offset, query.offset + query.limit);
    total = all.length;
  }
  // The page's opt-outs and its access-history entries go out together: one round trip, not two.
  const [optOutOf] = await Promise.all([
    getOptOuts(
      page.map((c) => c.patientPhoneNumber),
      auth.practiceId,
    ),
    writeAuditForPatients(
      auth,
      { action: 'list', entity: 'sms-conversation', count: page.length },
      page.flatMap((c) => c.patientIds),
    ),
  ]);
  return { conversations: page.map((c) => toConversation(c, optOutOf(c.patientPhoneNumber))), total, offset: query.offset, limit: query.limit };
}

export async function readConversation(auth: AuthContext, id: string): Promise<Conversation> {
  const c = await requireConversation(auth, id);
  await auditConversation(auth, 'read', c);
  return withOptOut(auth, c);
}

/** GET …/messages: the newest page before `before`, oldest first, with each text's delivery status. */
export async function listMessages(auth: AuthContext, id: string, query: MessageListQuery): Promise<MessageList> {
  const c = await requireConversation(auth, id);
  const notes = await listSmsNotesByPhone(c.patientPhoneNumber, { before: query.before, practicePhone: c.practicePhoneNumber, max: query.limit + 1 });
  const messages = notes
    .slice(0, query.limit)
    .map((n) => messageFromNote(n, c.lastReadAt))
    .reverse();
  await writeAuditForPatients(auth, { action: 'read', entity: 'sms-message', count: messages.length }, [...c.patientIds, ...messages.map((m) => m.patientId)]);
  return { messages, hasMore: notes.length > query.limit, conversation: await withOptOut(auth, c) };
}

/** GET /sms?phoneNumber=&before= (spec shell §7.5): one phone's texts with every practice number. */
export async function smsHistory(auth: AuthContext, query: SmsHistoryQuery): Promise<SmsHistory> {
  const notes = await listSmsNotesByPhone(query.phoneNumber, { before: query.before, max: query.limit + 1 });
  const reads = new Map<string, string>();
  for (const n of notes) {
    const cid = smsDataOf(n).conversationId;
    if (!reads.has(cid)) reads.set(cid, (await getConversation(auth.practiceId, cid))?.lastReadAt ?? '');
  }
  const messages = notes
    .slice(0, query.limit)
    .map((n) => messageFromNote(n, reads.get(smsDataOf(n).conversationId) ?? ''))
    .reverse();
  await writeAuditForPatients(
    auth,
    { action: 'read', entity: 'sms-message', count: messages.length },
    messages.map((m) => m.patientId),
  );
  return { messages, hasMore: notes.length > query.limit, optOut: await getOptOut(query.phoneNumber, auth.practiceId) };
}

const pair = (c: ConversationRecord) => ({ from: c.patientPhoneNumber, to: c.practicePhoneNumber });

/** PUT …/mark-as-read: the conversation and its SMS notifications become READ (spec shell §4). */
export async function markRead(auth: AuthContext, id: string): Promise<Conversation> {
  const c = await requireConversation(auth, id);
  const next: ConversationRecord = { ...c, readStatus: 'READ', unreadCount: 0, lastReadAt: new Date().toISOString() };
  await putConversation(auth.practiceId, next);
  await setConversationStatus(auth, 'read', pair(c), c.conversationId);
  await auditConversation(auth, 'update', c);
  return withOptOut(auth, next);
}

/** PUT …/mark-as-unread { messageIds? }: the selected texts (default: the last inbound one) and later ones are UNREAD again. */
export async function markUnread(auth: AuthContext, id: string, messageIds: readonly string[] | undefined): Promise<Conversation> {
  const c = await requireConversation(auth, id);
  const inbound = (await listSmsNotesByPhone(c.patientPhoneNumber, { practicePhone: c.practicePhoneNumber, max: 500 })).filter(
    (n) => smsDataOf(n).direction === 'inbound',
  );
  const chosen = messageIds?.length ? inbound.filter((n) => messageIds.includes(n.noteId)) : inbound.slice(0, 1);
  if (messageIds?.length && chosen.length === 0) throw new ValidationError(MESSAGING_MESSAGES.markUnreadError);
  if (chosen.length === 0) return withOptOut(auth, c);
  const earliest = chosen.map((n) => smsDataOf(n).timestamp).sort()[0]!;
  const lastReadAt = new Date(Date.parse(earliest) - 1).toISOString();
  const unread = inbound.filter((n) => smsDataOf(n).timestamp > lastReadAt);
  const next: ConversationRecord = { ...c, readStatus: 'UNREAD', unreadCount: unread.length, lastReadAt };
  await putConversation(auth.practiceId, next);
  for (const n of unread) {
    const notificationId = smsDataOf(n).notificationId;
    if (!notificationId) continue;
    try {
      await updateNotification(auth.practiceId, notificationId, { notificationStatus: 'UNREAD' }, auth);
    } catch (error) {
      if (!(error instanceof ConflictError || error instanceof NotFoundError)) throw error;
    }
  }
  await auditConversation(auth, 'update', c);
  return withOptOut(auth, next);
}

/** PUT …/archive and …/unarchive: archiving sets the SMS notifications COMPLETED, unarchiving READ (spec shell §4). */
export async function setArchived(auth: AuthContext, id: string, archived: boolean): Promise<Conversation> {
  const c = await requireConversation(auth, id);
  const next: ConversationRecord = archived
    ? { ...c, archived: true }
    : { ...c, archived: false, readStatus: 'READ', unreadCount: 0, lastReadAt: new Date().toISOString() };
  await putConversation(auth.practiceId, next);
  await setConversationStatus(auth, archived ? 'archive' : 'unarchive', pair(c), c.conversationId);
  await auditConversation(auth, 'update', c);
  return withOptOut(auth, next);
}

/** GET …/unread-count: conversations with unread texts (not archived) and their unread texts. */
export async function unreadCount(auth: AuthContext): Promise<MessagingUnreadCount> {
  const counts = await getConversationCounts(auth.practiceId);
  if (counts) return { conversations: counts.unread, messages: counts.unreadMessages };
  const unread = (await listConversationRecords()).filter((c) => !c.archived && c.readStatus === 'UNREAD');
  return { conversations: unread.length, messages: unread.reduce((sum, c) => sum + Math.max(c.unreadCount, 1), 0) };
}

/** POST …/participants: users, patients or contacts who follow the conversation; adding one twice keeps one. */
export async function addParticipants(auth: AuthContext, id: string, body: AddParticipantsBody): Promise<Conversation> {
  const c = await requireConversation(auth, id);
  const at = new Date().toISOString();
  const participants: Participant[] = [...c.participants];
  for (const p of body.participants) {
    if (p.type === 'user' && !(await getUser(auth.practiceId, p.refId)))
      throw new ValidationError('The user is not a member of this practice', { participants: 'unknown user' });
    if (p.type === 'patient' && !(await getPatient(auth.practiceId, p.refId)))
      throw new ValidationError(MESSAGING_MESSAGES.patientNotFound, { participants: 'unknown patient' });
    const participantId = `${p.type}-${p.refId}`;
    if (!participants.some((x) => x.participantId === participantId))
      participants.push({ participantId, type: p.type, refId: p.refId, addedAt: at, addedBy: auth.userId });
  }
  await setParticipants(auth.practiceId, id, participants, at);
  await auditConversation(auth, 'update', c);
  return withOptOut(auth, { ...c, participants });
}

export async function removeParticipant(auth: AuthContext, id: string, participantId: string): Promise<Conversation> {
  const c = await requireConversation(auth, id);
  if (!c.participants.some((p) => p.participantId === participantId)) throw new NotFoundError(MESSAGING_MESSAGES.participantNotFound);
  const participants = c.participants.filter((p) => p.participantId !== participantId);
  await setParticipants(auth.practiceId, id, participants, new Date().toISOString());
  await auditConversation(auth, 'update', c);
  return withOptOut(auth, { ...c, participants });
}
