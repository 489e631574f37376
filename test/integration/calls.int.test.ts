import { readFileSync } from 'node:fs';
import twilio from 'twilio';
import { beforeAll, describe, expect, it } from 'vitest';
import { scheduleName } from '../../functions/lib/adapters/scheduler.js';
import { twilioSignature } from '../../functions/lib/adapters/telephony.js';
import { CALL_OUTCOME_CHECK_JOB_KIND } from '../../functions/notes/call-deliveries.js';
import { formatPhone } from '../../shared/patients/phone.js';
import { api, createTestUser, patientAuditTrail, signIn, stackEndpoints, stackOutputs } from '../support/local-stack.js';
import { eventually } from '../support/eventually.js';

const run = Date.now().toString(36);
// Digits in a search also match phone numbers, so names searched for are spelled in letters.
const lettered = run.replace(/\d/g, (d) => 'abcdefghij'[Number(d)]);
const digits = String(1000 + (Number.parseInt(run.slice(-4), 36) % 8000));
let provider: string;
let employee: string;
let patientId: string;
const patientPhone = `+1503556${digits}`;
const LOCAL_ACCOUNT = 'AC0000000000000000000000000000c0de';

const secrets = () => JSON.parse(readFileSync(stackEndpoints().partnerSecretsFile, 'utf8')) as Record<string, string>;
const webUrl = () => stackOutputs().webUrl;
const callbackUrl = () => process.env.TELEPHONY_CALLBACK_URL ?? `${stackOutputs().apiUrl}/v1/partner-deliveries/twilio-voice/calls`;

async function localCalls(): Promise<{ sid: string; to: string; from: string; twiml: string; status: string }[]> {
  const auth = `Basic ${Buffer.from(`${LOCAL_ACCOUNT}:${secrets()['twilio-voice']}`).toString('base64')}`;
  const res = await fetch(`${webUrl()}/local/telephony/2010-04-01/Accounts/${LOCAL_ACCOUNT}/Calls.json`, { headers: { authorization: auth } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { calls: { sid: string; to: string; from: string; twiml: string; status: string }[] }).calls;
}

async function inbound(body: Record<string, unknown>) {
  const res = await fetch(`${webUrl()}/local/telephony/inbound`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { call: { sid: string; twiml: string }; callbacks: { event: string; status: number }[] };
}

/** A Twilio callback as Twilio would send it: form-encoded and signed over the URL and the form. */
async function twilioCallback(fields: Record<string, string>, token = secrets()['twilio-voice']!) {
  const url = callbackUrl();
  const form = new URLSearchParams({ AccountSid: LOCAL_ACCOUNT, ...fields });
  const res = await fetch(`${stackOutputs().apiUrl}/v1/partner-deliveries/twilio-voice/calls`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(token, url, form) },
    body: form.toString(),
  });
  return { status: res.status, text: await res.text() };
}

async function phoneCallNotifications(
  callIdent: string,
): Promise<{ notificationId: string; notificationVersion: number; notificationStatus: string; text: string; data: Record<string, unknown> }[]> {
  const res = await api(employee, 'GET', `/v1/notifications?notificationType=PHONE_CALL&sourceId=${callIdent}`);
  expect(res.status).toBe(200);
  return (res.body.notifications ?? res.body) as {
    notificationId: string;
    notificationVersion: number;
    notificationStatus: string;
    text: string;
    data: Record<string, unknown>;
  }[];
}

beforeAll(async () => {
  provider = await signIn('provider@demo.tidewell.local');
  employee = await signIn('employee@demo.tidewell.local');
  const patient = await api(provider, 'POST', '/v1/patients', {
    firstName: 'Cal',
    lastName: `Caller${run}`,
    gender: 'male',
    dob: '1971-05-02',
    primaryPhoneNumber: patientPhone,
  });
  expect(patient.status).toBe(201);
  patientId = patient.body.id;
});

