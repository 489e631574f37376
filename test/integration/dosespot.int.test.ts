import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { eventually } from '../support/eventually.js';
import { api, createTestUser, patientAuditTrail, signIn, stackEndpoints, tableClient } from '../support/local-stack.js';

const run = Date.now().toString(36);
let provider: string;
let employee: string;
let patientId: string;

const hash = (s: string) => createHash('sha512').update(s, 'utf8').digest('base64').replace(/==$/, '');
const clinic = () =>
  JSON.parse(JSON.parse(readFileSync(stackEndpoints().partnerSecretsFile, 'utf8')).dosespot) as {
    clinicKey: string;
    clinicId: string;
    subscriptionKey: string;
    baseUrl: string;
    users: Record<string, string>;
  };
const clinicKey = () => clinic().clinicKey;

/** Opens the URL as the browser would (the sandbox is a page, not the API). */
async function open(url: string) {
  const res = await fetch(url);
  return { status: res.status, text: await res.text() };
}

/** The same query signed again with a phrase of our own and another key. */
function resigned(url: string, key: string, change: (q: URLSearchParams) => void = () => {}) {
  const u = new URL(url);
  change(u.searchParams);
  const phrase = 'Z'.repeat(32);
  u.searchParams.set('SingleSignOnCode', phrase + hash(phrase + key));
  u.searchParams.set('SingleSignOnUserIdVerify', hash(phrase.slice(0, 22) + u.searchParams.get('SingleSignOnUserId') + key));
  return u.href;
}

beforeAll(async () => {
  [provider, employee] = await Promise.all(['provider', 'employee'].map((who) => signIn(`${who}@demo.tidewell.local`)));
  // DoseSpot requires the address and a US primary phone of every patient it is sent.
  patientId = (
    await api(provider, 'POST', '/v1/patients', {
      firstName: 'Dora',
      lastName: `Spot${run}`,
      gender: 'female',
      dob: '1975-04-05',
      phones: [{ type: 'mobile', number: '(207) 555-0142' }],
      primaryPhoneNumber: '(207) 555-0142',
      address: { line1: '12 Harbor St', city: 'Portland', state: 'ME', zip: '04101' },
    })
  ).body.id;
});

