import { beforeAll, describe, expect, it } from 'vitest';
import { MESSAGING_MESSAGES, MESSAGING_ROUTE_KEYS } from '../../shared/messaging/messaging-schema.js';
import { handler as scheduleTarget } from '../../functions/workers/schedule-target/handler.js';
import { resetDocumentClient } from '../../functions/lib/table/client.js';
import { scheduleAdapterFromEnv } from '../../functions/lib/adapters/scheduler.js';
import { api, createTestUser, patientAuditTrail, signIn, stackEndpoints, stackOutputs } from '../support/local-stack.js';
import { eventually, eventuallyFound, holdsFor, untilTime } from '../support/eventually.js';
import { subscribeNotifications } from './notifications-socket.js';

const PRACTICE_PHONE = '+15415550100';
const run = Date.now().toString(36);
let provider: string;
let employee: string;
let admin: string;
let providerId: string;

beforeAll(async () => {
  [provider, employee, admin] = await Promise.all([
    signIn('provider@demo.tidewell.local'),
    signIn('employee@demo.tidewell.local'),
    signIn('admin@demo.tidewell.local'),
  ]);
  providerId = (await api(provider, 'GET', '/v1/practices/users/me')).body.userId;
});

let phoneSeq = 0;
/** A phone no other test uses: the carrier's opt-out list and the conversations outlive a test. */
const newPhone = () =>
  `+1971${String(Date.now() % 1_000_000)
    .padStart(6, '0')
    .slice(0, 3)}${String((phoneSeq++ * 37 + Math.floor(Math.random() * 1000)) % 10_000).padStart(4, '0')}`;

const local = (path: string, init?: RequestInit) => fetch(`${stackOutputs().webUrl}${path}`, init);
async function carrierOutbound(): Promise<{ messageId: string; from: string; to: string; text: string; status: string; media: { key: string }[] }[]> {
  const res = await local('/local/carrier/sms');
  const body = (await res.json()) as { label: string; messages: never[] };
  expect(body.label).toBe('Local sandbox carrier');
  return body.messages;
}
const reply = (from: string, text: string, to = PRACTICE_PHONE) =>
  local('/local/carrier/sms', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ from, to, text }) });

async function patientWithPhone(phone: string, lastName = `Texter${run}`): Promise<string> {
  const p = await api(provider, 'POST', '/v1/patients', {
    firstName: 'Sam',
    lastName,
    gender: 'female',
    dob: '1980-04-04',
    phones: [{ type: 'mobile', number: phone }],
    primaryPhoneNumber: phone,
  });
  expect(p.status).toBe(201);
  return p.body.id as string;
}

async function conversationFor(phone: string, token = provider): Promise<string> {
  const c = await api(token, 'POST', '/v1/messaging/conversations', { patientPhoneNumber: phone, practicePhoneNumber: PRACTICE_PHONE });
  expect(c.status).toBe(200);
  return c.body.conversation.conversationId as string;
}

async function upload(name: string, contentType: string, bytes: Uint8Array): Promise<string> {
  const presign = await api(provider, 'POST', '/v1/s3/files', { key: `sms/${run}/${name}`, contentType, size: bytes.length });
  expect(presign.status).toBe(200);
  const put = await fetch(presign.body.signedUrl, {
    method: 'PUT',
    headers: { 'content-type': contentType, origin: stackOutputs().webUrl },
    body: Buffer.from(bytes),
  });
  expect(put.status).toBe(200);
  return presign.body.key as string;
}