describe('phone calls', () => {
  it("places a click-to-call through the telephony stand-in: the user's phone rings, then the patient, from the practice number", async () => {
    const numbers = await api(employee, 'GET', '/v1/phone-calls/phone-call-numbers');
    expect(numbers.status).toBe(200);
    expect(numbers.body).toEqual({ phoneNumbers: ['+15415550180'], local: true });
    // The local stand-in holds the demo practice file's voice line, as the deployed stack passes it to Twilio.
    const demo = JSON.parse(readFileSync(new URL('../../practices/demo.json', import.meta.url), 'utf8')) as { telephony: { numbers: string[] } };
    expect(demo.telephony.numbers).toEqual(numbers.body.phoneNumbers);

    const placed = await api(employee, 'POST', '/v1/notes/call', {
      to: patientPhone,
      from: '+15415550180',
      patientId,
      patientName: `Cal Caller${run}`,
      dialFrom: '(541) 555-3131',
    });
    expect(placed.status).toBe(201);
    expect(placed.body).toMatchObject({
      direction: 'OUTBOUND',
      caller: '+15415550180',
      recipient: patientPhone,
      patientId,
      patientName: `Cal Caller${run}`,
      status: 'READ',
    });
    expect(placed.body.callSid).toMatch(/^CA[0-9a-f]{32}$/);

    // The stand-in recorded it as Twilio would: it rings the user's phone and bridges to the patient.
    const recorded = (await localCalls()).find((c) => c.sid === placed.body.callSid)!;
    expect(recorded).toMatchObject({ to: '+15415553131', from: '+15415550180' });
    expect(recorded.twiml).toContain(`<Dial callerId="+15415550180"><Number>${patientPhone}</Number></Dial>`);

    // Its signed status callbacks carry the call through to completed, with its duration.
    const done = await eventually(
      'the completed call',
      async () =>
        (await api(employee, 'GET', `/v1/phone-calls?recipient=${patientPhone.slice(-7)}`)).body.calls.find(
          (c: { ident: string }) => c.ident === placed.body.ident,
        ),
      (c) => c?.callStatus === 'completed',
    );
    expect(done).toMatchObject({ callStatus: 'completed', durationSeconds: 42, recipientName: `Cal Caller${run}` });

    // Signed by Twilio's own library: the same completed callback again is accepted and changes nothing;
    // one whose fields were changed after signing is refused and changes nothing either.
    const fields = {
      AccountSid: LOCAL_ACCOUNT,
      ApiVersion: '2010-04-01',
      CallSid: placed.body.callSid,
      CallStatus: 'completed',
      CallDuration: '42',
      Direction: 'outbound-api',
      From: '+15415550180',
      To: '+15415553131',
    };
    const signedByLibrary = twilio.getExpectedTwilioSignature(secrets()['twilio-voice']!, callbackUrl(), fields);
    const post = (form: Record<string, string>) =>
      fetch(`${stackOutputs().apiUrl}/v1/partner-deliveries/twilio-voice/calls`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signedByLibrary },
        body: new URLSearchParams(form).toString(),
      });
    expect((await post(fields)).status).toBe(200);
    expect((await post({ ...fields, CallDuration: '4200' })).status).toBe(401);
    const after = (await api(employee, 'GET', `/v1/phone-calls?recipient=${patientPhone.slice(-7)}`)).body.calls.find(
      (c: { ident: string }) => c.ident === placed.body.ident,
    );
    expect(after).toMatchObject({ callStatus: 'completed', durationSeconds: 42 });

    // A PHONE_CALL draft in the chart for the user's notes of the call.
    const note = await api(employee, 'GET', `/v1/notes/${placed.body.noteId}`);
    expect(note.body).toMatchObject({ noteType: 'PHONE_CALL', status: 'DRAFT', patientId });
    expect((await patientAuditTrail(patientId)).some((a) => a.entity === 'phone-call' && a.action === 'create')).toBe(true);
  });

  it("refuses a call without the user's phone number ('User missing phone number'), a number that is not the practice's, and a bad number", async () => {
    const noPhone = await api(employee, 'POST', '/v1/notes/call', { to: patientPhone, patientId });
    expect(noPhone.status).toBe(400);
    expect(noPhone.body.message).toBe('User missing phone number');
    const notOurs = await api(employee, 'POST', '/v1/notes/call', { to: patientPhone, from: '+12065550000', dialFrom: '5415553131' });
    expect(notOurs.status).toBe(400);
    expect(notOurs.body.message).toBe('Calls can only be placed from one of the practice numbers.');
    const bad = await api(employee, 'POST', '/v1/notes/call', { to: '555-12', dialFrom: '5415553131' });
    expect(bad.status).toBe(400);
  });

  it('an incoming call with a voicemail: the recording is stored and playable, with a PHONE_CALL notification and note on the patient; a replay changes nothing', async () => {
    const simulated = await inbound({ from: patientPhone });
    expect(simulated.call.twiml).toContain('<Record');
    expect(simulated.callbacks).toEqual([
      { event: 'incoming', status: 200 },
      { event: 'recording', status: 201 },
      { event: 'completed', status: 200 },
    ]);
    const list = await api(employee, 'GET', `/v1/phone-calls?caller=${patientPhone.slice(-7)}`);
    const call = list.body.calls.find((c: { callSid: string }) => c.callSid === simulated.call.sid);
    expect(call).toMatchObject({
      direction: 'INBOUND',
      status: 'UNREAD',
      caller: patientPhone,
      callerName: `Cal Caller${run}`,
      patientId,
      voicemailSeconds: 8,
    });
    expect(call.voicemailKey).toMatch(new RegExp(`^protected/${patientId}/calls/voicemail-RE[0-9a-f]{32}\\.wav$`));

    // The recording plays: a WAV behind a presigned URL.
    const file = await api(employee, 'GET', `/v1/s3/files?key=${encodeURIComponent(call.voicemailKey)}`);
    expect(file.status).toBe(200);
    const audio = await fetch(file.body.signedUrl);
    expect(audio.status).toBe(200);
    const bytes = Buffer.from(await audio.arrayBuffer());
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(bytes.subarray(8, 12).toString('latin1')).toBe('WAVE');
    expect(bytes.length).toBeGreaterThan(50_000);

    const notifications = await api(employee, 'GET', '/v1/notifications?notificationType=PHONE_CALL&notificationStatus=UNREAD');
    const n =
      notifications.body.notifications?.find?.((x: { sourceId: string }) => x.sourceId === call.ident) ??
      (notifications.body as { sourceId: string }[]).find?.((x) => x.sourceId === call.ident);
    expect(n).toMatchObject({ notificationType: 'PHONE_CALL', patientId, data: { voicemailKey: call.voicemailKey, from: patientPhone, to: '+15415550180' } });

    const note = await api(employee, 'GET', `/v1/notes/${call.noteId}`);
    expect(note.body).toMatchObject({ noteType: 'PHONE_CALL', status: 'DELIVERED', patientId, data: { voicemailKey: call.voicemailKey, missed: false } });
    expect(note.body.files[0].key).toBe(call.voicemailKey);

    const count = await api(employee, 'GET', '/v1/phone-calls/count');
    expect(count.body.count).toBeGreaterThanOrEqual(1);

    // Twilio retries: the same recording callback again stores nothing new and announces nothing new.
    const replay = await twilioCallback({
      CallSid: simulated.call.sid,
      RecordingSid: call.voicemailKey.match(/RE[0-9a-f]{32}/)[0],
      RecordingUrl: 'https://example.invalid/x',
      RecordingStatus: 'completed',
      RecordingDuration: '8',
    });
    expect(replay.status).toBe(200);
    const again = await api(employee, 'GET', '/v1/notifications?notificationType=PHONE_CALL&notificationStatus=UNREAD');
    const all = (again.body.notifications ?? again.body) as { sourceId: string }[];
    expect(all.filter((x) => x.sourceId === call.ident)).toHaveLength(1);
  });

  it('an unanswered incoming call without a message is a missed call, announced once', async () => {
    const simulated = await inbound({ from: patientPhone, voicemail: false });
    expect(simulated.callbacks.at(-1)).toEqual({ event: 'no-answer', status: 201 });
    const call = (await api(employee, 'GET', `/v1/phone-calls?caller=${patientPhone.slice(-7)}`)).body.calls.find(
      (c: { callSid: string }) => c.callSid === simulated.call.sid,
    );
    expect(call).toMatchObject({ callStatus: 'no-answer', voicemailKey: null, status: 'UNREAD', missed: true });
    const note = await api(employee, 'GET', `/v1/notes/${call.noteId}`);
    expect(note.body.data).toMatchObject({ missed: true, text: expect.stringContaining('Missed call from') });
    const repeated = await twilioCallback({
      CallSid: simulated.call.sid,
      From: patientPhone,
      To: '+15415550180',
      Direction: 'inbound',
      CallStatus: 'no-answer',
    });
    expect(repeated.status).toBe(200);
  });

  it('a caller who hangs up during the greeting (only `completed`, no recording callback) is a missed call, with a PHONE_CALL notification and note', async () => {
    const simulated = await inbound({ from: patientPhone, hangUp: 'greeting' });
    expect(simulated.callbacks).toEqual([
      { event: 'incoming', status: 200 },
      { event: 'completed', status: 200 },
    ]);
    const findCall = async () =>
      (await api(employee, 'GET', `/v1/phone-calls?caller=${patientPhone.slice(-7)}`)).body.calls.find(
        (c: { callSid: string }) => c.callSid === simulated.call.sid,
      );
    // Twilio may still post a recording after `completed`: right after the call nothing is announced yet.
    expect(await findCall()).toMatchObject({ callStatus: 'completed', durationSeconds: 4, voicemailKey: null, noteId: null });
    const call = await eventually('the missed call note', findCall, (c) => Boolean(c?.noteId), { within: 20_000 });
    expect(call).toMatchObject({ callStatus: 'completed', status: 'UNREAD', voicemailKey: null, patientId, missed: true });
    const note = await api(employee, 'GET', `/v1/notes/${call.noteId}`);
    expect(note.body).toMatchObject({
      noteType: 'PHONE_CALL',
      status: 'DELIVERED',
      patientId,
      files: [],
      data: { missed: true, voicemailKey: null, text: `Missed call from ${formatPhone(patientPhone)} (Cal Caller${run})` },
    });
    const notifications = await phoneCallNotifications(call.ident);
    expect(notifications).toHaveLength(1);
    expect(notifications[0]).toMatchObject({
      notificationStatus: 'UNREAD',
      text: `Missed call from ${formatPhone(patientPhone)} (Cal Caller${run})`,
      data: { voicemailKey: null, from: patientPhone },
    });
  });

  it('a voicemail whose recording callback comes after the call was counted missed wins: the call, its note and its notification become the voicemail', async () => {
    const simulated = await inbound({ from: patientPhone, recordingDelayMs: 9000 });
    expect(simulated.callbacks.map((c) => c.event)).toEqual(['incoming', 'completed']);
    const findCall = async () =>
      (await api(employee, 'GET', `/v1/phone-calls?caller=${patientPhone.slice(-7)}`)).body.calls.find(
        (c: { callSid: string }) => c.callSid === simulated.call.sid,
      );
    const missed = await eventually('the missed call note', findCall, (c) => Boolean(c?.noteId), { within: 20_000 });
    expect(missed).toMatchObject({ voicemailKey: null, missed: true });
    expect((await api(employee, 'GET', `/v1/notes/${missed.noteId}`)).body.data.missed).toBe(true);
    // An employee reads the missed call's notification before the message arrives.
    const [first] = await phoneCallNotifications(missed.ident);
    expect(
      (
        await api(employee, 'PUT', `/v1/notifications/${first!.notificationId}`, {
          notificationStatus: 'READ',
          notificationVersion: first!.notificationVersion,
        })
      ).status,
    ).toBe(200);

    const call = await eventually('the voicemail on the call', findCall, (c) => Boolean(c?.voicemailKey), { within: 20_000 });
    expect(call).toMatchObject({ status: 'UNREAD', noteId: missed.noteId, voicemailSeconds: 8, missed: false });
    expect(call.voicemailKey).toMatch(new RegExp(`^protected/${patientId}/calls/voicemail-RE[0-9a-f]{32}\\.wav$`));
    const note = await api(employee, 'GET', `/v1/notes/${call.noteId}`);
    expect(note.body).toMatchObject({
      noteVersion: 2,
      data: { missed: false, voicemailKey: call.voicemailKey, voicemailSeconds: 8, text: `Voicemail from ${formatPhone(patientPhone)} (Cal Caller${run})` },
    });
    expect(note.body.files.map((f: { key: string }) => f.key)).toEqual([call.voicemailKey]);
    const file = await api(employee, 'GET', `/v1/s3/files?key=${encodeURIComponent(call.voicemailKey)}`);
    expect((await fetch(file.body.signedUrl)).status).toBe(200);
    // Still one notification for the call, now saying voicemail, and unread again.
    const notifications = await phoneCallNotifications(call.ident);
    expect(notifications).toHaveLength(1);
    expect(notifications[0]).toMatchObject({
      notificationStatus: 'UNREAD',
      text: `Voicemail from ${formatPhone(patientPhone)} (Cal Caller${run})`,
      data: { voicemailKey: call.voicemailKey },
    });
  });

  it('a voicemail whose recording callback follows `completed` within the wait is never counted missed', async () => {
    const simulated = await inbound({ from: patientPhone, recordingDelayMs: 300 });
    const findCall = async () =>
      (await api(employee, 'GET', `/v1/phone-calls?caller=${patientPhone.slice(-7)}`)).body.calls.find(
        (c: { callSid: string }) => c.callSid === simulated.call.sid,
      );
    const call = await eventually('the voicemail on the call', findCall, (c) => Boolean(c?.voicemailKey));
    expect(call.noteId).toBeTruthy();
    // The outcome check (3 s after `completed` locally) has run once its one-time schedule is gone:
    // it found the voicemail and changed nothing.
    const { scheduler, schedulerGroup } = stackEndpoints();
    const check = `${scheduler}/schedules/${scheduleName(CALL_OUTCOME_CHECK_JOB_KIND, simulated.call.sid)}?groupName=${schedulerGroup}`;
    await eventually(
      'the call outcome check to run and its schedule to go',
      async () => (await fetch(check)).status,
      (status) => status === 404,
    );
    const note = await api(employee, 'GET', `/v1/notes/${call.noteId}`);
    expect(note.body).toMatchObject({ noteVersion: 1, data: { missed: false, voicemailKey: call.voicemailKey } });
    const notifications = await phoneCallNotifications(call.ident);
    expect(notifications).toHaveLength(1);
    expect(notifications[0]!.text).toMatch(/^Voicemail from/);
  });

  it("names a contact's number on a call, filters by query and date, assigns, updates and deletes", async () => {
    const contact = await api(employee, 'POST', '/v2/practices/contacts', {
      name: 'Ridge',
      lastName: `Pharmacy${lettered}`,
      phoneNumber: `(206) 555-${digits}`,
    });
    expect(contact.status).toBe(201);
    const simulated = await inbound({ from: `+1206555${digits}` });
    const found = await api(employee, 'GET', `/v1/phone-calls?query=${encodeURIComponent(`Pharmacy${lettered}`)}`);
    expect(found.body.calls).toHaveLength(1);
    const call = found.body.calls[0];
    expect(call).toMatchObject({ callSid: simulated.call.sid, callerName: `Ridge Pharmacy${lettered}`, patientId: null, noteId: null });
    const today = new Date().toISOString().slice(0, 10);
    expect((await api(employee, 'GET', `/v1/phone-calls?query=${encodeURIComponent(`Pharmacy${lettered}`)}&toDate=2000-01-01`)).body.calls).toHaveLength(0);
    expect((await api(employee, 'GET', `/v1/phone-calls?query=${encodeURIComponent(`Pharmacy${lettered}`)}&fromDate=${today}`)).body.calls).toHaveLength(1);
    expect((await api(employee, 'GET', '/v1/phone-calls?fromDate=yesterday')).status).toBe(400);

    const users = await api(employee, 'GET', '/v1/practices/users');
    const prov = (users.body.users ?? users.body).find((u: { emailAddress: string }) => u.emailAddress === 'provider@demo.tidewell.local');
    const assigned = await api(employee, 'POST', `/v1/phone-calls/${call.ident}/assign/${prov.userId}`);
    expect(assigned.status).toBe(200);
    expect(assigned.body).toMatchObject({ assigned: prov.userId, status: 'UNREAD' });
    expect((await api(employee, 'POST', `/v1/phone-calls/${call.ident}/assign/nobody-here`)).status).toBe(404);

    const read = await api(provider, 'PUT', `/v1/phone-calls/${call.ident}`, { ...call, status: 'COMPLETED', patientId });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ status: 'COMPLETED', patientId, patientName: `Cal Caller${run}` });
    expect((await api(provider, 'PUT', `/v1/phone-calls/${call.ident}`, { status: 'ANSWERED' })).status).toBe(400);

    // Employees may not delete a call record; a provider may.
    expect((await api(employee, 'DELETE', `/v1/phone-calls/${call.ident}`)).status).toBe(403);
    expect((await api(provider, 'DELETE', `/v1/phone-calls/${call.ident}`)).status).toBe(204);
    expect((await api(provider, 'PUT', `/v1/phone-calls/${call.ident}`, { status: 'READ' })).status).toBe(404);
    expect((await api(employee, 'GET', `/v1/phone-calls?query=${encodeURIComponent(`Pharmacy${lettered}`)}`)).body.calls).toHaveLength(0);
  });

  it('refuses callbacks not signed with the account auth token, and keeps calls to their practice from no_access users, other practices and no token', async () => {
    const forged = await twilioCallback(
      { CallSid: `CA${'1'.repeat(32)}`, From: '+15035550000', To: '+15415550180', Direction: 'inbound', CallStatus: 'ringing' },
      secrets()['sinch-fax'],
    );
    expect(forged.status).toBe(401);
    const foreign = await createTestUser({ email: `calls-foreign-${run}@other.tidewell.local`, group: 'admin', practiceId: 'prc_other_calls' });
    const noAccess = await signIn('noaccess@demo.tidewell.local');
    const mine = (await api(employee, 'GET', '/v1/phone-calls')).body.calls[0];
    const routes = [
      ['GET', '/v1/phone-calls'],
      ['GET', '/v1/phone-calls/phone-call-numbers'],
      ['GET', '/v1/phone-calls/count'],
      ['PUT', `/v1/phone-calls/${mine.ident}`],
      ['POST', `/v1/phone-calls/${mine.ident}/assign/x`],
      ['DELETE', `/v1/phone-calls/${mine.ident}`],
      ['POST', '/v1/notes/call'],
    ] as const;
    for (const token of [foreign, noAccess]) {
      for (const [method, path] of routes)
        expect({
          method,
          path,
          status: (
            await api(token, method, path, method === 'GET' || method === 'DELETE' ? undefined : { to: patientPhone, dialFrom: '5415553131', status: 'READ' })
          ).status,
        }).toEqual({ method, path, status: 403 });
    }
    for (const [method, path] of routes) expect((await api(null, method, path, method === 'GET' || method === 'DELETE' ? undefined : {})).status).toBe(401);
    // The refused delete left the call in place.
    expect((await api(employee, 'GET', '/v1/phone-calls')).body.calls.some((c: { ident: string }) => c.ident === mine.ident)).toBe(true);
  });
});