describe('DoseSpot single sign-on', () => {
  it("gives a prescriber a URL DoseSpot's stand-in accepts, opened on the patient it was sent first", async () => {
    const res = await api(provider, 'GET', `/v2/practices/sso/dosespot?patientId=${patientId}`);
    expect(res.status).toBe(200);
    const url = new URL(res.body.ssoUrl);
    expect(url.pathname).toBe('/local/dosespot/LoginSingleSignOn.aspx');
    expect([...url.searchParams.keys()]).toEqual([
      'SingleSignOnClinicId',
      'SingleSignOnUserId',
      'SingleSignOnPhraseLength',
      'SingleSignOnCode',
      'SingleSignOnUserIdVerify',
      'PatientId',
    ]);
    const code = url.searchParams.get('SingleSignOnCode')!;
    expect(code.slice(32)).toBe(hash(code.slice(0, 32) + clinicKey()));
    const page = await open(url.href);
    expect(page.status).toBe(200);
    expect(page.text).toContain('DoseSpot (local stand-in)');
    expect(page.text).toContain(`Dora Spot${run}`);
    expect((await patientAuditTrail(patientId)).some((e) => e.entity === 'dosespot-sso')).toBe(true);

    const withoutPatient = await api(provider, 'GET', '/v2/practices/sso/dosespot');
    expect(withoutPatient.status).toBe(200);
    expect(new URL(withoutPatient.body.ssoUrl).searchParams.has('PatientId')).toBe(false);
    expect((await open(withoutPatient.body.ssoUrl)).status).toBe(200);
  });

  it('is refused by the stand-in when the key is wrong or a parameter was changed', async () => {
    const { ssoUrl } = (await api(provider, 'GET', `/v2/practices/sso/dosespot?patientId=${patientId}`)).body as { ssoUrl: string };
    expect((await open(resigned(ssoUrl, clinicKey()))).status).toBe(200);
    expect((await open(resigned(ssoUrl, `${clinicKey()}x`))).status).toBe(401);
    const otherUser = new URL(ssoUrl);
    otherUser.searchParams.set('SingleSignOnUserId', String(Number(otherUser.searchParams.get('SingleSignOnUserId')) + 1));
    expect((await open(otherUser.href)).status).toBe(401);
    const tamperedCode = new URL(ssoUrl);
    const code = tamperedCode.searchParams.get('SingleSignOnCode')!;
    tamperedCode.searchParams.set('SingleSignOnCode', `${code.slice(0, 31)}${code[31] === 'A' ? 'B' : 'A'}${code.slice(32)}`);
    const refused = await open(tamperedCode.href);
    expect(refused.status).toBe(401);
    expect(refused.text).toContain('Sign-in refused');
  });

  it('sends a patient to DoseSpot once and opens the window on the same DoseSpot patient afterwards', async () => {
    const ids = [];
    for (let i = 0; i < 2; i++) {
      const { ssoUrl } = (await api(provider, 'GET', `/v2/practices/sso/dosespot?patientId=${patientId}`)).body as { ssoUrl: string };
      ids.push(new URL(ssoUrl).searchParams.get('PatientId'));
    }
    expect(ids[0]).toMatch(/^\d+$/);
    expect(ids[1]).toBe(ids[0]);
  });

  it("signs a prescriber in as the DoseSpot user an admin set in settings, and checks the id's form", async () => {
    const admin = await signIn('admin@demo.tidewell.local');
    const me = (await api(provider, 'GET', '/v1/practices/users/me')).body as { userId: string };
    const { users } = clinic();
    const other = Object.entries(users).find(([tidewellId]) => tidewellId !== me.userId)![1];
    const userIdOf = async () =>
      new URL(((await api(provider, 'GET', '/v2/practices/sso/dosespot')).body as { ssoUrl: string }).ssoUrl).searchParams.get('SingleSignOnUserId');
    expect(await userIdOf()).toBe(users[me.userId]);
    const bad = await api(admin, 'PUT', `/v1/practices/users/${me.userId}`, { doseSpotUserId: '12ab' });
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors).toEqual({ doseSpotUserId: 'DoseSpot user ID must be a number of at most 12 digits' });
    expect((await api(provider, 'PUT', `/v1/practices/users/${me.userId}`, { doseSpotUserId: other })).status).toBe(403);
    try {
      const set = await api(admin, 'PUT', `/v1/practices/users/${me.userId}`, { doseSpotUserId: other });
      expect(set.status).toBe(200);
      expect(set.body.doseSpotUserId).toBe(other);
      expect(await userIdOf()).toBe(other);
    } finally {
      await api(admin, 'PUT', `/v1/practices/users/${me.userId}`, { doseSpotUserId: null });
    }
    expect(await userIdOf()).toBe(users[me.userId]);
  });

  it('names what the chart lacks before a patient without an address or phone is sent, and sends nothing', async () => {
    const bare = (await api(provider, 'POST', '/v1/patients', { firstName: 'Nora', lastName: `Bare${run}`, gender: 'female', dob: '1980-02-03' })).body
      .id as string;
    const res = await api(provider, 'GET', `/v2/practices/sso/dosespot?patientId=${bare}`);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Address Line 1 is required');
    expect(res.body.fieldErrors).toEqual({
      'address.line1': 'Address Line 1 is required',
      'address.city': 'City is required',
      'address.state': 'State is required',
      'address.zip': 'Zip Code is required',
      primaryPhoneNumber: 'Primary phone number is required',
    });
    expect((await api(provider, 'POST', `/v1/practices/users/me/dosespot-sync?patientId=${bare}`)).status).toBe(400);
  });

  it("answers DoseSpot's API v2 only with the subscription key, the clinic's credentials and a bearer token", async () => {
    const c = clinic();
    const base = `${c.baseUrl.replace(/\/$/, '')}/webapi/v2`;
    const userId = Object.values(c.users)[0]!;
    const tokenBody = (key: string) =>
      new URLSearchParams({ grant_type: 'password', client_id: c.clinicId, client_secret: key, username: userId, password: key, scope: 'api' }).toString();
    const token = (headers: Record<string, string>, body: string) =>
      fetch(`${base}/connect/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body });
    expect((await token({}, tokenBody(c.clinicKey))).status).toBe(401);
    const wrongKey = await token({ 'Subscription-Key': c.subscriptionKey }, tokenBody(`${c.clinicKey}x`));
    expect(wrongKey.status).toBe(400);
    expect(await wrongKey.json()).toMatchObject({ error: 'invalid_grant' });
    const granted = await token({ 'Subscription-Key': c.subscriptionKey }, tokenBody(c.clinicKey));
    const { access_token: accessToken, expires_in: expiresIn } = (await granted.json()) as { access_token: string; expires_in: number };
    expect(expiresIn).toBe(600);
    const addPatient = (auth: string, body: unknown) =>
      fetch(`${base}/api/patients`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'Subscription-Key': c.subscriptionKey, authorization: auth },
        body: JSON.stringify(body),
      });
    const valid = {
      FirstName: 'Ana',
      LastName: 'Ruiz',
      DateOfBirth: '1990-01-01',
      Gender: 'Female',
      Address1: '1 Main St',
      City: 'Bath',
      State: 'ME',
      ZipCode: '04530',
      PrimaryPhone: '207-555-0100',
      PrimaryPhoneType: 2,
      Active: true,
    };
    expect((await addPatient('Bearer nope', valid)).status).toBe(401);
    const refused = await addPatient(`Bearer ${accessToken}`, { ...valid, ZipCode: 'ABCDE' });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ Result: { ResultCode: 'ERROR', ResultDescription: 'ZipCode is invalid.' } });
    const added = await addPatient(`Bearer ${accessToken}`, valid);
    expect(added.status).toBe(201);
    expect(((await added.json()) as { Id: number }).Id).toBeGreaterThan(0);
  });

  it('is for prescribers of this practice only, and names an existing patient', async () => {
    expect((await api(employee, 'GET', '/v2/practices/sso/dosespot')).status).toBe(403);
    expect((await api(employee, 'GET', '/v2/practices/sso/dosespot')).body.message).toBe('Your e-prescribing user type cannot prescribe.');
    const admin = await signIn('admin@demo.tidewell.local');
    expect((await api(admin, 'GET', `/v2/practices/sso/dosespot?patientId=${patientId}`)).status).toBe(403);
    const foreign = await createTestUser({ email: `dosespot-foreign-${run}@other.tidewell.local`, group: 'provider', practiceId: 'prc_other_dosespot' });
    expect((await api(foreign, 'GET', `/v2/practices/sso/dosespot?patientId=${patientId}`)).status).toBe(403);
    expect((await api(await signIn('noaccess@demo.tidewell.local'), 'GET', '/v2/practices/sso/dosespot')).status).toBe(403);
    expect((await api(null, 'GET', '/v2/practices/sso/dosespot')).status).toBe(401);
    expect((await api(provider, 'GET', '/v2/practices/sso/dosespot?patientId=pat_missing')).status).toBe(404);
    expect((await api(provider, 'GET', '/v2/practices/sso/dosespot?other=1')).status).toBe(400);
  });
});

type SyncTask = {
  taskId: string;
  taskType: string;
  status: string;
  trigger: string;
  requestedBy: string;
  patientId: string | null;
  startedAt: string;
  completedAt: string | null;
  result: Record<string, unknown> | null;
  failureReason: string | null;
};
/** The syncPatientRx background task records, newest first. */
async function syncTasks(who: string, query = ''): Promise<SyncTask[]> {
  const res = await api(who, 'GET', `/v1/practices/users/me/dosespot-sync${query}`);
  expect(res.status).toBe(200);
  return res.body.tasks as SyncTask[];
}

/** The chart's medications (the section answers `{ items }`). */
async function medicationsOf(id: string): Promise<Record<string, unknown>[]> {
  return ((await api(provider, 'GET', `/v1/patients/${id}/medications`)).body as { items: Record<string, unknown>[] }).items;
}

/** Writes a prescription in the stand-in's window, as a prescriber would in DoseSpot. */
async function writeInDoseSpot(ssoUrl: string, fields: Record<string, string>) {
  const page = await open(ssoUrl);
  const session = /name="session" value="([^"]+)"/.exec(page.text)?.[1];
  expect(session).toBeTruthy();
  const res = await fetch(new URL('/local/dosespot/prescriptions', ssoUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ session: session!, ...fields }).toString(),
  });
  return { status: res.status, text: await res.text() };
}

describe('DoseSpot prescriptions sync', () => {
  it('brings each prescription written in DoseSpot back once, as a read-only DoseSpot note', async () => {
    const { ssoUrl } = (await api(provider, 'GET', `/v2/practices/sso/dosespot?patientId=${patientId}`)).body as { ssoUrl: string };
    const written = await writeInDoseSpot(ssoUrl, {
      drug: 'Lisinopril 10 mg tablet',
      quantity: '30',
      refills: '2',
      directions: 'Take one tablet by mouth daily',
    });
    expect(written.status).toBe(200);
    expect(written.text).toContain('Prescription sent.');
    // A session that DoseSpot never gave is refused.
    const forged = await fetch(new URL('/local/dosespot/prescriptions', ssoUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'session=nope&drug=x&quantity=1&refills=0&directions=y',
    });
    expect(forged.status).toBe(401);

    const first = await api(provider, 'POST', `/v1/practices/users/me/dosespot-sync?patientId=${patientId}`);
    expect(first.status).toBe(200);
    expect(first.body.created).toBe(1);
    const second = await api(provider, 'POST', `/v1/practices/users/me/dosespot-sync?patientId=${patientId}`);
    expect(second.status).toBe(200);
    expect(second.body.created).toBe(0);

    const notes = (await api(provider, 'GET', `/v2/notes?patientId=${patientId}&noteTypes=RX_DOSESPOT`)).body.notes as {
      noteId: string;
      status: string;
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      data: Record<string, any>;
    }[];
    expect(notes).toHaveLength(1);
    expect(notes[0]!.status).toBe('SIGNED');
    expect(notes[0]!.data.prescription).toMatchObject({
      medicationName: 'Lisinopril 10 mg tablet',
      quantityPrescribed: 30,
      numberOfRefills: 2,
      instructions: 'Take one tablet by mouth daily',
    });
    expect(notes[0]!.data.prescription.id).toMatch(/^\d+$/);
    // The chart's medications list it, linked to the note and to DoseSpot's prescription.
    const meds = await medicationsOf(patientId);
    expect(meds.filter((m) => m.noteId === notes[0]!.noteId)).toEqual([
      expect.objectContaining({
        productName: 'Lisinopril 10 mg tablet',
        status: 'Active',
        sigText: 'Take one tablet by mouth daily',
        quantity: 30,
        refills: 2,
        doseSpotRxId: notes[0]!.data.prescription.id,
        transmissionMethod: 'DoseSpot',
      }),
    ]);
    // Written by DoseSpot: nobody edits it here.
    expect((await api(provider, 'POST', `/v1/notes/${notes[0]!.noteId}`, { data: {} })).status).toBe(400);

    await writeInDoseSpot(ssoUrl, { drug: 'Metformin 500 mg tablet', quantity: '60', refills: '0', directions: 'Take one tablet twice daily' });
    const [a, b] = await Promise.all([0, 1].map(() => api(provider, 'POST', `/v1/practices/users/me/dosespot-sync?patientId=${patientId}`)));
    expect(a.body.created + b.body.created).toBe(1);
    expect((await api(provider, 'GET', `/v2/notes?patientId=${patientId}&noteTypes=RX_DOSESPOT`)).body.notes).toHaveLength(2);

    // DoseSpot lists five a page: the sync reads every page.
    for (let i = 1; i <= 5; i++)
      await writeInDoseSpot(ssoUrl, { drug: `Amoxicillin ${i}00 mg capsule`, quantity: '20', refills: '0', directions: 'Take one capsule three times daily' });
    expect((await api(provider, 'POST', `/v1/practices/users/me/dosespot-sync?patientId=${patientId}`)).body.created).toBe(5);
    expect((await api(provider, 'GET', `/v2/notes?patientId=${patientId}&noteTypes=RX_DOSESPOT`)).body.notes).toHaveLength(7);
    const synced = await medicationsOf(patientId);
    expect(new Set(synced.filter((m) => m.doseSpotRxId).map((m) => m.doseSpotRxId)).size).toBe(7);
    expect(synced.filter((m) => m.doseSpotRxId)).toHaveLength(7);
  });

  it('records each on-demand run as a syncPatientRx background task: COMPLETED with what it synced, FAILED with why', async () => {
    const { ssoUrl } = (await api(provider, 'GET', `/v2/practices/sso/dosespot?patientId=${patientId}`)).body as { ssoUrl: string };
    await writeInDoseSpot(ssoUrl, { drug: 'Losartan 50 mg tablet', quantity: '30', refills: '3', directions: 'Take one tablet daily' });
    const me = (await api(provider, 'GET', '/v1/practices/users/me')).body as { userId: string };
    const synced = await api(provider, 'POST', `/v1/practices/users/me/dosespot-sync?patientId=${patientId}`);
    expect(synced.body.created).toBe(1);
    const done = (await syncTasks(provider)).find((t) => t.taskId === synced.body.taskId);
    expect(done).toMatchObject({
      taskType: 'syncPatientRx',
      status: 'COMPLETED',
      trigger: 'on-demand',
      requestedBy: me.userId,
      patientId,
      result: { patients: 1, created: 1, failed: 0, deferred: 0, noteIds: synced.body.noteIds },
      failureReason: null,
    });
    expect(Date.parse(done!.completedAt!)).toBeGreaterThanOrEqual(Date.parse(done!.startedAt));
    // The record names the note the run wrote: it is the Losartan prescription.
    const note = (await api(provider, 'GET', `/v1/notes/${synced.body.noteIds[0]}`)).body as { data: { prescription: { medicationName: string } } };
    expect(note.data.prescription.medicationName).toBe('Losartan 50 mg tablet');

    // DoseSpot cannot take a patient without an address or phone: the run fails, and its record says why.
    const bare = (await api(provider, 'POST', '/v1/patients', { firstName: 'Tess', lastName: `Bare${run}`, gender: 'female', dob: '1981-02-03' })).body
      .id as string;
    expect((await api(provider, 'POST', `/v1/practices/users/me/dosespot-sync?patientId=${bare}`)).status).toBe(400);
    const failed = (await syncTasks(provider, '?status=FAILED')).find((t) => t.patientId === bare);
    expect(failed).toMatchObject({ status: 'FAILED', trigger: 'on-demand', result: null, failureReason: 'Address Line 1 is required' });
    expect(failed!.completedAt).not.toBeNull();
    // Newest first, and the status filter is the spec's statuses.
    const all = await syncTasks(provider, '?limit=100');
    expect(all.map((t) => t.startedAt)).toEqual([...all.map((t) => t.startedAt)].sort().reverse());
    expect((await syncTasks(provider, '?status=COMPLETED')).every((t) => t.status === 'COMPLETED')).toBe(true);
    const badStatus = await api(provider, 'GET', '/v1/practices/users/me/dosespot-sync?status=DONE');
    expect(badStatus.status).toBe(400);
    expect(JSON.stringify(badStatus.body)).toContain('status must be among COMPLETED, ACTIVE, PROCESSING, FAILED, DELETED');
    // Reading the records that name a patient is audited on that patient.
    expect((await patientAuditTrail(bare)).some((e) => e.entity === 'background-task' && e.action === 'list')).toBe(true);
  });

  it('reports a run that never finished as FAILED, saying it stopped', async () => {
    const { client, tableName } = tableClient();
    const startedAt = new Date(Date.now() - 60 * 60_000).toISOString();
    const taskId = `stale-${run}`;
    await client.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          practiceId: stackEndpoints().practiceId,
          sk: `BGTASK#syncPatientRx#${startedAt}#${taskId}`,
          entityType: 'BACKGROUND_TASK',
          taskId,
          taskType: 'syncPatientRx',
          status: 'PROCESSING',
          trigger: 'scheduled',
          requestedBy: 'scheduled:dosespot-sync',
          patientId: null,
          startedAt,
          completedAt: null,
          result: null,
          failureReason: null,
        },
      }),
    );
    const stale = (await syncTasks(provider, '?status=FAILED&limit=100')).find((t) => t.taskId === taskId);
    expect(stale).toMatchObject({ status: 'FAILED', failureReason: 'The task stopped before it finished: its function timed out or was interrupted.' });
    expect((await syncTasks(provider, '?status=PROCESSING&limit=100')).some((t) => t.taskId === taskId)).toBe(false);
  });

  it("records are read by the practice's admins and prescribers only", async () => {
    const path = '/v1/practices/users/me/dosespot-sync';
    expect((await api(await signIn('admin@demo.tidewell.local'), 'GET', path)).status).toBe(200);
    const refused = await api(employee, 'GET', path);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Your e-prescribing user type cannot prescribe.');
    const foreign = await createTestUser({ email: `dosespot-tasks-foreign-${run}@other.tidewell.local`, group: 'admin', practiceId: 'prc_other_dosespot' });
    expect((await api(foreign, 'GET', path)).status).toBe(403);
    expect((await api(null, 'GET', path)).status).toBe(401);
  });

  it('is for prescribers of this practice only, on an existing patient', async () => {
    const path = `/v1/practices/users/me/dosespot-sync?patientId=${patientId}`;
    expect((await api(employee, 'POST', path)).status).toBe(403);
    const foreign = await createTestUser({ email: `dosespot-sync-foreign-${run}@other.tidewell.local`, group: 'provider', practiceId: 'prc_other_dosespot' });
    expect((await api(foreign, 'POST', path)).status).toBe(403);
    expect((await api(null, 'POST', path)).status).toBe(401);
    expect((await api(provider, 'POST', '/v1/practices/users/me/dosespot-sync?patientId=pat_missing')).status).toBe(404);
    expect((await api(provider, 'POST', '/v1/practices/users/me/dosespot-sync')).status).toBe(400);
  });
});