describe('two-way SMS', () => {
  it('sends a text: the sandbox carrier records it from the practice number, and its receipt makes it DELIVERED', async () => {
    const phone = newPhone();
    const patientId = await patientWithPhone(phone);
    const first = await api(provider, 'POST', '/v1/messaging/conversations', { patientPhoneNumber: phone.slice(2), practicePhoneNumber: '(541) 555-0100' });
    expect(first.body).toMatchObject({
      created: true,
      conversation: { patientPhoneNumber: phone, practicePhoneNumber: PRACTICE_PHONE, patientIds: [patientId], optOut: { optedOut: false } },
    });
    const again = await api(provider, 'POST', '/v1/messaging/conversations', { patientPhoneNumber: phone, practicePhoneNumber: PRACTICE_PHONE });
    expect(again.body).toMatchObject({ created: false, conversation: { conversationId: first.body.conversation.conversationId } });
    const id = first.body.conversation.conversationId as string;

    const sent = await api(provider, 'POST', `/v1/messaging/conversations/${id}/messages`, { text: `Your lab results are ready ${run}` });
    expect(sent.status).toBe(201);
    expect(sent.body.message).toMatchObject({ direction: 'outbound', from: PRACTICE_PHONE, to: phone, deliveryStatus: 'SENT', patientId, sentBy: providerId });
    const recorded = (await carrierOutbound()).filter((m) => m.to === phone);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ from: PRACTICE_PHONE, text: `Your lab results are ready ${run}` });

    const delivered = await eventuallyFound('the DELIVERED receipt on the text', async () => {
      const list = await api(provider, 'GET', `/v1/messaging/conversations/${id}/messages`);
      const m = list.body.messages.find((x: { messageId: string }) => x.messageId === sent.body.message.messageId);
      return m?.deliveryStatus === 'DELIVERED' ? m : undefined;
    });
    expect(delivered.text).toBe(`Your lab results are ready ${run}`);
    // Stored as an SMS note in the chart, and the access is in the patient's history.
    const notes = await api(provider, 'GET', `/v1/notes?patientId=${patientId}&noteType=SMS`);
    expect(notes.body.notes ?? notes.body).toEqual(
      expect.arrayContaining([expect.objectContaining({ noteId: sent.body.message.noteId, noteType: 'SMS', status: 'DELIVERED' })]),
    );
    expect((await patientAuditTrail(patientId)).some((e) => e.entity === 'sms-message' && e.action === 'create')).toBe(true);
    // The sent text is in the live feed as a READ SMS notification of its conversation (no badge counts it).
    const feedItems = (await api(employee, 'GET', `/v1/notifications?notificationType=SMS&sourceId=${id}&notificationStatus=READ`)).body.notifications;
    expect(feedItems).toEqual([
      expect.objectContaining({
        notificationId: `sms-out-${sent.body.message.noteId}`,
        notificationStatus: 'READ',
        relatedTo: sent.body.message.noteId,
        patientId,
      }),
    ]);
    const history = await api(provider, 'GET', `/sms?phoneNumber=${encodeURIComponent(phone)}`);
    expect(history.body.messages.map((m: { messageId: string }) => m.messageId)).toContain(sent.body.message.messageId);
  });

  it('an inbound text through POST /local/carrier/sms is stored, and its UNREAD SMS notification reaches a subscriber live', async () => {
    const phone = newPhone();
    const patientId = await patientWithPhone(phone);
    const id = await conversationFor(phone);
    const feed = await subscribeNotifications(stackOutputs().graphqlUrl, employee, stackEndpoints().practiceId);
    try {
      const res = await reply(phone, `Thanks, see you Tuesday ${run}`);
      expect(res.status).toBe(202);
      const { inboundMessageId } = (await res.json()) as { inboundMessageId: string };
      const list = await api(provider, 'GET', `/v1/messaging/conversations/${id}/messages`);
      expect(list.body.messages.at(-1)).toMatchObject({
        direction: 'inbound',
        from: phone,
        to: PRACTICE_PHONE,
        text: `Thanks, see you Tuesday ${run}`,
        deliveryStatus: 'RECEIVED',
        readStatus: 'UNREAD',
        patientId,
      });
      expect(list.body.conversation).toMatchObject({ readStatus: 'UNREAD', unreadCount: 1 });
      const notifications = (await api(employee, 'GET', `/v1/notifications?notificationType=SMS&sourceId=${id}`)).body.notifications;
      expect(notifications).toHaveLength(1);
      expect(notifications[0]).toMatchObject({
        notificationType: 'SMS',
        notificationStatus: 'UNREAD',
        patientId,
        data: { from: phone, to: PRACTICE_PHONE, patients: [patientId] },
      });
      expect((await feed.next('onCreateNotification', notifications[0].notificationId)).notification).toMatchObject({
        notificationType: 'SMS',
        notificationStatus: 'UNREAD',
      });
      expect(notifications[0].notificationId).toContain(inboundMessageId);
      const count = await api(employee, 'GET', '/v1/messaging/conversations/unread-count');
      expect(count.body.conversations).toBeGreaterThanOrEqual(1);
      const unreadList = await api(employee, 'GET', '/v1/messaging/conversations?filter=unread&search=Texter');
      expect(unreadList.body.conversations.map((c: { conversationId: string }) => c.conversationId)).toContain(id);

      const read = await api(employee, 'PUT', `/v1/messaging/conversations/${id}/mark-as-read`);
      expect(read.body).toMatchObject({ readStatus: 'READ', unreadCount: 0 });
      expect((await api(employee, 'GET', `/v1/notifications?notificationType=SMS&sourceId=${id}&notificationStatus=READ`)).body.notifications).toHaveLength(1);
      const unread = await api(employee, 'PUT', `/v1/messaging/conversations/${id}/mark-as-unread`, { messageIds: [list.body.messages.at(-1).messageId] });
      expect(unread.body).toMatchObject({ readStatus: 'UNREAD', unreadCount: 1 });
      const archived = await api(employee, 'PUT', `/v1/messaging/conversations/${id}/archive`);
      expect(archived.body.archived).toBe(true);
      expect(
        (await api(employee, 'GET', '/v1/messaging/conversations?filter=archived&limit=100')).body.conversations.map(
          (c: { conversationId: string }) => c.conversationId,
        ),
      ).toContain(id);
      expect((await api(employee, 'PUT', `/v1/messaging/conversations/${id}/unarchive`)).body).toMatchObject({ archived: false, readStatus: 'READ' });
    } finally {
      feed.close();
    }
  });

  it("the conversation list previews the patient's unread question, not the practice's later text, until it is read", async () => {
    const phone = newPhone();
    await patientWithPhone(phone, `Asker${run}`);
    const id = await conversationFor(phone);
    expect((await reply(phone, `Can I take ibuprofen with my new pills? ${run}`)).status).toBe(202);
    const sent = await api(employee, 'POST', `/v1/messaging/conversations/${id}/messages`, { text: `Reminder: your visit is tomorrow at 9 ${run}` });
    expect(sent.status).toBe(201);
    type Listed = { conversationId: string; readStatus: string; lastMessage: { text: string }; preview: { direction: string; text: string } };
    // The hub's first page (one Query of the tab) and a search both carry the preview.
    const listed = async (query: string) =>
      ((await api(provider, 'GET', `/v1/messaging/conversations?${query}`)).body.conversations as Listed[]).find((c) => c.conversationId === id);
    for (const query of ['filter=unread&limit=5', 'filter=all&limit=5', `search=Asker${run}`]) {
      const c = await listed(query);
      expect(c, query).toMatchObject({ readStatus: 'UNREAD', lastMessage: { text: `Reminder: your visit is tomorrow at 9 ${run}` } });
      expect(c!.preview, query).toMatchObject({ direction: 'inbound', text: `Can I take ibuprofen with my new pills? ${run}` });
    }
    // Once read, the list shows the last message again.
    expect((await api(employee, 'PUT', `/v1/messaging/conversations/${id}/mark-as-read`)).body.preview).toMatchObject({
      direction: 'outbound',
      text: `Reminder: your visit is tomorrow at 9 ${run}`,
    });
    expect((await listed('filter=read&limit=5'))!.preview).toMatchObject({ direction: 'outbound', text: `Reminder: your visit is tomorrow at 9 ${run}` });
    // A new question is the preview again.
    expect((await reply(phone, `Also, should I fast? ${run}`)).status).toBe(202);
    expect((await listed('filter=unread&limit=5'))!.preview).toMatchObject({ direction: 'inbound', text: `Also, should I fast? ${run}` });
  });

  it('STOP opts the phone out: a send is refused with a clear message and kept as FAILED; START allows texts again', async () => {
    const phone = newPhone();
    await patientWithPhone(phone);
    const id = await conversationFor(phone);
    expect((await reply(phone, 'STOP')).status).toBe(202);
    expect((await api(provider, 'GET', `/v1/messaging/conversations/${id}`)).body.optOut).toMatchObject({ optedOut: true, keyword: 'STOP' });
    // The hub's list says so too, beside conversations whose numbers did not opt out.
    const hub = (await api(provider, 'GET', '/v1/messaging/conversations?filter=all&limit=25')).body.conversations as {
      conversationId: string;
      patientPhoneNumber: string;
      optOut: { optedOut: boolean; phoneNumber: string };
    }[];
    expect(hub.find((c) => c.conversationId === id)?.optOut).toMatchObject({ optedOut: true, keyword: 'STOP', phoneNumber: phone });
    expect(hub.filter((c) => c.conversationId !== id).every((c) => c.optOut.phoneNumber === c.patientPhoneNumber)).toBe(true);

    const refused = await api(provider, 'POST', `/v1/messaging/conversations/${id}/messages`, { text: 'Reminder: appointment tomorrow' });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe(`${MESSAGING_MESSAGES.sendFailed} ${MESSAGING_MESSAGES.optedOut}`);
    expect(refused.body).toMatchObject({
      reason: 'opted-out',
      failedMessage: { deliveryStatus: 'FAILED', failureReason: MESSAGING_MESSAGES.optedOut, text: 'Reminder: appointment tomorrow' },
    });
    expect((await carrierOutbound()).filter((m) => m.to === phone)).toHaveLength(0);
    const kept = await api(provider, 'GET', `/v1/messaging/conversations/${id}/messages`);
    expect(kept.body.messages.find((m: { messageId: string }) => m.messageId === refused.body.failedMessage.messageId)).toMatchObject({
      deliveryStatus: 'FAILED',
    });

    expect((await reply(phone, 'start')).status).toBe(202);
    expect((await api(provider, 'GET', `/v1/messaging/conversations/${id}`)).body.optOut.optedOut).toBe(false);
    const allowed = await api(provider, 'POST', `/v1/messaging/conversations/${id}/messages`, { text: 'Reminder: appointment tomorrow' });
    expect(allowed.status).toBe(201);
    expect((await carrierOutbound()).filter((m) => m.to === phone)).toHaveLength(1);
  });

  it("a receipt that the handset was not reached makes the text FAILED with the carrier's reason, and it stays FAILED", async () => {
    const phone = newPhone();
    const id = await conversationFor(phone);
    const sent = await api(provider, 'POST', `/v1/messaging/conversations/${id}/messages`, { text: `Unreachable ${run}` });
    expect(sent.status).toBe(201);
    const { dynamodb, tableName, practiceId } = stackEndpoints();
    Object.assign(process.env, {
      DYNAMODB_ENDPOINT: dynamodb,
      TABLE_NAME: tableName,
      PRACTICE_ID: practiceId,
      AWS_REGION: stackOutputs().region,
      TIDEWELL_LOG: 'silent',
    });
    resetDocumentClient();
    const receipt = {
      eventType: 'TEXT_CARRIER_UNREACHABLE',
      eventVersion: '1.0',
      eventTimestamp: Date.now(),
      isFinal: true,
      originationPhoneNumber: PRACTICE_PHONE,
      destinationPhoneNumber: phone,
      messageId: 'carrier-msg',
      messageStatus: 'CARRIER_UNREACHABLE',
      messageStatusDescription: 'The destination carrier could not be reached',
      context: { noteId: sent.body.message.noteId, practiceId },
    };
    await scheduleTarget({ Records: [{ EventSource: 'aws:sns', Sns: { MessageId: 'r1', Message: JSON.stringify(receipt) } }] });
    // The sandbox's own DELIVERED receipt comes later and does not undo it: the carrier marks its
    // record DELIVERED as it publishes that receipt, whose handling in this runtime takes milliseconds.
    await eventually('the sandbox carrier sending its DELIVERED receipt', carrierOutbound, (all) =>
      all.some((m) => m.to === phone && m.status === 'DELIVERED'),
    );
    const lastStatus = async () => (await api(provider, 'GET', `/v1/messaging/conversations/${id}/messages`)).body.messages.at(-1)?.deliveryStatus;
    await holdsFor('the text staying FAILED after the late DELIVERED receipt', 500, lastStatus, (status) => status === 'FAILED');
    const list = await api(provider, 'GET', `/v1/messaging/conversations/${id}/messages`);
    expect(list.body.messages.at(-1)).toMatchObject({ deliveryStatus: 'FAILED', failureReason: 'The destination carrier could not be reached' });
    expect(list.body.conversation.lastMessage).toMatchObject({ deliveryStatus: 'FAILED' });
  });

  it('a conversation follows the chart: a patient given the phone later is among its patients', async () => {
    const phone = newPhone();
    const first = await api(provider, 'POST', '/v1/messaging/conversations', { patientPhoneNumber: phone, practicePhoneNumber: PRACTICE_PHONE });
    expect(first.body.conversation.patientIds).toEqual([]);
    // Letters only: a search with three or more digits also matches phone numbers fuzzily (spec shell §5).
    const name = `Later${run.replace(/\d/g, (d) => 'abcdefghij'[Number(d)]!)}`;
    const patientId = await patientWithPhone(phone, name);
    const again = await api(provider, 'POST', '/v1/messaging/conversations', { patientPhoneNumber: phone, practicePhoneNumber: PRACTICE_PHONE });
    expect(again.body).toMatchObject({ created: false, conversation: { conversationId: first.body.conversation.conversationId, patientIds: [patientId] } });
    expect(
      (await api(provider, 'GET', `/v1/messaging/conversations?search=${name}`)).body.conversations.map((c: { conversationId: string }) => c.conversationId),
    ).toEqual([first.body.conversation.conversationId]);
  });

  it('adds participants once and removes them; an unknown user or patient is refused', async () => {
    const phone = newPhone();
    const patientId = await patientWithPhone(phone);
    const id = await conversationFor(phone);
    const add = (participants: unknown[]) => api(employee, 'POST', `/v1/messaging/conversations/${id}/participants`, { participants });
    expect(
      (
        await add([
          { type: 'user', refId: providerId },
          { type: 'patient', refId: patientId },
        ])
      ).body.participants,
    ).toHaveLength(2);
    const again = await add([{ type: 'user', refId: providerId }]);
    expect(again.body.participants.map((p: { participantId: string }) => p.participantId)).toEqual([`user-${providerId}`, `patient-${patientId}`]);
    expect((await add([{ type: 'user', refId: 'no-such-user' }])).status).toBe(400);
    expect((await add([{ type: 'patient', refId: 'pat_missing' }])).status).toBe(400);
    const removed = await api(employee, 'DELETE', `/v1/messaging/conversations/${id}/participants/user-${providerId}`);
    expect(removed.body.participants.map((p: { participantId: string }) => p.participantId)).toEqual([`patient-${patientId}`]);
    expect((await api(employee, 'DELETE', `/v1/messaging/conversations/${id}/participants/user-${providerId}`)).status).toBe(404);
    expect((await api(employee, 'GET', '/v1/messaging/conversations/cnv_missing')).status).toBe(404);
  });

  it('pages a conversation newest first with before and limit, each page oldest first', async () => {
    const phone = newPhone();
    const id = await conversationFor(phone);
    for (const text of ['one', 'two', 'three']) {
      expect((await api(provider, 'POST', `/v1/messaging/conversations/${id}/messages`, { text: `${text} ${run}` })).status).toBe(201);
      await new Promise((r) => setTimeout(r, 5));
    }
    const newest = await api(provider, 'GET', `/v1/messaging/conversations/${id}/messages?limit=2`);
    expect(newest.body.messages.map((m: { text: string }) => m.text)).toEqual([`two ${run}`, `three ${run}`]);
    expect(newest.body.hasMore).toBe(true);
    const older = await api(
      provider,
      'GET',
      `/v1/messaging/conversations/${id}/messages?limit=2&before=${encodeURIComponent(newest.body.messages[0].timestamp)}`,
    );
    expect(older.body.messages.map((m: { text: string }) => m.text)).toEqual([`one ${run}`]);
    expect(older.body.hasMore).toBe(false);
  });

  it('checks attachments against the stored file: over 5,000,000 bytes or a type texts cannot carry is a 400 with the spec text', async () => {
    const phone = newPhone();
    await patientWithPhone(phone);
    const id = await conversationFor(phone);
    const bigKey = await upload('scan.jpg', 'image/jpeg', new Uint8Array(5_000_001));
    // The browser's claim is not trusted: the stored size decides.
    const big = await api(provider, 'POST', `/v1/messaging/conversations/${id}/messages`, {
      text: 'scan',
      files: [{ key: bigKey, name: 'scan.jpg', contentType: 'image/jpeg', size: 1000 }],
    });
    expect(big.status).toBe(400);
    expect(big.body.message).toBe('A selected file is either an unsupported file type or too large.');
    const txtKey = await upload('notes.txt', 'text/plain', new TextEncoder().encode('plain text'));
    const wrong = await api(provider, 'POST', `/v1/messaging/conversations/${id}/messages`, {
      text: '',
      files: [{ key: txtKey, name: 'notes.txt', contentType: 'text/plain', size: 10 }],
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('A selected file is either an unsupported file type or too large.');
    expect((await carrierOutbound()).filter((m) => m.to === phone)).toHaveLength(0);

    const pngKey = await upload('rash.png', 'image/png', new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 0, 0]));
    const ok = await api(provider, 'POST', `/v1/messaging/conversations/${id}/messages`, {
      text: 'Photo of the rash',
      files: [{ key: pngKey, name: 'rash.png', contentType: 'image/png', size: 10 }],
    });
    expect(ok.status).toBe(201);
    expect(ok.body.message.attachments).toEqual([{ key: pngKey, name: 'rash.png', contentType: 'image/png', size: 10 }]);
    expect((await carrierOutbound()).filter((m) => m.to === phone)).toEqual([
      expect.objectContaining({ text: 'Photo of the rash', media: [expect.objectContaining({ key: pngKey, size: 10 })] }),
    ]);
  });

  it("sends practice drive files picked in the composer as the text's media: copied beside the text, so deleting the drive file changes nothing sent", async () => {
    const phone = newPhone();
    const patientId = await patientWithPhone(phone);
    const id = await conversationFor(phone);
    const pdf = new TextEncoder().encode(`%PDF-1.4 discharge instructions ${run}`);
    const presign = await api(provider, 'POST', '/v1/s3/files', {
      key: `public/Handouts ${run}/discharge.pdf`,
      contentType: 'application/pdf',
      size: pdf.length,
    });
    expect(presign.status).toBe(200);
    expect(
      (
        await fetch(presign.body.signedUrl, {
          method: 'PUT',
          headers: { 'content-type': 'application/pdf', origin: stackOutputs().webUrl },
          body: Buffer.from(pdf),
        })
      ).status,
    ).toBe(200);
    const driveKey = presign.body.key as string;
    expect(driveKey.startsWith(`protected/public/Handouts ${run}/`)).toBe(true);

    const sent = await api(provider, 'POST', `/v1/messaging/conversations/${id}/messages`, {
      text: 'Your discharge instructions',
      files: [{ key: driveKey, name: 'discharge.pdf', contentType: 'application/pdf', size: pdf.length }],
    });
    expect(sent.status).toBe(201);
    const [attachment] = sent.body.message.attachments as { key: string; name: string; contentType: string; size: number }[];
    expect(attachment).toMatchObject({ name: 'discharge.pdf', contentType: 'application/pdf', size: pdf.length });
    expect(attachment!.key.startsWith(`protected/patients/${patientId}/sms/`)).toBe(true);
    expect((await carrierOutbound()).filter((m) => m.to === phone)).toEqual([
      expect.objectContaining({ text: 'Your discharge instructions', media: [expect.objectContaining({ key: attachment!.key, size: pdf.length })] }),
    ]);

    expect((await api(provider, 'DELETE', `/v1/s3/files?key=${encodeURIComponent(driveKey)}`)).status).toBe(200);
    const listed = await api(provider, 'GET', `/v1/messaging/conversations/${id}/messages`);
    expect(listed.body.messages.at(-1).attachments).toEqual([attachment]);
    const read = await api(provider, 'GET', `/v1/s3/files?key=${encodeURIComponent(attachment!.key)}`);
    expect(read.status).toBe(200);
    expect(Buffer.from(await (await fetch(read.body.signedUrl)).arrayBuffer()).equals(Buffer.from(pdf))).toBe(true);
  });

  it('refuses a drive file a text cannot carry with the spec text, and sends nothing', async () => {
    const phone = newPhone();
    await patientWithPhone(phone);
    const id = await conversationFor(phone);
    const bytes = new TextEncoder().encode('a,b\n1,2\n');
    const presign = await api(provider, 'POST', '/v1/s3/files', { key: `public/Handouts ${run}/labs.csv`, contentType: 'text/csv', size: bytes.length });
    expect(
      (await fetch(presign.body.signedUrl, { method: 'PUT', headers: { 'content-type': 'text/csv', origin: stackOutputs().webUrl }, body: Buffer.from(bytes) }))
        .status,
    ).toBe(200);
    const refused = await api(provider, 'POST', `/v1/messaging/conversations/${id}/messages`, {
      text: 'labs',
      files: [{ key: presign.body.key, name: 'labs.csv', contentType: 'application/pdf', size: bytes.length }],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('A selected file is either an unsupported file type or too large.');
    expect((await carrierOutbound()).filter((m) => m.to === phone)).toHaveLength(0);
  });
});

