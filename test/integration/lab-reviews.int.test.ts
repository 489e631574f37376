import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { scheduleName } from '../../functions/lib/adapters/scheduler.js';
import { HEALTH_GORILLA_CLIENT_SECRET_ID, HealthGorillaClient } from '../../functions/lib/adapters/health-gorilla.js';
import {
  LOCAL_HG_CLIENT_ID,
  LOCAL_HG_CLIENT_URI,
  LOCAL_HG_LAB_ORG,
  LOCAL_HG_PATH,
  LOCAL_HG_PRACTICE_ORG,
  LOCAL_HG_USER_LOGIN,
} from '../../infra/local/labs/local-health-gorilla.js';
import { LAB_REVIEW_MESSAGES, type LabReview } from '../../shared/labs/lab-review.js';
import { MESSAGING_MESSAGES } from '../../shared/messaging/messaging-constants.js';
import { TASK_MESSAGES } from '../../shared/tasks/task-schema.js';
import { type LabNoteData } from '../../shared/labs/lab-schema.js';
import { api, patientAuditTrail, signIn, stackEndpoints, stackOutputs } from '../support/local-stack.js';
import { eventually } from '../support/eventually.js';

const run = Date.now().toString(36);
let provider: string;
let pa: string;
let admin: string;
let employee: string;
let providerId: string;
let plainPatient: string;
let criticalPatient: string;

const CMP = 'Comprehensive metabolic panel (CMP)';
const PRACTICE_PHONE = '+15415550100';
let phoneSeq = 0;
/** A phone no other test uses: the carrier's opt-out list and the conversations outlive a test. */
const newPhone = () =>
  `+1973${String(Date.now() % 1_000_000)
    .padStart(6, '0')
    .slice(0, 3)}${String((phoneSeq++ * 37 + Math.floor(Math.random() * 1000)) % 10_000).padStart(4, '0')}`;
const secrets = () => JSON.parse(readFileSync(stackEndpoints().partnerSecretsFile, 'utf8')) as Record<string, string>;
const vendor = () =>
  new HealthGorillaClient({
    baseUrl: `${stackOutputs().apiUrl.replace(/\/api$/, '')}${LOCAL_HG_PATH}`,
    clientId: LOCAL_HG_CLIENT_ID,
    clientSecret: secrets()[HEALTH_GORILLA_CLIENT_SECRET_ID]!,
    clientUri: LOCAL_HG_CLIENT_URI,
    userLogin: LOCAL_HG_USER_LOGIN,
    scopes: 'user/*.*',
    authorizedBy: LOCAL_HG_PRACTICE_ORG,
    performer: LOCAL_HG_LAB_ORG,
  });

/** A CMP ordered by the demo provider for the patient; answers once the lab's results are in the note. */
async function orderCmp(patientId: string): Promise<{ noteId: string; hgId: string }> {
  const created = await api(provider, 'POST', '/v2/notes', { noteId: 'new', noteType: 'LAB', status: 'DRAFT', data: { text: 'Labs' }, patientId });
  expect(created.status).toBe(201);
  const ordered = await api(provider, 'POST', `/v1/notes/${created.body.noteId}/lab-order`, { noteVersion: created.body.noteVersion, tests: ['24323-8'] });
  expect(ordered.status, JSON.stringify(ordered.body)).toBe(200);
  return { noteId: created.body.noteId, hgId: (ordered.body.data as LabNoteData).hgId! };
}

