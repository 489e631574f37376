import { randomUUID } from 'node:crypto';
import type * as z from '../../shared/zod.js';
import {
  MESSAGING_MESSAGES,
  type ScheduledEvent,
  type ScheduledEventCreateBody,
  type ScheduledEventList,
  type ScheduledEventListQuery,
} from '../../shared/messaging/messaging-schema.js';
import type { ScheduleAdapter } from '../lib/adapters/scheduler.js';
import { writeAudit, writeAuditForPatients } from '../lib/audit/audit-repository.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { ConflictError, NotFoundError, ValidationError } from '../lib/errors.js';
import { requirePermission } from '../lib/http/permissions.js';
import { log } from '../lib/log.js';
import {
  getScheduledEvent,
  insertScheduledEvent,
  putScheduledEventIfStatus,
  queryScheduledEventsByWhen,
} from '../data/messaging/scheduled-event-repository.js';
import { createNotification } from '../data/notifications/notification-repository.js';
import { getPatient } from '../data/patients/patient-repository.js';
import { getUser } from '../data/users/user-repository.js';
import { checkedAttachments, requirePracticeNumber, sendSms, SmsNotSent } from '../core/messaging/sms-sending.js';

/*
 * Scheduled events (items in functions/data/messaging/scheduled-event-repository.ts). Each active
 * event has one EventBridge Scheduler at() schedule named scheduled-sms.<eventId> that fires the
 * schedule-target Lambda.
 */
export const SCHEDULED_SMS_JOB_KIND = 'scheduled-sms';
/** Scheduler names are at most 64 of [0-9a-zA-Z-_.]: the kind and the uuid fit as they are. */
export const scheduledSmsScheduleName = (eventId: string) => `${SCHEDULED_SMS_JOB_KIND}.${eventId.replace(/[^0-9a-zA-Z\-_.]/g, '-')}`;
/** The SMS note a scheduled event writes: one id per event, so a second run finds it instead of sending again. */
export const scheduledNoteId = (eventId: string) => `smssched_${eventId}`;
/** Scheduler fires to the second; a time this close to now could never be scheduled ahead. */
const MIN_LEAD_MS = 1000;
/** A fire this long before the event's time comes from a superseded schedule. */
const EARLY_TOLERANCE_MS = 60_000;

type CreateBody = z.output<typeof ScheduledEventCreateBody>;

let override: ScheduleAdapter | undefined;
let fromEnv: Promise<ScheduleAdapter> | undefined;
export function setScheduledSmsAdapter(adapter: ScheduleAdapter | undefined): void {
  override = adapter;
}
/** The Scheduler client is loaded only by the calls that schedule: reads and sends never pay for it. */
function schedules(): Promise<ScheduleAdapter> {
  if (override) return Promise.resolve(override);
  fromEnv ??= import('../lib/adapters/scheduler.js').then((m) => m.scheduleAdapterFromEnv());
  return fromEnv;
}

async function requireEvent(auth: AuthContext, eventId: string): Promise<ScheduledEvent> {
  const e = await getScheduledEvent(auth.practiceId, eventId);
  if (!e || e.status === 'deleted') throw new NotFoundError(MESSAGING_MESSAGES.scheduledEventNotFound);
  return e;
}

function futureWhen(when: string, now: Date): string {
  const iso = new Date(when).toISOString();
  if (Date.parse(iso) < now.getTime() + MIN_LEAD_MS)
    throw new ValidationError(MESSAGING_MESSAGES.scheduledWhenPast, { when: MESSAGING_MESSAGES.scheduledWhenPast });
  return iso;
}

/** Moves an event from one status to another only if it is still in `from` (the exactly-once guard). */
async function transition(
  practiceId: string,
  e: ScheduledEvent,
  from: ScheduledEvent['status'],
  changes: Partial<ScheduledEvent>,
): Promise<ScheduledEvent | null> {
  const next: ScheduledEvent = { ...e, ...changes, updatedAt: new Date().toISOString() };
  return (await putScheduledEventIfStatus(practiceId, next, from)) ? next : null;
}

const payloadOf = (practiceId: string, eventId: string) => ({ kind: SCHEDULED_SMS_JOB_KIND, practiceId, eventId });