describe('scheduled texts', () => {
  const schedule = (token: string, phone: string, patientId: string, text: string, inMs: number, from = PRACTICE_PHONE) =>
    api(token, 'POST', '/v1/scheduled-events', {
      when: new Date(Date.now() + inMs).toISOString(),
      eventType: 'createScheduledNote',
      service: 'notes',
      operationId: 'createNote',
      operationVersion: 'v2',
      invocations: 1,
      request: { noteType: 'SMS', patientId, data: { from, to: phone, text } },
    });
  const eventById = async (eventId: string) =>
    (await api(provider, 'GET', `/v1/scheduled-events?eventId=${eventId}&status=active,processing,completed,failed,deleted`)).body.events[0];

  it('fires once even when the target runs several times: one text, a signed SMS note, the event completed', async () => {
    const phone = newPhone();
    const patientId = await patientWithPhone(phone);
    const created = await schedule(provider, phone, patientId, `See you at 3 ${run}`, 2500);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      status: 'active',
      operationVersion: 'v2',
      invocations: 1,
      request: { noteType: 'SMS', patientId, data: { from: PRACTICE_PHONE, to: phone } },
    });
    const eventId = created.body.eventId as string;
    expect((await api(provider, 'GET', `/v1/scheduled-events?to=${encodeURIComponent(phone)}`)).body.events.map((e: { eventId: string }) => e.eventId)).toEqual(
      [eventId],
    );

    // The runtime's scheduler fires it; two more deliveries of the same schedule race it in this process.
    const { dynamodb, tableName, practiceId, smsVoice, s3 } = stackEndpoints();
    Object.assign(process.env, {
      DYNAMODB_ENDPOINT: dynamodb,
      TABLE_NAME: tableName,
      PRACTICE_ID: practiceId,
      AWS_REGION: stackOutputs().region,
      SMS_VOICE_ENDPOINT: smsVoice,
      SMS_CONFIGURATION_SET: 'tidewell-demo-sms',
      S3_ENDPOINT: s3,
      FILES_BUCKET: stackOutputs().filesBucket,
      TIDEWELL_LOG: 'silent',
    });
    resetDocumentClient();
    await untilTime(Date.parse(created.body.when));
    const payload = { kind: 'scheduled-sms', practiceId, eventId };
    await Promise.all([scheduleTarget(payload), scheduleTarget(payload)]);

    const done = await eventuallyFound('the scheduled text completed', async () => {
      const e = await eventById(eventId);
      return e?.status === 'completed' ? e : undefined;
    });
    // A fourth delivery, awaited: a text it sent would be at the carrier when it returns. The
    // runtime's own delivery is over once its one-time schedule is gone.
    await scheduleTarget(payload);
    const runtimeSchedules = scheduleAdapterFromEnv({
      SCHEDULER_ENDPOINT: stackEndpoints().scheduler,
      SCHEDULER_GROUP: stackEndpoints().schedulerGroup,
      SCHEDULER_TARGET_ARN: 'arn:aws:lambda:us-east-1:000000000000:function:schedule-target',
      SCHEDULER_ROLE_ARN: 'arn:aws:iam::000000000000:role/local',
      AWS_REGION: stackOutputs().region,
    });
    await eventually(
      "the runtime's schedule for the text gone after it fired",
      () => runtimeSchedules.get(`scheduled-sms.${eventId}`),
      (stored) => stored === null,
    );
    expect((await carrierOutbound()).filter((m) => m.to === phone && m.text === `See you at 3 ${run}`)).toHaveLength(1);
    // Open chats hear of it live: one READ SMS notification for the one text.
    const announced = (await api(provider, 'GET', `/v1/notifications?notificationType=SMS&notificationStatus=READ&notificationId=sms-out-${done.noteId}`)).body
      .notifications;
    expect(announced).toEqual([expect.objectContaining({ relatedTo: done.noteId, author: providerId })]);
    const note = await api(provider, 'GET', `/v1/notes/${done.noteId}`);
    expect(note.body).toMatchObject({
      noteType: 'SMS',
      patientId,
      signed: expect.any(String),
      data: { text: `See you at 3 ${run}`, scheduledEventId: eventId },
    });
    expect(await eventById(eventId)).toMatchObject({ status: 'completed', noteId: done.noteId });
  });

  it('a cancelled text never fires; only its author or an admin may move or cancel it', async () => {
    const phone = newPhone();
    const patientId = await patientWithPhone(phone);
    const created = await schedule(provider, phone, patientId, `Cancelled ${run}`, 2000);
    const eventId = created.body.eventId as string;
    const schedules = scheduleAdapterFromEnv({
      SCHEDULER_ENDPOINT: stackEndpoints().scheduler,
      SCHEDULER_GROUP: stackEndpoints().schedulerGroup,
      SCHEDULER_TARGET_ARN: 'arn:aws:lambda:us-east-1:000000000000:function:schedule-target',
      SCHEDULER_ROLE_ARN: 'arn:aws:iam::000000000000:role/local',
      AWS_REGION: stackOutputs().region,
    });
    const later = new Date(Date.now() + 120_000).toISOString();
    expect((await api(employee, 'PUT', `/v1/scheduled-events/${eventId}`, { when: later })).status).toBe(403);
    const moved = await api(admin, 'PUT', `/v1/scheduled-events/${eventId}`, { when: later });
    expect(moved.body).toMatchObject({ status: 'active', when: later });
    expect(await schedules.get(`scheduled-sms.${eventId}`)).toMatchObject({ at: new Date(later.slice(0, 19) + 'Z') });
    expect((await api(provider, 'GET', `/v1/scheduled-events/${eventId}`)).body.when).toBe(later);
    expect((await api(employee, 'DELETE', `/v1/scheduled-events/${eventId}`)).status).toBe(403);
    const cancelled = await api(provider, 'DELETE', `/v1/scheduled-events/${eventId}`);
    expect(cancelled.body).toMatchObject({ status: 'deleted' });
    // The subject is the clock: past the time it was due, plus one of the runtime scheduler's 1 s
    // ticks and the send, in which a schedule still there would have fired.
    await untilTime(Date.parse(created.body.when));
    await holdsFor(
      "no text to the cancelled event's phone",
      1_300,
      async () => (await carrierOutbound()).filter((m) => m.to === phone).length,
      (n) => n === 0,
      { every: 250 },
    );
    expect((await carrierOutbound()).filter((m) => m.to === phone)).toHaveLength(0);
    expect(await eventById(eventId)).toMatchObject({ status: 'deleted', noteId: null });
    expect((await api(provider, 'DELETE', `/v1/scheduled-events/${eventId}`)).status).toBe(404);
    expect(await schedules.get(`scheduled-sms.${eventId}`)).toBeNull();
  });

  it('a carrier that refuses the text marks the event failed and notifies its author; the text is kept as FAILED', async () => {
    const before = (await api(admin, 'GET', '/v1/practices/metadata')).body;
    // A practice number the carrier account does not hold: the carrier refuses it, as the service would.
    const unheld = '+15415550177';
    expect(
      (
        await api(admin, 'PUT', '/v1/practices/metadata', {
          additionalPhoneNumbers: [...before.additionalPhoneNumbers, { phoneNumber: unheld, owner: providerId }],
        })
      ).status,
    ).toBe(200);
    try {
      const phone = newPhone();
      const patientId = await patientWithPhone(phone);
      const direct = await api(provider, 'POST', `/v1/messaging/conversations/${await conversationFor(phone)}/messages`, {
        text: 'From the unheld number',
        from: unheld,
      });
      expect(direct.status).toBe(422);
      expect(direct.body).toMatchObject({ reason: 'rejected', failedMessage: { from: unheld, deliveryStatus: 'FAILED' } });

      const created = await schedule(provider, phone, patientId, `Refused ${run}`, 1500, unheld);
      const eventId = created.body.eventId as string;
      const failed = await eventuallyFound('the scheduled text failed', async () => {
        const e = await eventById(eventId);
        return e?.status === 'failed' ? e : undefined;
      });
      expect(failed.failureReason).toBe(`${MESSAGING_MESSAGES.sendFailed} ${MESSAGING_MESSAGES.carrierRejected}`);
      const told = (await api(provider, 'GET', `/v1/notifications?sourceId=${eventId}&notificationType=SMS`)).body.notifications;
      expect(told).toEqual([expect.objectContaining({ assigned: providerId, notificationStatus: 'UNREAD', patientId })]);
      const note = await api(provider, 'GET', `/v1/notes/${failed.noteId}`);
      expect(note.body).toMatchObject({ status: 'FAILED', data: { text: `Refused ${run}`, deliveryStatus: 'FAILED' } });
    } finally {
      await api(admin, 'PUT', '/v1/practices/metadata', { additionalPhoneNumbers: before.additionalPhoneNumbers });
    }
  });

  it('refuses a time in the past and a number that is not the practice’s', async () => {
    const phone = newPhone();
    const patientId = await patientWithPhone(phone);
    const past = await schedule(provider, phone, patientId, 'late', -60_000);
    expect(past.status).toBe(400);
    expect(past.body.message).toBe(MESSAGING_MESSAGES.scheduledWhenPast);
    const foreign = await schedule(provider, phone, patientId, 'x', 60_000, '+15415550999');
    expect(foreign.status).toBe(400);
    expect(foreign.body.message).toBe(MESSAGING_MESSAGES.notPracticeNumber);
  });
});

