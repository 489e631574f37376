/**
 * Twilio Programmable Voice's callbacks on the calls delivery route, loaded with the first of them
 * (partner-deliveries.ts): form-encoded, verified by X-Twilio-Signature over the callback URL the
 * practice gave Twilio (TELEPHONY_CALLBACK_URL) before anything is read.
 * - An incoming call (Direction inbound, CallStatus ringing) is recorded UNREAD and answered with
 *   TwiML: the practice's greeting, then a voicemail reported back here.
 * - A status callback moves the call's vendor status forward; an inbound call that ends unanswered
 *   (busy, no-answer, canceled, failed) is a missed call.
 * - An inbound call that ends `completed` without a voicemail yet may be a caller who hung up
 *   during the greeting, and then no recording callback ever comes; but Twilio also sends a
 *   message's recording callback after the call's `completed`. So a one-time check is scheduled
 *   (the schedule target's 'call-outcome-check') for TELEPHONY_OUTCOME_WAIT_SECONDS later: a call
 *   still without an outcome then is a missed call.
 * - A recording callback (completed) stores the voicemail's audio in the files bucket; an absent
 *   recording (the caller said nothing) is a missed call.
 * A missed call or a voicemail leaves, once per call, a PHONE_CALL notification (voicemailKey,
 * from, to, timestamp) and, on the patient whose number called, a PHONE_CALL note. A voicemail
 * that arrives after its call was counted missed wins: the call, its note and its notification
 * become the voicemail's.
 */
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyResultV2 } from 'aws-lambda';
import { TELEPHONY_PARTNER_ID, UNANSWERED_CALL_STATUSES, VENDOR_CALL_STATUSES, type PhoneCall, type VendorCallStatus } from '../../shared/calls/call-schema.js';
import { PARTNER_MESSAGES } from '../../shared/partners/partner-schema.js';
import { fullName } from '../../shared/patients/patient-derived.js';
import { formatPhone, normalizePhone } from '../../shared/patients/phone.js';
import { filesBucketFromEnv, s3ObjectsFromEnv } from '../lib/adapters/s3-objects.js';
import { telephonySettingsFromEnv, TwilioVoice, verifyTwilioSignature, voicemailTwiml } from '../lib/adapters/telephony.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { ConflictError, NotFoundError, UnauthorizedError, ValidationError } from '../lib/errors.js';
import { isConditionFailure } from '../lib/table/condition-failure.js';
import { FILES_PREFIX } from '../lib/files/presign.js';
import { createNotification, getLatestNotification, updateNotification } from '../data/notifications/notification-repository.js';
import { queryPatientsByName } from '../data/patients/patient-repository.js';
import { getCall, getCallBySid, putCall } from '../data/calls/call-repository.js';
import { getPractice } from '../data/practices/practice-repository.js';
import { externalNote, putDeliveryOnce, writeDeliveredNote } from '../data/notes/delivery-records.js';
import { getNote, writeNextVersion } from '../data/notes/note-repository.js';

const SID = /^[A-Z]{2}[0-9a-fA-F]{32}$/;
export const CALL_OUTCOME_CHECK_JOB_KIND = 'call-outcome-check';
/** Twilio posts a message's recording callback seconds after the call's `completed`; a late one still wins (voicemailAfterMissed). */
const DEFAULT_OUTCOME_WAIT_SECONDS = 120;
const outcomeWaitMs = (): number => {
  const seconds = Number(process.env.TELEPHONY_OUTCOME_WAIT_SECONDS);
  return (Number.isFinite(seconds) && seconds > 0 ? seconds : DEFAULT_OUTCOME_WAIT_SECONDS) * 1000;
};
const notificationIdOf = (callSid: PhoneCall['callSid']) => `call_${callSid}`;
const actor = (practiceId: string): AuthContext => ({
  practiceId,
  userId: `partner:${TELEPHONY_PARTNER_ID}`,
  email: '',
  name: 'Phone',
  role: 'employee',
  groups: [],
});

const json = (statusCode: number, body: unknown): APIGatewayProxyResultV2 => ({
  statusCode,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});
const twiml = (body: string): APIGatewayProxyResultV2 => ({ statusCode: 200, headers: { 'content-type': 'text/xml' }, body });

/** Only a later status replaces an earlier one; a final status is final (a late or repeated callback changes nothing). */
const RANK: Record<VendorCallStatus, number> = {
  queued: 0,
  initiated: 1,
  ringing: 2,
  'in-progress': 3,
  completed: 4,
  busy: 4,
  failed: 4,
  'no-answer': 4,
  canceled: 4,
};
const asStatus = (v: string | null): VendorCallStatus | null =>
  (VENDOR_CALL_STATUSES as readonly string[]).includes(v ?? '') ? (v as VendorCallStatus) : null;

