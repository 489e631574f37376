/**
 * The phone call routes (spec shell §2.11, §7.4) in the practice group, loaded with their first
 * request (handler.ts): the list with its filters and the names of its numbers, the practice's
 * numbers, the unread count the menu badge polls, assign, update, delete, and click-to-call
 * (POST /v1/notes/call) through the telephony adapter.
 */
import { randomUUID } from 'node:crypto';
import {
  CALL_MESSAGES,
  CALL_SEARCH_SCAN,
  CallAssignParams,
  CallIdentParams,
  CallIdParams,
  CallListQuery,
  ClickToCallBody,
  TELEPHONY_PARTNER_ID,
  UpdateCallBody,
  type CallList,
  type PhoneCall,
} from '../../shared/calls/call-schema.js';
import { contactFullName } from '../../shared/contacts/contact-schema.js';
import type { Note } from '../../shared/notes/note-schema.js';
import { fullName } from '../../shared/patients/patient-derived.js';
import { formatPhone, isPhoneLike } from '../../shared/patients/phone.js';
import { partnerSecretsFromEnv } from '../lib/adapters/partner-secrets.js';
import { telephonySettingsFromEnv, TelephonyVendorError, TwilioVoice, type TelephonySettings } from '../lib/adapters/telephony.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { ConflictError, DependencyError, NotFoundError, ValidationError } from '../lib/errors.js';
import { HttpResponse, route } from '../lib/http/group-handler.js';
import { insertNote } from '../data/notes/note-repository.js';
import { auditNote, personOf, requirePatient } from '../core/notes/note-common.js';
import { patientIndex } from '../data/patients/patient-index-cache.js';
import { countCalls, deleteCall, getCall, getUnreadCallCount, listCallPage, listCalls, listCallStretch, putCall } from '../data/calls/call-repository.js';
import { stretchPosition, stretchToken } from '../data/dated-list/dated-list.js';
import { contactsByNumbers, contactsInNameOrder, listContacts } from '../data/contacts/contact-repository.js';
import type { Contact } from '../../shared/contacts/contact-schema.js';
import { getUser } from '../data/users/user-repository.js';
import type { CallRouteKey } from './routes.js';

function requireSettings(): TelephonySettings {
  const settings = telephonySettingsFromEnv();
  if (!settings || settings.numbers.length === 0) throw new ConflictError(CALL_MESSAGES.notSetUp);
  return settings;
}

async function vendor(settings: TelephonySettings): Promise<TwilioVoice> {
  const authToken = await partnerSecretsFromEnv().secretOf(TELEPHONY_PARTNER_ID);
  if (!authToken) throw new ConflictError(CALL_MESSAGES.notSetUp);
  return new TwilioVoice({ baseUrl: settings.baseUrl, accountSid: settings.accountSid, authToken });
}

/**
 * Number → name: a contact's first (the practice's own book), then a patient's when one patient
 * alone has it; patients from the patients' in-memory index (one GetItem on a warm instance).
 * Given the numbers of a page, only their contacts are read (by each number's lookup); without,
 * the whole book (a search names every call of its range before matching).
 */
async function numberNames(practiceId: string, numbers?: readonly string[]): Promise<(number: string) => string | null> {
  const book = async (): Promise<Contact[]> =>
    numbers ? contactsInNameOrder([...(await contactsByNumbers(practiceId, numbers)).values()].flat()) : listContacts(practiceId);
  const [contacts, { entries }] = await Promise.all([book(), patientIndex(practiceId, 'active')]);
  const names = new Map<string, string>();
  const patientNames = new Map<string, string | null>();
  for (const { patient: p } of entries) {
    for (const n of new Set([p.primaryPhoneNumber, ...(p.phones ?? []).map((ph) => ph.number)].filter((x): x is string => !!x))) {
      patientNames.set(n, patientNames.has(n) ? null : fullName(p));
    }
  }
  for (const [n, name] of patientNames) if (name) names.set(n, name);
  for (const c of contacts) if (c.phoneNumber) names.set(c.phoneNumber, contactFullName(c));
  return (number) => names.get(number) ?? null;
}

const digits = (v: string) => v.replace(/\D/g, '');

function textFilter(q: CallListQuery): ((c: PhoneCall) => boolean) | null {
  const text = q.query?.toLowerCase();
  if (!text && !q.caller && !q.recipient) return null;
  return (c) => {
    if (
      q.caller &&
      !(isPhoneLike(q.caller) ? digits(c.caller).includes(digits(q.caller)) : (c.callerName ?? '').toLowerCase().includes(q.caller.toLowerCase()))
    )
      return false;
    if (
      q.recipient &&
      !(isPhoneLike(q.recipient)
        ? digits(c.recipient).includes(digits(q.recipient))
        : (c.recipientName ?? '').toLowerCase().includes(q.recipient.toLowerCase()))
    )
      return false;
    if (text) {
      const hay = [c.callerName, c.recipientName, c.patientName, c.caller, c.recipient].filter(Boolean).join(' ').toLowerCase();
      if (!hay.includes(text) && !(isPhoneLike(text) && [c.caller, c.recipient].some((n) => digits(n).includes(digits(text))))) return false;
    }
    return true;
  };
}