describe('refusals on every messaging route', () => {
  const paths = MESSAGING_ROUTE_KEYS.map((key) => {
    const [method, path] = key.split(' ') as [string, string];
    return { key, method, path: path.replace('{id}', 'cnv_x').replace('{participantId}', 'user-x') + (path === '/sms' ? '?phoneNumber=5415550123' : '') };
  });

  it('no_access users and users of another practice are refused (403) before any data is read', async () => {
    const noAccess = await signIn('noaccess@demo.tidewell.local');
    const foreign = await createTestUser({ email: `sms-foreign-${run}@other.tidewell.local`, group: 'admin', practiceId: 'prc_other_practice' });
    for (const token of [noAccess, foreign]) {
      for (const { key, method, path } of paths) {
        const res = await api(token, method, path, method === 'GET' || method === 'DELETE' ? undefined : {});
        expect(res.status, key).toBe(403);
      }
    }
    for (const { key, method, path } of paths) expect((await api(null, method, path)).status, key).toBe(401);
  });
});

describe('the ePHI waiver of the SMS chat', () => {
  it('accepts the HIPAA authorization for a patient and emails a waiver request to one with an address', async () => {
    const p = await api(provider, 'POST', '/v1/patients', {
      firstName: 'Wes',
      lastName: `Waiver${run}`,
      gender: 'male',
      dob: '1975-05-05',
      email: `wes.${run}@example.com`,
      hipaaAuthorizationAccepted: false,
    });
    const patientId = p.body.id as string;
    const requested = await api(provider, 'POST', `/v1/patients/${patientId}/patient_documents/request_acceptance`, {});
    expect(requested.status).toBe(200);
    expect(requested.body).toMatchObject({ requested: true, messageId: expect.stringMatching(/^local-/) });
    const accepted = await api(provider, 'POST', `/v1/patients/${patientId}/accept_hipaa_authorization`, {});
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ id: patientId, hipaaAuthorizationAccepted: true });
    expect((await api(provider, 'GET', `/v1/patients/${patientId}`)).body.hipaaAuthorizationAccepted).toBe(true);
    const trail = await patientAuditTrail(patientId);
    expect(trail.map((e) => e.entity)).toEqual(expect.arrayContaining(['patient-hipaa-authorization', 'patient-hipaa-request']));

    const noEmail = await api(provider, 'POST', '/v1/patients', { firstName: 'Nia', lastName: `NoMail${run}`, gender: 'female', dob: '1990-01-01' });
    const refused = await api(provider, 'POST', `/v1/patients/${noEmail.body.id}/patient_documents/request_acceptance`, {});
    expect(refused.status).toBe(400);
    expect((await api(provider, 'POST', '/v1/patients/pat_missing/accept_hipaa_authorization', {})).status).toBe(404);
  });
});