const filesBucket = (): string => filesBucketFromEnv();

async function patientWithNumber(practiceId: string, number: string) {
  if (!number) return null;
  const matches = (await queryPatientsByName(practiceId, 'active')).filter(
    (p) => p.primaryPhoneNumber === number || (p.phones ?? []).some((ph) => ph.number === number),
  );
  return matches.length === 1 ? matches[0]! : null;
}

/** An incoming call: recorded once (Twilio may ask again), answered with the voicemail TwiML. */
async function incoming(practiceId: string, callbackUrl: string, callSid: string, params: URLSearchParams): Promise<APIGatewayProxyResultV2> {
  const practice = await getPractice(practiceId);
  const answer = twiml(voicemailTwiml(practice?.practiceName ?? 'the practice', callbackUrl));
  if (await getCallBySid(practiceId, callSid)) return answer;
  const caller = normalizePhone(params.get('From') ?? '') ?? params.get('From') ?? '';
  const recipient = normalizePhone(params.get('To') ?? '') ?? params.get('To') ?? '';
  const patient = await patientWithNumber(practiceId, caller);
  const at = new Date().toISOString();
  const call: PhoneCall = {
    ident: randomUUID(),
    callSid,
    direction: 'INBOUND',
    status: 'UNREAD',
    callStatus: 'ringing',
    caller,
    recipient,
    callerName: null,
    recipientName: null,
    patientId: patient?.id ?? null,
    patientName: patient ? fullName(patient) : null,
    assigned: null,
    placedBy: null,
    voicemailKey: null,
    voicemailSeconds: null,
    durationSeconds: null,
    noteId: null,
    createdAt: at,
    updatedAt: at,
  };
  await putCall(practiceId, call);
  await writeAudit(actor(practiceId), { action: 'create', entity: 'phone-call', entityId: call.ident, ...(patient ? { patientId: patient.id } : {}) });
  return answer;
}

function outcomeText(call: PhoneCall, voicemail: boolean): string {
  const from = formatPhone(call.caller);
  return `${voicemail ? 'Voicemail' : 'Missed call'} from ${from}${call.patientName ? ` (${call.patientName})` : ''}`;
}

const voicemailFile = (key: string) => ({ key, name: 'voicemail.wav', contentType: 'audio/wav' });

/**
 * A missed call or a voicemail, once per call: a delivery item keyed by the CallSid is written
 * first (conditional), so a repeated or a second kind of callback for the call writes nothing.
 */
async function announce(
  practiceId: string,
  call: PhoneCall,
  voicemail: { key: string; seconds: number | null } | null,
): Promise<{ noteId: string | null; replayed: boolean }> {
  const deliveryId = `${call.callSid}-outcome`;
  const at = new Date().toISOString();
  const text = outcomeText(call, Boolean(voicemail));
  let noteId: string | null = null;
  if (call.patientId) {
    const note = externalNote(
      {
        noteType: 'PHONE_CALL',
        status: 'DELIVERED',
        signed: null,
        eventTimestamp: call.createdAt,
        patientId: call.patientId,
        data: {
          text,
          direction: 'INBOUND',
          callIdent: call.ident,
          from: call.caller,
          to: call.recipient,
          missed: !voicemail,
          voicemailKey: voicemail?.key ?? null,
          voicemailSeconds: voicemail?.seconds ?? null,
          deliveryId,
        },
        partnerId: TELEPHONY_PARTNER_ID,
        authorName: 'Phone',
      },
      at,
    );
    if (voicemail) note.files = [voicemailFile(voicemail.key)] as typeof note.files;
    const outcome = await writeDeliveredNote(practiceId, TELEPHONY_PARTNER_ID, deliveryId, note, at);
    if (outcome.replayed) return { noteId: outcome.noteId, replayed: true };
    noteId = note.noteId;
    await writeAudit(actor(practiceId), { action: 'create', entity: 'NOTE', entityId: noteId, patientId: call.patientId });
  } else {
    try {
      await putDeliveryOnce(practiceId, TELEPHONY_PARTNER_ID, deliveryId, at);
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      return { noteId: null, replayed: true };
    }
  }
  const latest = (await getCall(practiceId, call.ident)) ?? call;
  await putCall(practiceId, {
    ...latest,
    status: 'UNREAD',
    missed: !voicemail,
    noteId: noteId ?? latest.noteId,
    ...(voicemail ? { voicemailKey: voicemail.key, voicemailSeconds: voicemail.seconds } : {}),
    updatedAt: at,
  });
  await createNotification(
    practiceId,
    {
      notificationId: notificationIdOf(call.callSid),
      notificationType: 'PHONE_CALL',
      notificationStatus: 'UNREAD',
      sourceId: call.ident,
      relatedTo: noteId,
      patientId: call.patientId,
      text,
      data: { voicemailKey: voicemail?.key ?? null, from: call.caller, to: call.recipient, timestamp: call.createdAt, noteId, patientId: call.patientId },
    },
    { userId: `partner:${TELEPHONY_PARTNER_ID}` },
  );
  return { noteId, replayed: false };
}