/**
 * GET /v1/phone-calls: every filter of spec §7.4, newest first unless order=asc; each number with
 * its contact's or patient's name. Without a text filter the page is read from the calls' index
 * (its offset and itself) and the total from the counts. A text filter matches names, which calls
 * do not store: it reads a stretch of the range (CALL_SEARCH_SCAN calls after `nextToken`), names
 * those from their numbers' lookups and answers the matches with where the range goes on.
 */
export async function callList(auth: AuthContext, q: CallListQuery): Promise<CallList> {
  const range = { fromDate: q.fromDate, toDate: q.toDate };
  const ascending = q.order === 'asc';
  const after = stretchPosition(q.nextToken, range);
  const counted = await countCalls(auth.practiceId, range);
  const named =
    (nameOf: (number: string) => string | null) =>
    (c: PhoneCall): PhoneCall => ({ ...c, callerName: nameOf(c.caller), recipientName: nameOf(c.recipient) });
  const numbersOf = (calls: PhoneCall[]) => calls.flatMap((c) => [c.caller, c.recipient]);
  const matches = textFilter(q);
  let page: PhoneCall[];
  let total: number;
  let nextToken: string | null | undefined;
  if (counted === null) {
    // Before the practice's calls were listed in the index: every call, named from the whole book.
    const name = named(await numberNames(auth.practiceId));
    const found = await listCallPage(auth.practiceId, range, { ascending, wanted: 0, keep: (c) => !matches || matches(name(c)) });
    page = found.slice(q.offset, q.offset + q.limit).map(name);
    total = found.length;
  } else if (matches) {
    const stretch = await listCallStretch(auth.practiceId, range, { ascending, after, max: CALL_SEARCH_SCAN });
    const found = stretch.calls.map(named(await numberNames(auth.practiceId, numbersOf(stretch.calls)))).filter(matches);
    page = found.slice(q.offset, q.offset + q.limit);
    total = found.length;
    nextToken = stretchToken(stretch.next);
  } else {
    const unnamed = (await listCallPage(auth.practiceId, range, { ascending, wanted: q.offset + q.limit })).slice(q.offset);
    page = unnamed.map(named(await numberNames(auth.practiceId, numbersOf(unnamed))));
    total = counted;
  }
  await writeAudit(auth, { action: q.query || q.caller || q.recipient ? 'search' : 'list', entity: 'phone-call' });
  for (const patientId of new Set(page.map((c) => c.patientId).filter((p): p is string => !!p)))
    await writeAudit(auth, { action: 'read', entity: 'phone-call', patientId });
  return { calls: page, total, offset: q.offset, limit: q.limit, ...(nextToken !== undefined ? { nextToken } : {}) };
}

/** GET /v1/phone-calls/count: the unread calls, which the Communication badge adds to the unread texts and faxes. */
export async function callCount(auth: AuthContext): Promise<{ count: number }> {
  const counted = await getUnreadCallCount(auth.practiceId);
  return { count: counted ?? (await listCalls(auth.practiceId)).filter((c) => c.status === 'UNREAD').length };
}

async function requireCall(auth: AuthContext, ident: string): Promise<PhoneCall> {
  const call = await getCall(auth.practiceId, ident);
  if (!call) throw new NotFoundError(CALL_MESSAGES.notFound);
  return call;
}

async function saveCall(auth: AuthContext, next: PhoneCall): Promise<PhoneCall> {
  await putCall(auth.practiceId, next);
  await writeAudit(auth, { action: 'update', entity: 'phone-call', entityId: next.ident, ...(next.patientId ? { patientId: next.patientId } : {}) });
  return next;
}

/** POST /v1/phone-calls/{id}/assign/{userId}: another user's call is unread until they open it, as tasks are. */
export async function assignCall(auth: AuthContext, ident: string, userId: string): Promise<PhoneCall> {
  const call = await requireCall(auth, ident);
  const user = await getUser(auth.practiceId, userId);
  if (!user || user.userStatus === 'deleted') throw new NotFoundError(CALL_MESSAGES.userNotFound);
  return saveCall(auth, { ...call, assigned: userId, status: userId === auth.userId ? 'READ' : 'UNREAD', updatedAt: new Date().toISOString() });
}

export async function updateCall(auth: AuthContext, ident: string, body: UpdateCallBody): Promise<PhoneCall> {
  const call = await requireCall(auth, ident);
  let patientName = call.patientName;
  if (body.patientId !== undefined && body.patientId !== call.patientId)
    patientName = body.patientId ? fullName(await requirePatient(auth.practiceId, body.patientId)) : null;
  if (body.assigned) {
    const user = await getUser(auth.practiceId, body.assigned);
    if (!user || user.userStatus === 'deleted') throw new NotFoundError(CALL_MESSAGES.userNotFound);
  }
  return saveCall(auth, {
    ...call,
    ...(body.status ? { status: body.status } : {}),
    ...(body.assigned !== undefined ? { assigned: body.assigned } : {}),
    ...(body.patientId !== undefined ? { patientId: body.patientId, patientName } : {}),
    updatedAt: new Date().toISOString(),
  });
}