describe('the local sandbox carrier', () => {
  it('serves a labelled page that lists outbound texts and takes a reply from a form', async () => {
    const page = await local('/local/carrier');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<h1>Local sandbox carrier</h1>');
    expect(html).toMatch(/<label for="from">/);
    expect(html).toMatch(/<label for="text">/);
    const phone = newPhone();
    const id = await conversationFor(phone);
    const form = await local('/local/carrier/sms', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ from: phone, to: PRACTICE_PHONE, text: 'Typed on the carrier page' }).toString(),
    });
    expect(form.status).toBe(200);
    expect(await form.text()).toContain('Reply delivered to the practice.');
    expect((await api(provider, 'GET', `/v1/messaging/conversations/${id}/messages`)).body.messages.at(-1)).toMatchObject({
      text: 'Typed on the carrier page',
      direction: 'inbound',
    });
  });

  it('validates what the service validates: numbers, the origination number the account holds, the signature', async () => {
    const { SmsVoiceV2Carrier } = await import('../../functions/lib/adapters/sms-carrier.js');
    const carrier = new SmsVoiceV2Carrier({
      region: stackOutputs().region,
      endpoint: stackEndpoints().smsVoice,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    const attempt = (input: { from: string; to: string; text: string }) =>
      carrier.send(input).then(
        () => 'sent',
        (e: { kind: string; code: string }) => `${e.kind} ${e.code}`,
      );
    expect(await attempt({ from: PRACTICE_PHONE, to: '5415550123', text: 'x' })).toBe('rejected ValidationException:INVALID_PARAMETER');
    expect(await attempt({ from: '+15415550199', to: newPhone(), text: 'x' })).toBe('rejected ResourceNotFoundException');
    expect(await attempt({ from: PRACTICE_PHONE, to: newPhone(), text: 'y'.repeat(1601) })).toBe('rejected ValidationException:INVALID_PARAMETER');
    const unsigned = await fetch(stackEndpoints().smsVoice, { method: 'POST', headers: { 'x-amz-target': 'PinpointSMSVoiceV2.SendTextMessage' }, body: '{}' });
    expect(unsigned.status).toBe(403);
    const unknownNumber = await reply(newPhone(), 'hi', '+15415550199');
    expect(unknownNumber.status).toBe(404);
  });
});