/**
 * A voicemail whose call was already counted missed (its recording callback came after the wait):
 * the voicemail wins. The note gets its next version with the recording, the notification a new
 * version saying voicemail (unread again), and the call the recording; the call is written last,
 * so a retry after a failure part-way redoes what is missing.
 */
async function voicemailAfterMissed(
  practiceId: string,
  call: PhoneCall,
  voicemail: { key: string; seconds: number | null },
  noteId: string | null,
): Promise<boolean> {
  const latest = (await getCall(practiceId, call.ident)) ?? call;
  if (latest.voicemailKey) return false;
  const text = outcomeText(latest, true);
  const at = new Date();
  const note = noteId ? await getNote(practiceId, noteId) : null;
  if (note && note.data.missed !== false) {
    await writeNextVersion(
      practiceId,
      note,
      {
        data: { ...note.data, text, missed: false, voicemailKey: voicemail.key, voicemailSeconds: voicemail.seconds },
        files: [voicemailFile(voicemail.key)] as typeof note.files,
      },
      at,
    );
    await writeAudit(actor(practiceId), { action: 'update', entity: 'NOTE', entityId: note.noteId, ...(note.patientId ? { patientId: note.patientId } : {}) });
  }
  const notificationId = notificationIdOf(call.callSid);
  const notification = await getLatestNotification(practiceId, notificationId);
  if (notification && !notification.data?.voicemailKey) {
    await updateNotification(
      practiceId,
      notificationId,
      { text, notificationStatus: 'UNREAD', data: { ...notification.data, voicemailKey: voicemail.key } },
      { userId: `partner:${TELEPHONY_PARTNER_ID}` },
    );
  }
  await putCall(practiceId, {
    ...latest,
    status: 'UNREAD',
    missed: false,
    voicemailKey: voicemail.key,
    voicemailSeconds: voicemail.seconds,
    updatedAt: at.toISOString(),
  });
  return true;
}

/** After a completed inbound call without a voicemail: the check that counts it missed if nothing came. */
async function scheduleOutcomeCheck(practiceId: string, callSid: string): Promise<void> {
  const { scheduleAdapterFromEnv, scheduleName } = await import('../lib/adapters/scheduler.js');
  await scheduleAdapterFromEnv().createAt({
    name: scheduleName(CALL_OUTCOME_CHECK_JOB_KIND, callSid),
    at: new Date(Date.now() + outcomeWaitMs()),
    payload: { kind: CALL_OUTCOME_CHECK_JOB_KIND, practiceId, callSid },
  });
}

/**
 * The 'call-outcome-check' job: a completed inbound call that still has neither a voicemail nor a
 * missed-call announcement is a missed call (the caller hung up during the greeting). Safe to run
 * twice, or beside a late recording callback: the outcome is written once per call.
 */
export async function fireCallOutcomeCheck(payload: Record<string, unknown>): Promise<'missed' | 'voicemail' | 'already-announced' | 'gone'> {
  const practiceId = typeof payload.practiceId === 'string' ? payload.practiceId : '';
  const callSid = typeof payload.callSid === 'string' ? payload.callSid : '';
  if (!practiceId || !SID.test(callSid)) throw new Error('A call outcome check names its practice and call');
  const call = await getCallBySid(practiceId, callSid);
  if (!call) return 'gone';
  if (call.voicemailKey) return 'voicemail';
  const outcome = await announce(practiceId, call, null);
  return outcome.replayed ? 'already-announced' : 'missed';
}