/** POST /v1/scheduled-events: a scheduled signed SMS note, status active, with its one-time schedule. */
export async function createScheduledEvent(auth: AuthContext, body: CreateBody, now = new Date()): Promise<ScheduledEvent> {
  const when = futureWhen(body.when, now);
  await requirePracticeNumber(auth.practiceId, body.request.data.from);
  if (!(await getPatient(auth.practiceId, body.request.patientId))) throw new NotFoundError(MESSAGING_MESSAGES.patientNotFound);
  const files = await checkedAttachments(body.request.files);
  const at = now.toISOString();
  const event: ScheduledEvent = {
    eventId: randomUUID(),
    when,
    eventType: body.eventType,
    service: body.service,
    operationId: body.operationId,
    operationVersion: body.operationVersion,
    invocations: body.invocations,
    request: { noteType: 'SMS', patientId: body.request.patientId, status: 'SIGNED', data: body.request.data, files },
    status: 'active',
    author: auth.userId,
    createdAt: at,
    updatedAt: at,
    noteId: null,
    messageId: null,
    completedAt: null,
    failureReason: null,
  };
  await insertScheduledEvent(auth.practiceId, event);
  try {
    await (
      await schedules()
    ).createAt({ name: scheduledSmsScheduleName(event.eventId), at: new Date(when), payload: payloadOf(auth.practiceId, event.eventId) });
  } catch (error) {
    // Without its schedule the text would never go out: do not keep the event.
    await transition(auth.practiceId, event, 'active', { status: 'deleted' });
    throw error;
  }
  await writeAudit(auth, { action: 'create', entity: 'scheduled-event', entityId: event.eventId, patientId: event.request.patientId });
  return event;
}

/** GET /v1/scheduled-events: filters of spec shell §7.5 plus the conversation's numbers, sorted by when. */
export async function listScheduledEvents(auth: AuthContext, q: ScheduledEventListQuery): Promise<ScheduledEventList> {
  let events: ScheduledEvent[];
  if (q.eventId) {
    const e = await getScheduledEvent(auth.practiceId, q.eventId);
    events = e ? [e] : [];
  } else {
    events = await queryScheduledEventsByWhen();
  }
  const statuses = q.status ?? ['active', 'processing', 'completed', 'failed'];
  events = events
    .filter(
      (e) =>
        statuses.includes(e.status) &&
        (!q.service || e.service === q.service) &&
        (!q.operationId || e.operationId === q.operationId) &&
        (!q.patientId || e.request.patientId === q.patientId) &&
        (!q.to || e.request.data.to === q.to) &&
        (!q.from || e.request.data.from === q.from),
    )
    .sort((a, b) => a.when.localeCompare(b.when))
    .slice(0, q.limit);
  await writeAuditForPatients(
    auth,
    { action: 'list', entity: 'scheduled-event', count: events.length },
    events.map((e) => e.request.patientId),
  );
  return { events };
}

export async function readScheduledEvent(auth: AuthContext, eventId: string): Promise<ScheduledEvent> {
  const e = await requireEvent(auth, eventId);
  await writeAudit(auth, { action: 'read', entity: 'scheduled-event', entityId: e.eventId, patientId: e.request.patientId });
  return e;
}

/** PUT /v1/scheduled-events/{id} { when }: a new time for an active event (its schedule is replaced). */
export async function rescheduleEvent(auth: AuthContext, eventId: string, whenInput: string, now = new Date()): Promise<ScheduledEvent> {
  const e = await requireEvent(auth, eventId);
  requirePermission(auth, 'scheduledSms.change', { authorUserId: e.author });
  if (e.status !== 'active') throw new ConflictError(MESSAGING_MESSAGES.scheduledNotActive);
  const when = futureWhen(whenInput, now);
  const next = await transition(auth.practiceId, e, 'active', { when });
  if (!next) throw new ConflictError(MESSAGING_MESSAGES.scheduledNotActive);
  await (await schedules()).delete(scheduledSmsScheduleName(eventId));
  await (await schedules()).createAt({ name: scheduledSmsScheduleName(eventId), at: new Date(when), payload: payloadOf(auth.practiceId, eventId) });
  await writeAudit(auth, { action: 'update', entity: 'scheduled-event', entityId: eventId, patientId: e.request.patientId });
  return next;
}