export async function removeCall(auth: AuthContext, ident: string): Promise<HttpResponse> {
  const call = await requireCall(auth, ident);
  await deleteCall(auth.practiceId, ident);
  await writeAudit(auth, { action: 'delete', entity: 'phone-call', entityId: ident, ...(call.patientId ? { patientId: call.patientId } : {}) });
  return new HttpResponse(204, undefined);
}

/**
 * POST /v1/notes/call: the vendor rings the user's phone (dialFrom, else their cell number on file)
 * and connects them to `to` from a practice number. With a patient, the call leaves a PHONE_CALL
 * draft in the chart for the user's notes of it.
 */
export async function clickToCall(auth: AuthContext, body: ClickToCallBody & { to: string; dialFrom?: string | null }): Promise<PhoneCall> {
  const settings = requireSettings();
  const user = await getUser(auth.practiceId, auth.userId);
  const dialFrom = body.dialFrom || user?.cellNumber || null;
  if (!dialFrom) throw new ValidationError(CALL_MESSAGES.missingUserPhone, { dialFrom: CALL_MESSAGES.missingUserPhone });
  if (body.from && !settings.numbers.includes(body.from)) throw new ValidationError(CALL_MESSAGES.unknownNumber, { from: CALL_MESSAGES.unknownNumber });
  const from = body.from || settings.numbers[0]!;
  const patient = body.patientId ? await requirePatient(auth.practiceId, body.patientId) : null;
  const at = new Date().toISOString();
  const ident = randomUUID();
  let noteId: string | null = null;
  if (patient) {
    const author = await personOf(auth);
    const note: Note = {
      noteId: randomUUID(),
      noteType: 'PHONE_CALL',
      status: 'DRAFT',
      signed: null,
      eventTimestamp: at,
      timestamp: at,
      createdAt: at,
      data: { text: `Call to ${fullName(patient)} at ${formatPhone(body.to)}`, direction: 'OUTBOUND', callIdent: ident, to: body.to, from },
      patientId: patient.id,
      hidden: false,
      files: [],
      author,
      onBehalfOf: null,
      noteVersion: 1,
      signedBy: null,
    };
    await insertNote(auth.practiceId, note);
    await auditNote(auth, 'create', note);
    noteId = note.noteId;
  }
  const call: PhoneCall = {
    ident,
    callSid: null,
    direction: 'OUTBOUND',
    status: 'READ',
    callStatus: 'queued',
    caller: from,
    recipient: body.to,
    callerName: null,
    recipientName: null,
    patientId: patient?.id ?? null,
    patientName: patient ? fullName(patient) : (body.patientName ?? null),
    assigned: auth.userId,
    placedBy: auth.userId,
    voicemailKey: null,
    voicemailSeconds: null,
    durationSeconds: null,
    noteId,
    createdAt: at,
    updatedAt: at,
  };
  try {
    const placed = await (await vendor(settings)).place({ dialFrom, to: body.to, from, statusCallbackUrl: settings.callbackUrl });
    call.callSid = placed.callSid;
    call.callStatus = placed.status;
  } catch (error) {
    if (!(error instanceof TelephonyVendorError)) throw error;
    call.callStatus = 'failed';
    await putCall(auth.practiceId, call);
    throw new DependencyError(502, `${CALL_MESSAGES.vendorRefused}.`, 'TELEPHONY_REFUSED');
  }
  await putCall(auth.practiceId, call);
  await writeAudit(auth, { action: 'create', entity: 'phone-call', entityId: ident, ...(patient ? { patientId: patient.id } : {}) });
  return call;
}

export const CALL_ROUTES = {
  'GET /v1/phone-calls': route({ query: CallListQuery, run: ({ auth, query }) => callList(auth, query) }),
  'GET /v1/phone-calls/phone-call-numbers': route({
    run: async () => {
      const settings = telephonySettingsFromEnv();
      return { phoneNumbers: settings?.numbers ?? [], local: settings?.local ?? false };
    },
  }),
  'GET /v1/phone-calls/count': route({ run: ({ auth }) => callCount(auth) }),
  'DELETE /v1/phone-calls/{id}': route({ params: CallIdParams, minRole: 'provider', run: ({ auth, params }) => removeCall(auth, params.id) }),
  'POST /v1/phone-calls/{id}/assign/{userId}': route({ params: CallAssignParams, run: ({ auth, params }) => assignCall(auth, params.id, params.userId) }),
  'PUT /v1/phone-calls/{ident}': route({
    params: CallIdentParams,
    body: UpdateCallBody,
    run: ({ auth, params, body }) => updateCall(auth, params.ident, body),
  }),
  'POST /v1/notes/call': route({
    body: ClickToCallBody,
    status: 201,
    run: ({ auth, body }) => clickToCall(auth, body as ClickToCallBody & { to: string; dialFrom?: string | null }),
  }),
} satisfies Record<CallRouteKey, unknown>;