describe('DoseSpot prescriptions sync, scheduled', () => {
  const schedule = () => {
    const { scheduler, schedulerGroup } = stackEndpoints();
    return {
      base: `${scheduler}/schedules/dosespot-sync?groupName=${schedulerGroup}`,
      run: `${scheduler}/local/schedules/dosespot-sync/run?groupName=${schedulerGroup}`,
    };
  };
  const lastSynced = async (id: string) => {
    const { client, tableName } = tableClient();
    return (
      await client.send(
        new GetCommand({ TableName: tableName, Key: { practiceId: stackEndpoints().practiceId, sk: `DOSESPOT_PATIENT#${id}` }, ConsistentRead: true }),
      )
    ).Item?.lastSyncedAt as string | undefined;
  };
  /**
   * Makes the recurring schedule fall due now and waits until its run has stamped the patient and
   * recorded its end: the stamp comes per patient, the record only once every patient is done.
   */
  async function runScheduledSync(id: string) {
    const before = await lastSynced(id);
    const earlier = new Set((await syncTasks(provider, '?limit=100')).map((t) => t.taskId));
    expect((await fetch(schedule().run, { method: 'POST' })).status).toBe(202);
    await eventually(
      'the scheduled sync to stamp the patient',
      () => lastSynced(id),
      (after) => Boolean(after) && after !== before,
      { within: 15_000 },
    );
    await eventually(
      'the scheduled run to record its end',
      () => syncTasks(provider, '?limit=100'),
      (tasks) => tasks.some((t) => t.trigger === 'scheduled' && !earlier.has(t.taskId) && t.status !== 'PROCESSING'),
      { within: 60_000 },
    );
  }

  it('runs every hour on the schedule target, as the stack deploys it', async () => {
    const res = await fetch(schedule().base);
    expect(res.status).toBe(200);
    const described = (await res.json()) as { ScheduleExpression: string; State: string; Target: { Arn: string; Input: string } };
    expect(described).toMatchObject({ ScheduleExpression: 'rate(1 hour)', State: 'ENABLED' });
    expect(described.Target.Arn).toMatch(/:function:schedule-target$/);
    expect(JSON.parse(described.Target.Input)).toEqual({ kind: 'syncPatientRx' });
  });

  it("brings a prescription back with nobody signed in, as the clinic's DoseSpot user, once however often it runs", async () => {
    const id = (
      await api(provider, 'POST', '/v1/patients', {
        firstName: 'Sched',
        lastName: `Spot${run}`,
        gender: 'male',
        dob: '1968-09-10',
        phones: [{ type: 'mobile', number: '(207) 555-0177' }],
        primaryPhoneNumber: '(207) 555-0177',
        address: { line1: '3 Pier Rd', city: 'Portland', state: 'ME', zip: '04101' },
      })
    ).body.id as string;
    const { ssoUrl } = (await api(provider, 'GET', `/v2/practices/sso/dosespot?patientId=${id}`)).body as { ssoUrl: string };
    expect(
      (await writeInDoseSpot(ssoUrl, { drug: 'Atorvastatin 20 mg tablet', quantity: '90', refills: '1', directions: 'Take one tablet at bedtime' })).status,
    ).toBe(200);
    const notesOf = async () =>
      (await api(provider, 'GET', `/v2/notes?patientId=${id}&noteTypes=RX_DOSESPOT`)).body.notes as { noteId: string; data: Record<string, any> }[]; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(await notesOf()).toHaveLength(0);

    await runScheduledSync(id);
    const notes = await notesOf();
    expect(notes).toHaveLength(1);
    expect(notes[0]!.data.prescription).toMatchObject({ medicationName: 'Atorvastatin 20 mg tablet', quantityPrescribed: 90, numberOfRefills: 1 });
    const meds = (await medicationsOf(id)).filter((m) => m.noteId === notes[0]!.noteId);
    expect(meds).toHaveLength(1);
    expect(notes[0]!.data.medicationId).toBe(meds[0]!.ident);
    // It starts on the day it was written at the practice (its calendar time zone), not the UTC date.
    const { timeZone } = (await api(provider, 'GET', '/v1/practices/settings/calendar')).body as { timeZone: string };
    expect(meds[0]!.start).toBe(
      new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
        new Date(notes[0]!.data.prescription.datePrescribed),
      ),
    );
    // The audit trail names the unattended sync, not a person.
    expect((await patientAuditTrail(id)).some((e) => e.actorUserId === 'scheduled:dosespot-sync' && e.entity === 'NOTE' && e.action === 'create')).toBe(true);

    // The hourly run's record: COMPLETED, by the scheduled sync, with what it brought back.
    const hourly = (await syncTasks(provider)).find(
      (t) => t.trigger === 'scheduled' && (t.result?.noteIds as string[] | undefined)?.includes(notes[0]!.noteId),
    );
    expect(hourly).toMatchObject({
      taskType: 'syncPatientRx',
      status: 'COMPLETED',
      requestedBy: 'scheduled:dosespot-sync',
      patientId: null,
      failureReason: null,
    });
    expect(hourly!.result).toMatchObject({ failed: 0, deferred: 0 });
    expect(hourly!.result!.patients).toBeGreaterThanOrEqual(1);
    expect(hourly!.result!.created).toBe((hourly!.result!.noteIds as string[]).length);

    // A second run, and the on-demand sync after it, add nothing.
    await runScheduledSync(id);
    expect(await notesOf()).toHaveLength(1);
    expect((await api(provider, 'POST', `/v1/practices/users/me/dosespot-sync?patientId=${id}`)).body.created).toBe(0);
    expect((await medicationsOf(id)).filter((m) => m.doseSpotRxId)).toHaveLength(1);
  }, 180_000);

  it('deleting a synced prescription removes its chart medication, and later syncs do not bring it back', async () => {
    const before = await api(provider, 'GET', `/v2/notes?patientId=${patientId}&noteTypes=RX_DOSESPOT`);
    const note = (before.body.notes as { noteId: string; noteVersion: number }[])[0]!;
    expect((await medicationsOf(patientId)).filter((m) => m.noteId === note.noteId)).toHaveLength(1);
    // Written by DoseSpot, not by a user here: an admin deletes it (the permissions table's signed-note rule).
    const admin = await signIn('admin@demo.tidewell.local');
    expect((await api(admin, 'DELETE', `/v1/notes/${note.noteId}?noteVersion=${note.noteVersion}`)).status).toBe(200);
    expect((await medicationsOf(patientId)).filter((m) => m.noteId === note.noteId)).toEqual([]);
    await runScheduledSync(patientId);
    expect((await api(provider, 'POST', `/v1/practices/users/me/dosespot-sync?patientId=${patientId}`)).body.created).toBe(0);
    expect((await medicationsOf(patientId)).filter((m) => m.noteId === note.noteId)).toEqual([]);
    expect((await api(provider, 'GET', `/v2/notes?patientId=${patientId}&noteTypes=RX_DOSESPOT`)).body.notes).toHaveLength(before.body.notes.length - 1);
  }, 120_000);
});