const reviewsOf = async (token: string, status = 'PENDING') => {
  const res = await api(token, 'GET', `/v1/notes/labs/reviews?status=${status}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.reviews as LabReview[];
};
const pendingFor = (noteId: string) =>
  eventually(
    `a pending review for note ${noteId}`,
    () => reviewsOf(provider),
    (list) => list.some((r) => r.noteId === noteId),
    { within: 25_000 },
  ).then((list) => list.find((r) => r.noteId === noteId));

beforeAll(async () => {
  [provider, pa, admin, employee] = await Promise.all(['provider', 'pa', 'admin', 'employee'].map((who) => signIn(`${who}@demo.tidewell.local`)));
  providerId = (await api(provider, 'GET', '/v1/practices/users/me')).body?.userId;
  plainPatient = (await api(provider, 'POST', '/v1/patients', { firstName: 'Rita', lastName: `Review${run}`, gender: 'female', dob: '1970-02-03' })).body.id;
  criticalPatient = (await api(provider, 'POST', '/v1/patients', { firstName: 'Carl', lastName: `Critical${run}`, gender: 'male', dob: '1961-09-10' })).body.id;
});

describe('results to review', () => {
  it("lists each result on its ordering provider's list, critical and abnormal before normal, with the patient's name and flagged values", async () => {
    // Oldest first: a result all in range, then one out of range, then a critical one.
    const normal = await orderCmp(plainPatient);
    await pendingFor(normal.noteId);
    // The lab corrects the report (version 2, through the sandbox's control): every value in range.
    // The practice applies what Health Gorilla then holds, so the correction goes through the vendor.
    const [report] = await vendor().reportsFor(normal.hgId);
    const values: Record<string, number> = {};
    for (const o of (
      report as { contained: { code: { coding: { code: string }[] }; referenceRange: { low?: { value: number }; high?: { value: number } }[] }[] }
    ).contained) {
      const range = o.referenceRange[0]!;
      const low = range.low?.value ?? 0;
      const high = range.high?.value ?? low * 2 + 1;
      values[o.code.coding[0]!.code] = Number(((low + high) / 2).toFixed(2));
    }
    const delivered = await fetch(`${stackOutputs().apiUrl.replace(/\/api$/, '')}${LOCAL_HG_PATH}/sandbox/RequestGroup/${normal.hgId}/results`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ values, issued: new Date().toISOString() }),
    });
    expect(delivered.status).toBe(200);
    expect(((await delivered.json()) as { statuses: number[] }).statuses).toEqual([200]);
    const abnormal = await orderCmp(plainPatient);
    await pendingFor(abnormal.noteId);
    const critical = await orderCmp(criticalPatient);
    await pendingFor(critical.noteId);

    const list = await eventually(
      'the normal result in the review list',
      () => reviewsOf(provider),
      (l) => l.find((r) => r.noteId === normal.noteId)?.severity === 'normal',
    );
    const mine = list.filter((r) => [normal.noteId, abnormal.noteId, critical.noteId].includes(r.noteId));
    expect(mine.map((r) => r.noteId)).toEqual([critical.noteId, abnormal.noteId, normal.noteId]);
    expect(mine.map((r) => r.severity)).toEqual(['critical', 'abnormal', 'normal']);
    // The whole list keeps that order: no abnormal result below a normal one, no critical below either.
    const ranks = list.map((r) => ({ critical: 0, abnormal: 1, normal: 2 })[r.severity]);
    expect([...ranks].sort()).toEqual(ranks);
    const top = mine[0]!;
    expect(top).toMatchObject({
      patientName: `Carl Critical${run}`,
      patientId: criticalPatient,
      tests: [CMP],
      status: 'PENDING',
      orderingProviderId: providerId,
    });
    expect(top.flags[0]).toMatchObject({ critical: true });
    expect(top.flags[0]!.value).toMatch(/^\d/);
    expect(mine[1]!.flags.length).toBeGreaterThanOrEqual(2);
    expect(mine[1]!.flags.every((f) => !f.critical)).toBe(true);
    expect(mine[2]!.flags).toEqual([]);
    // The waiting time counts from the first result: the correction did not restart it.
    expect(Date.parse(mine[2]!.waitingSince)).toBeLessThan(Date.parse(mine[2]!.receivedAt));

    // Scoped to the ordering provider: another provider's list does not hold them, nor may they sign off.
    expect((await reviewsOf(pa)).some((r) => r.noteId === normal.noteId)).toBe(false);
    const paTry = await api(pa, 'POST', `/v1/notes/labs/reviews/${normal.noteId}`, { version: mine[2]!.version });
    expect(paTry.status).toBe(403);
    expect(paTry.body.message).toBe(LAB_REVIEW_MESSAGES.notYours);
    // Employees have no review list.
    expect((await api(employee, 'GET', '/v1/notes/labs/reviews')).status).toBe(403);
  });

  it('names the patient and the test in the lab-results notification', async () => {
    const order = await orderCmp(plainPatient);
    const notification = await eventually(
      'the LAB_RESULTS notification',
      async () =>
        (
          (await api(provider, 'GET', `/v1/notifications?notificationType=LAB_RESULTS&sourceId=${order.noteId}`)).body as {
            notifications?: { text: string; assigned: string }[];
          }
        ).notifications ?? [],
      (n) => n.length > 0,
      { within: 25_000 },
    );
    expect(notification[0]!.assigned).toBe(providerId);
    expect(notification[0]!.text).toMatch(new RegExp(`^Lab results for Rita Review${run}: Comprehensive metabolic panel \\(CMP\\) \\(\\d+ out of range\\)$`));
  });

  it('signs a result off: records who and when, keeps the comment and follow-up task, audits it, and refuses a second or stale sign-off', async () => {
    const order = await orderCmp(plainPatient);
    const pending = (await pendingFor(order.noteId))!;
    // A stale version (results arrived since the reviewer looked) is refused and changes nothing.
    const stale = await api(provider, 'POST', `/v1/notes/labs/reviews/${order.noteId}`, { version: pending.version - 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe(LAB_REVIEW_MESSAGES.changed);
    const tooLong = await api(provider, 'POST', `/v1/notes/labs/reviews/${order.noteId}`, { version: pending.version, comment: 'x'.repeat(2001) });
    expect(tooLong.status).toBe(400);
    expect(JSON.stringify(tooLong.body)).toContain(LAB_REVIEW_MESSAGES.commentTooLong);

    // The follow-up task is made through the tasks API, then linked with the sign-off.
    const task = await api(provider, 'POST', '/v1/tasks', {
      text: `Call Rita about potassium ${run}`,
      patientId: plainPatient,
      noteDataLinks: [{ interactionIdent: order.noteId }],
    });
    expect(task.status).toBe(201);
    const before = Date.now();
    const signed = await api(provider, 'POST', `/v1/notes/labs/reviews/${order.noteId}`, {
      version: pending.version,
      comment: 'Repeat in 3 months',
      followUpTaskId: task.body.ident,
    });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    expect(signed.body).toMatchObject({
      status: 'REVIEWED',
      reviewedBy: { userId: providerId, name: 'Daniel Okafor' },
      comment: 'Repeat in 3 months',
      followUpTaskId: task.body.ident,
    });
    expect(Date.parse(signed.body.reviewedAt)).toBeGreaterThanOrEqual(before - 1000);
    // Off the pending list, on the reviewed one.
    expect((await reviewsOf(provider)).some((r) => r.noteId === order.noteId)).toBe(false);
    expect((await reviewsOf(provider, 'REVIEWED'))[0]).toMatchObject({ noteId: order.noteId, reviewedBy: { userId: providerId } });
    const again = await api(admin, 'POST', `/v1/notes/labs/reviews/${order.noteId}`, { version: signed.body.version });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(LAB_REVIEW_MESSAGES.alreadyReviewed);
    // In the patient's access history, by the provider.
    const trail = await patientAuditTrail(plainPatient);
    expect(trail.some((e) => e.entity === 'lab-review' && e.action === 'update' && e.entityId === order.noteId && e.actorUserId === providerId)).toBe(true);
  });

  it('signs off with a follow-up task (assignee, due date) and a text to the patient in one request, audited; refuses a follow-up it cannot make before signing anything', async () => {
    const phone = newPhone();
    const patientId = (
      await api(provider, 'POST', '/v1/patients', {
        firstName: 'Tess',
        lastName: `Textable${run}`,
        gender: 'female',
        dob: '1979-05-06',
        phones: [{ type: 'mobile', number: phone }],
        primaryPhoneNumber: phone,
      })
    ).body.id as string;
    const paId = (await api(pa, 'GET', '/v1/practices/users/me')).body.userId as string;
    const order = await orderCmp(patientId);
    const pending = (await pendingFor(order.noteId))!;
    const url = `/v1/notes/labs/reviews/${order.noteId}`;

    // Refused before anything is written: an unknown assignee, an empty text. The result stays pending.
    const unknown = await api(provider, 'POST', url, { version: pending.version, followUpTask: { text: 'Call her', assigned: 'nobody-here' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe(TASK_MESSAGES.assigneeUnknown);
    const empty = await api(provider, 'POST', url, { version: pending.version, followUpMessage: { text: '  ' } });
    expect(empty.status).toBe(400);
    expect(JSON.stringify(empty.body)).toContain(LAB_REVIEW_MESSAGES.messageRequired);
    expect((await api(provider, 'GET', url)).body).toMatchObject({ status: 'PENDING', version: pending.version });

    const text = `Hi Tess, your lab results are back. Please call us to go over them. ${run}`;
    const signed = await api(provider, 'POST', url, {
      version: pending.version,
      comment: 'Glucose a little high',
      followUpTask: { text: `Schedule fasting glucose for Tess ${run}`, assigned: paId, dueOn: '2031-03-04' },
      followUpMessage: { text },
    });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    expect(signed.body).toMatchObject({
      status: 'REVIEWED',
      comment: 'Glucose a little high',
      followUpMessage: { status: 'SENT', text, to: phone, from: PRACTICE_PHONE },
    });
    // The task: the assignee's, due that day, linked to the patient and the lab.
    const task = await api(pa, 'GET', `/v1/tasks/${signed.body.followUpTaskId}`);
    expect(task.status).toBe(200);
    expect(task.body).toMatchObject({
      text: `Schedule fasting glucose for Tess ${run}`,
      assigned: paId,
      dueOn: '2031-03-04',
      patientId,
      createdBy: providerId,
      noteDataLinks: [{ interactionIdent: order.noteId }],
    });
    // The text went through the carrier and is in the patient's conversation, sent by the provider.
    const carried = await eventually(
      'the follow-up text at the carrier',
      async () =>
        ((await (await fetch(`${stackOutputs().webUrl}/local/carrier/sms`)).json()) as { messages: { to: string; text: string }[] }).messages.filter(
          (m) => m.to === phone,
        ),
      (m) => m.length > 0,
    );
    expect(carried[0]!.text).toBe(text);
    const messages = (await api(provider, 'GET', `/v1/messaging/conversations/${signed.body.followUpMessage.conversationId}/messages`)).body.messages as {
      text: string;
      direction: string;
      patientId: string;
    }[];
    expect(messages).toEqual([expect.objectContaining({ text, direction: 'outbound', patientId })]);
    // The sign-off, the task and the text are each in the patient's access history, by the provider.
    const trail = await patientAuditTrail(patientId);
    for (const entity of ['lab-review', 'task', 'sms-message'])
      expect(
        trail.some((e) => e.entity === entity && e.action === (entity === 'lab-review' ? 'update' : 'create') && e.actorUserId === providerId),
        entity,
      ).toBe(true);

    // A patient with no phone: refused with what to do, nothing signed off.
    const noPhone = (await api(provider, 'POST', '/v1/patients', { firstName: 'Nora', lastName: `Nophone${run}`, gender: 'female', dob: '1980-01-02' })).body
      .id as string;
    const second = await orderCmp(noPhone);
    const secondPending = (await pendingFor(second.noteId))!;
    const refused = await api(provider, 'POST', `/v1/notes/labs/reviews/${second.noteId}`, {
      version: secondPending.version,
      followUpMessage: { text: 'Please call us' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(LAB_REVIEW_MESSAGES.noPatientPhone);
    expect((await api(provider, 'GET', `/v1/notes/labs/reviews/${second.noteId}`)).body.status).toBe('PENDING');
  });

  it('keeps the sign-off, the task and the text when the patient replied STOP: the text comes back FAILED with the messaging reason and stays on the review', async () => {
    const phone = newPhone();
    const patientId = (
      await api(provider, 'POST', '/v1/patients', {
        firstName: 'Otto',
        lastName: `Optout${run}`,
        gender: 'male',
        dob: '1966-07-08',
        phones: [{ type: 'mobile', number: phone }],
        primaryPhoneNumber: phone,
      })
    ).body.id as string;
    const stop = await fetch(`${stackOutputs().webUrl}/local/carrier/sms`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ from: phone, to: PRACTICE_PHONE, text: 'STOP' }),
    });
    expect(stop.status).toBe(202);
    const conversationId = (await api(provider, 'POST', '/v1/messaging/conversations', { patientPhoneNumber: phone, practicePhoneNumber: PRACTICE_PHONE })).body
      .conversation.conversationId as string;
    await eventually(
      'the conversation marked opted out',
      async () => (await api(provider, 'GET', `/v1/messaging/conversations/${conversationId}`)).body.optOut?.optedOut === true,
      (v) => v,
      { within: 15_000 },
    );
    const order = await orderCmp(patientId);
    const pending = (await pendingFor(order.noteId))!;
    const text = `Otto, please call the office about your labs ${run}`;
    const signed = await api(provider, 'POST', `/v1/notes/labs/reviews/${order.noteId}`, {
      version: pending.version,
      followUpTask: { text: `Call Otto ${run}` },
      followUpMessage: { text },
    });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    expect(signed.body).toMatchObject({
      status: 'REVIEWED',
      followUpMessage: { status: 'FAILED', text, to: phone, error: `${MESSAGING_MESSAGES.sendFailed} ${MESSAGING_MESSAGES.optedOut}` },
    });
    expect((await api(provider, 'GET', `/v1/tasks/${signed.body.followUpTaskId}`)).body).toMatchObject({ text: `Call Otto ${run}`, assigned: providerId });
    // Kept on the review and in the conversation as a failed text.
    expect((await api(provider, 'GET', `/v1/notes/labs/reviews/${order.noteId}`)).body.followUpMessage).toMatchObject({ status: 'FAILED', text });
    const messages = (await api(provider, 'GET', `/v1/messaging/conversations/${conversationId}/messages`)).body.messages as {
      text: string;
      deliveryStatus: string;
    }[];
    expect(messages.find((m) => m.text === text)).toMatchObject({ deliveryStatus: 'FAILED' });
  });

  it('escalates an unreviewed critical value to an urgent task for the ordering provider after the practice-set time, and not one signed off', async () => {
    // Employees may not change it; an admin sets 3 minutes (a setting minute lasts a second in this runtime).
    expect((await api(employee, 'POST', '/v1/notes/labs/review-settings', { criticalEscalationMinutes: 3 })).status).toBe(403);
    const bad = await api(admin, 'POST', '/v1/notes/labs/review-settings', { criticalEscalationMinutes: 0 });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain(LAB_REVIEW_MESSAGES.minutesInvalid);
    expect((await api(admin, 'POST', '/v1/notes/labs/review-settings', { criticalEscalationMinutes: 3 })).status).toBe(200);
    expect((await api(provider, 'GET', '/v1/notes/labs/review-settings')).body).toEqual({ criticalEscalationMinutes: 3 });

    const [waiting, signedOff] = await Promise.all([orderCmp(criticalPatient), orderCmp(criticalPatient)]);
    const reviewB = (await pendingFor(signedOff.noteId))!;
    const { scheduler, schedulerGroup } = stackEndpoints();
    const scheduleOf = (noteId: string) => fetch(`${scheduler}/schedules/${scheduleName('lab-critical-escalation', noteId)}?groupName=${schedulerGroup}`);
    expect((await scheduleOf(signedOff.noteId)).status).toBe(200);
    expect((await api(provider, 'POST', `/v1/notes/labs/reviews/${signedOff.noteId}`, { version: reviewB.version })).status).toBe(200);
    // Signed off in time: its escalation is gone.
    expect((await scheduleOf(signedOff.noteId)).status).toBe(404);

    const reviewA = (await pendingFor(waiting.noteId))!;
    expect(reviewA.severity).toBe('critical');
    const urgent = async () =>
      ((await api(provider, 'GET', `/v1/tasks?assigned=${providerId}&status=UNREAD&limit=100`)).body.tasks ?? []) as {
        ident: string;
        urgent: boolean;
        text: string;
        createdAt: string;
        patientId: string;
        noteDataLinks: { interactionIdent: string }[];
      }[];
    const linked = (tasks: Awaited<ReturnType<typeof urgent>>, noteId: string) =>
      tasks.filter((t) => t.noteDataLinks.some((l) => l.interactionIdent === noteId) && t.urgent);
    const tasks = await eventually('the urgent escalation task', urgent, (t) => linked(t, waiting.noteId).length > 0, { within: 20_000 });
    const [task] = linked(tasks, waiting.noteId);
    expect(task).toMatchObject({ urgent: true, patientId: criticalPatient });
    expect(task!.text).toContain(`Carl Critical${run}`);
    expect(task!.text).toContain('not reviewed after 3 min');
    // Not before the set time.
    expect(Date.parse(task!.createdAt) - Date.parse(reviewA.receivedAt)).toBeGreaterThanOrEqual(3000);
    // The job makes the task, then links it on the result: the link follows the task by one write.
    const after = await eventually(
      'the result linked to its escalation task',
      async () => (await api(provider, 'GET', `/v1/notes/labs/reviews/${waiting.noteId}`)).body,
      (b) => Boolean(b.escalatedTaskId),
      { within: 10_000 },
    );
    expect(after).toMatchObject({ status: 'PENDING', escalatedTaskId: task!.ident });
    expect(linked(await urgent(), signedOff.noteId)).toEqual([]);
    await api(admin, 'POST', '/v1/notes/labs/review-settings', { criticalEscalationMinutes: 60 });
  });
});