/** DELETE /v1/scheduled-events/{id}: cancels an active event and its schedule; it never fires. */
export async function cancelScheduledEvent(auth: AuthContext, eventId: string): Promise<ScheduledEvent> {
  const e = await requireEvent(auth, eventId);
  requirePermission(auth, 'scheduledSms.change', { authorUserId: e.author });
  if (e.status !== 'active') throw new ConflictError(MESSAGING_MESSAGES.scheduledNotActive);
  const next = await transition(auth.practiceId, e, 'active', { status: 'deleted' });
  if (!next) throw new ConflictError(MESSAGING_MESSAGES.scheduledNotActive);
  await (await schedules()).delete(scheduledSmsScheduleName(eventId));
  await writeAudit(auth, { action: 'delete', entity: 'scheduled-event', entityId: eventId, patientId: e.request.patientId });
  return next;
}

/**
 * The 'scheduled-sms' job. Scheduler delivers at least once; the active → processing transition is
 * a conditional write, so of two runs only one sends. The text becomes a signed SMS note and the
 * event completed; a send the carrier refuses marks the event failed and notifies its author.
 */
export async function fireScheduledSms(payload: Record<string, unknown>, now = new Date()): Promise<'sent' | 'failed' | 'skipped'> {
  const practiceId = String(payload.practiceId ?? '');
  const eventId = String(payload.eventId ?? '');
  if (!practiceId || !eventId || (process.env.PRACTICE_ID && process.env.PRACTICE_ID !== practiceId)) {
    log.error('scheduled sms job with a foreign or missing practice or event', { eventId: eventId || null });
    return 'skipped';
  }
  const e = await getScheduledEvent(practiceId, eventId);
  if (!e || e.status !== 'active' || Date.parse(e.when) - now.getTime() > EARLY_TOLERANCE_MS) {
    log.info('scheduled sms not due', { eventId, status: e?.status ?? null });
    return 'skipped';
  }
  const claimed = await transition(practiceId, e, 'active', { status: 'processing' });
  if (!claimed) return 'skipped';
  const author = await getUser(practiceId, e.author);
  const sender = { userId: e.author, name: author?.name || 'Scheduled message', ...(author?.emailAddress ? { email: author.emailAddress } : {}) };
  try {
    const sent = await sendSms(
      practiceId,
      sender,
      {
        practicePhone: e.request.data.from,
        patientPhone: e.request.data.to,
        text: e.request.data.text,
        files: e.request.files,
        patientId: e.request.patientId,
        noteId: scheduledNoteId(eventId),
        scheduledEventId: eventId,
      },
      now,
    );
    await transition(practiceId, claimed, 'processing', {
      status: 'completed',
      noteId: sent.note.noteId,
      messageId: sent.message.messageId,
      completedAt: new Date().toISOString(),
    });
    return 'sent';
  } catch (error) {
    const reason =
      error instanceof SmsNotSent || error instanceof ValidationError || error instanceof NotFoundError ? error.message : MESSAGING_MESSAGES.carrierUnavailable;
    const noteId = error instanceof SmsNotSent ? error.failedMessage.noteId : null;
    await transition(practiceId, claimed, 'processing', { status: 'failed', failureReason: reason, noteId, completedAt: new Date().toISOString() });
    try {
      await createNotification(
        practiceId,
        {
          notificationId: `scheduled-sms-failed-${eventId}`,
          notificationType: 'SMS',
          notificationStatus: 'UNREAD',
          sourceId: eventId,
          assigned: e.author,
          author: e.author,
          patientId: e.request.patientId,
          text: `${MESSAGING_MESSAGES.scheduledSendFailed}: ${reason}`,
          data: {
            kind: 'scheduled-sms-failed',
            eventId,
            from: e.request.data.from,
            to: e.request.data.to,
            timestamp: new Date().toISOString(),
            patients: [e.request.patientId],
            files: [],
          },
        },
        { userId: e.author },
      );
    } catch (notifyError) {
      if (!(notifyError instanceof ConflictError)) throw notifyError;
    }
    if (!(error instanceof SmsNotSent || error instanceof ValidationError || error instanceof NotFoundError))
      log.error('scheduled sms failed', { eventId, error: (error as Error)?.name });
    return 'failed';
  }
}