async function status(practiceId: string, callSid: string, params: URLSearchParams): Promise<APIGatewayProxyResultV2> {
  const call = await getCallBySid(practiceId, callSid);
  // A call deleted from the list, or one Tidewell never placed nor answered: nothing to change.
  if (!call) return json(200, { ignored: true });
  const next = asStatus(params.get('CallStatus'));
  const current = asStatus(call.callStatus) ?? 'queued';
  if (!next || RANK[next] <= RANK[current]) return json(200, { ident: call.ident, replayed: true });
  const duration = Number(params.get('CallDuration'));
  const updated: PhoneCall = {
    ...call,
    callStatus: next,
    durationSeconds: Number.isFinite(duration) && params.has('CallDuration') ? duration : call.durationSeconds,
    updatedAt: new Date().toISOString(),
  };
  // Scheduled before the status is stored: a retried callback after a failed schedule finds the status unchanged and schedules again.
  const awaitOutcome = call.direction === 'INBOUND' && next === 'completed' && !call.voicemailKey;
  if (awaitOutcome) await scheduleOutcomeCheck(practiceId, callSid);
  await putCall(practiceId, updated);
  await writeAudit(actor(practiceId), {
    action: 'update',
    entity: 'phone-call',
    entityId: call.ident,
    ...(call.patientId ? { patientId: call.patientId } : {}),
  });
  if (call.direction === 'INBOUND' && UNANSWERED_CALL_STATUSES.includes(next)) {
    const outcome = await announce(practiceId, updated, null);
    return json(201, { ident: call.ident, missed: true, ...outcome });
  }
  return json(200, { ident: call.ident, replayed: false, ...(awaitOutcome ? { outcomeCheck: true } : {}) });
}

async function recording(
  practiceId: string,
  authToken: string,
  baseUrl: string,
  accountSid: string,
  callSid: string,
  params: URLSearchParams,
): Promise<APIGatewayProxyResultV2> {
  const call = await getCallBySid(practiceId, callSid);
  if (!call) return json(200, { ignored: true });
  const recordingStatus = params.get('RecordingStatus');
  if (recordingStatus === 'absent') return json(201, { ident: call.ident, missed: true, ...(await announce(practiceId, call, null)) });
  if (recordingStatus !== 'completed') return json(200, { ident: call.ident, ignored: true });
  const recordingSid = params.get('RecordingSid') ?? '';
  const recordingUrl = params.get('RecordingUrl') ?? '';
  if (!SID.test(recordingSid) || !recordingUrl) throw new ValidationError('A recording callback names its recording.', { RecordingSid: 'is required' });
  if (call.voicemailKey) return json(200, { ident: call.ident, voicemailKey: call.voicemailKey, replayed: true });
  const { audio, contentType } = await new TwilioVoice({ baseUrl, accountSid, authToken }).recording(recordingUrl);
  const key = `${FILES_PREFIX}${call.patientId ? `${call.patientId}/calls` : 'calls'}/voicemail-${recordingSid}.wav`;
  await s3ObjectsFromEnv().putObject({ bucket: filesBucket(), key }, audio, { contentType: contentType.startsWith('audio/') ? contentType : 'audio/wav' });
  const seconds = Number(params.get('RecordingDuration'));
  const voicemail = { key, seconds: Number.isFinite(seconds) && params.has('RecordingDuration') ? seconds : null };
  const outcome = await announce(practiceId, call, voicemail);
  if (outcome.replayed && (await voicemailAfterMissed(practiceId, call, voicemail, outcome.noteId)))
    return json(201, { ident: call.ident, voicemailKey: key, noteId: outcome.noteId, afterMissed: true });
  return json(outcome.replayed ? 200 : 201, { ident: call.ident, voicemailKey: key, ...outcome });
}

/** The calls delivery route's answer: TwiML for an incoming call, JSON otherwise. */
export async function handleCallEvent(
  practiceId: string,
  partnerId: string,
  authToken: string | null,
  signature: string | undefined,
  raw: string,
): Promise<APIGatewayProxyResultV2> {
  if (partnerId !== TELEPHONY_PARTNER_ID) throw new NotFoundError(PARTNER_MESSAGES.unknownPartner);
  const settings = telephonySettingsFromEnv();
  if (!settings) throw new ConflictError('Calling is not set up for this practice.');
  const params = new URLSearchParams(raw);
  if (!verifyTwilioSignature(authToken, settings.callbackUrl, params, signature)) throw new UnauthorizedError(PARTNER_MESSAGES.badSignature);
  if (params.get('AccountSid') !== settings.accountSid) throw new UnauthorizedError(PARTNER_MESSAGES.badSignature);
  const callSid = params.get('CallSid') ?? '';
  if (!SID.test(callSid)) throw new ValidationError('A call callback names its call.', { CallSid: 'is required' });
  if (params.has('RecordingSid') || params.has('RecordingStatus'))
    return recording(practiceId, authToken!, settings.baseUrl, settings.accountSid, callSid, params);
  if (params.get('Direction') === 'inbound' && params.get('CallStatus') === 'ringing') return incoming(practiceId, settings.callbackUrl, callSid, params);
  return status(practiceId, callSid, params);
}
