import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { eventually } from '../support/eventually.js';
import { api, patientAuditTrail, signIn, stackEndpoints, tableClient } from '../support/local-stack.js';

/**
 * Prescriptions written in DoseSpot are checked against the chart's allergies and medications when
 * the sync brings them in (README "Allergy and interaction checks"), through the local DoseSpot stand-in.
 */
const run = Date.now().toString(36);
let provider: string;
let providerId: string;

type Task = {
  ident: string;
  text: string;
  urgent: boolean;
  assigned: string;
  status: string;
  patientId: string | null;
  createdBy: string;
  noteDataLinks: { interactionIdent: string }[];
};
type Warning = { kind: string; cause: string; severity: string; reaction: string; message: string };

async function newPatient(first: string): Promise<string> {
  const created = await api(provider, 'POST', '/v1/patients', {
    firstName: first,
    lastName: `Dsafe${run}`,
    gender: 'female',
    dob: '1972-06-07',
    phones: [{ type: 'mobile', number: '(207) 555-0163' }],
    primaryPhoneNumber: '(207) 555-0163',
    address: { line1: '9 Wharf St', city: 'Portland', state: 'ME', zip: '04101' },
  });
  expect(created.status).toBe(201);
  return created.body.id;
}

async function addAllergy(patientId: string, body: Record<string, unknown>): Promise<string> {
  const created = await api(provider, 'POST', `/v1/patients/${patientId}/allergies`, body);
  expect(created.status).toBe(201);
  return created.body.ident;
}

/** Writes a prescription in the stand-in's window, as the prescriber would in DoseSpot. */
async function writeInDoseSpot(patientId: string, drug: string) {
  const sso = await api(provider, 'GET', `/v2/practices/sso/dosespot?patientId=${patientId}`);
  expect(sso.status).toBe(200);
  const page = await (await fetch(sso.body.ssoUrl)).text();
  const session = /name="session" value="([^"]+)"/.exec(page)?.[1];
  expect(session).toBeTruthy();
  const res = await fetch(new URL('/local/dosespot/prescriptions', sso.body.ssoUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ session: session!, drug, quantity: '30', refills: '0', directions: 'Take one capsule three times daily' }).toString(),
  });
  expect(res.status).toBe(200);
}

async function syncNow(patientId: string): Promise<{ created: number; noteIds: string[] }> {
  const res = await api(provider, 'POST', `/v1/practices/users/me/dosespot-sync?patientId=${patientId}`);
  expect(res.status).toBe(200);
  return res.body;
}

const tasksOf = async (patientId: string): Promise<Task[]> => {
  const res = await api(provider, 'GET', `/v1/tasks?patientId=${patientId}&status=UNREAD,READ,UPDATED,COMPLETED&limit=100`);
  expect(res.status).toBe(200);
  return res.body.tasks;
};

const medicationsOf = async (patientId: string) =>
  (await api(provider, 'GET', `/v1/patients/${patientId}/medications`)).body.items as { noteId?: string; productName: string; safetyWarnings?: Warning[] }[];

/** Makes the hourly sync fall due now and waits until its run has stamped the patient. */
async function runScheduledSync(patientId: string) {
  const { scheduler, schedulerGroup, practiceId } = stackEndpoints();
  const { client, tableName } = tableClient();
  const lastSynced = async () =>
    (await client.send(new GetCommand({ TableName: tableName, Key: { practiceId, sk: `DOSESPOT_PATIENT#${patientId}` }, ConsistentRead: true }))).Item
      ?.lastSyncedAt as string | undefined;
  const before = await lastSynced();
  expect((await fetch(`${scheduler}/local/schedules/dosespot-sync/run?groupName=${schedulerGroup}`, { method: 'POST' })).status).toBe(202);
  // The hourly run syncs every linked patient of the practice, which the suite's other files keep adding to.
  await eventually('the scheduled sync to stamp the patient', lastSynced, (after) => Boolean(after) && after !== before, { within: 25_000 });
}

beforeAll(async () => {
  provider = await signIn('provider@demo.tidewell.local');
  providerId = (await api(provider, 'GET', '/v1/practices/users/me')).body.userId;
});

describe('DoseSpot prescriptions are checked for allergies and interactions as they sync', () => {
  it('a synced amoxicillin prescription for a penicillin-allergic patient makes one urgent task for its prescriber, however often it syncs', async () => {
    const patientId = await newPatient('Pia');
    await addAllergy(patientId, {
      name: 'Penicillin',
      severity: 'severe',
      description: 'Hives and throat swelling',
      allergen: { kind: 'class', name: 'Penicillin-class Antibacterial [EPC]' },
    });
    await writeInDoseSpot(patientId, 'Amoxicillin 500 mg capsule');

    const synced = await syncNow(patientId);
    expect(synced.created).toBe(1);
    const noteId = synced.noteIds[0]!;
    const message = 'Allergy: Penicillin (severe, Hives and throat swelling). Amoxicillin is a Penicillin-class Antibacterial [EPC].';

    // The warning is kept on the synced note and on its chart medication.
    const note = (await api(provider, 'GET', `/v1/notes/${noteId}`)).body as { data: { safetyWarnings?: Warning[] } };
    expect(note.data.safetyWarnings).toEqual([
      expect.objectContaining({ kind: 'allergy', cause: 'Penicillin', severity: 'Severe', reaction: 'Hives and throat swelling', message }),
    ]);
    const med = (await medicationsOf(patientId)).find((m) => m.noteId === noteId);
    expect(med?.safetyWarnings?.map((w) => w.message)).toEqual([message]);

    // One urgent task for the prescriber, naming the patient, the drug, the allergy, its severity and reaction.
    const tasks = await tasksOf(patientId);
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toMatchObject({
      urgent: true,
      assigned: providerId,
      status: 'UNREAD',
      patientId,
      createdBy: 'scheduled:dosespot-sync',
      noteDataLinks: [{ interactionIdent: noteId }],
    });
    expect(tasks[0]!.text).toBe(`Check the DoseSpot prescription of Amoxicillin 500 mg capsule for Pia Dsafe${run}: a safety warning. ${message}`);
    // Audited on the patient's trail with what warned.
    const audit = (await patientAuditTrail(patientId)).filter((e) => e.entity === 'DRUG_SAFETY_WARNING');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'create', entityId: noteId });
    expect(String(audit[0]!.detail)).toContain(message);

    // The on-demand sync again, then the hourly one (as the clinic's DoseSpot user, nobody signed in): still one task.
    expect((await syncNow(patientId)).created).toBe(0);
    await runScheduledSync(patientId);
    expect(await tasksOf(patientId)).toHaveLength(1);
    expect((await patientAuditTrail(patientId)).filter((e) => e.entity === 'DRUG_SAFETY_WARNING')).toHaveLength(1);
  });

  it('the hourly sync assigns the task to the DoseSpot prescriber, and a drug that interacts with an active medication warns too', async () => {
    const patientId = await newPatient('Ivo');
    const med = await api(provider, 'POST', `/v1/patients/${patientId}/medications`, { productName: 'Sertraline 50 mg tablet', status: 'Active' });
    expect(med.status).toBe(201);
    await writeInDoseSpot(patientId, 'Phenelzine 15 mg tablet');
    await runScheduledSync(patientId);
    const tasks = await tasksOf(patientId);
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toMatchObject({ urgent: true, assigned: providerId });
    expect(tasks[0]!.text).toContain('Phenelzine 15 mg tablet');
    expect(tasks[0]!.text).toContain('Interaction with Sertraline 50 mg tablet (contraindicated): serotonin syndrome.');
  });

  it('a warning the hourly sync could not assign is kept pending and becomes the task on a later sync, still once', async () => {
    const admin = await signIn('admin@demo.tidewell.local');
    const patientId = await newPatient('Pax');
    await addAllergy(patientId, {
      name: 'Penicillin',
      severity: 'moderate',
      description: 'Rash',
      allergen: { kind: 'class', name: 'Penicillin-class Antibacterial [EPC]' },
    });
    await writeInDoseSpot(patientId, 'Amoxicillin 250 mg capsule');
    // The prescriber's DoseSpot user id changes in settings: DoseSpot's PrescriberId names no Tidewell user now.
    const { users } = JSON.parse(JSON.parse(readFileSync(stackEndpoints().partnerSecretsFile, 'utf8')).dosespot) as { users: Record<string, string> };
    const unused = String(Math.max(...Object.values(users).map(Number)) + 500);
    expect((await api(admin, 'PUT', `/v1/practices/users/${providerId}`, { doseSpotUserId: unused })).status).toBe(200);
    try {
      await runScheduledSync(patientId);
    } finally {
      await api(admin, 'PUT', `/v1/practices/users/${providerId}`, { doseSpotUserId: null });
    }
    const notes = (await api(provider, 'GET', `/v2/notes?patientId=${patientId}&noteTypes=RX_DOSESPOT`)).body.notes as {
      data: { safetyWarnings?: Warning[] };
    }[];
    expect(notes).toHaveLength(1);
    expect(notes[0]!.data.safetyWarnings).toHaveLength(1);
    expect(await tasksOf(patientId)).toEqual([]);

    expect((await syncNow(patientId)).created).toBe(0);
    const tasks = await tasksOf(patientId);
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toMatchObject({ urgent: true, assigned: providerId });
    expect(tasks[0]!.text).toContain('Allergy: Penicillin (moderate, Rash).');
    expect((await syncNow(patientId)).created).toBe(0);
    expect(await tasksOf(patientId)).toHaveLength(1);
  });

  it('a resolved allergy, or a drug the allergy does not cover, makes no task and records no warning', async () => {
    const patientId = await newPatient('Rae');
    const allergyId = await addAllergy(patientId, {
      name: 'Penicillin',
      severity: 'severe',
      description: 'Hives',
      allergen: { kind: 'class', name: 'Penicillin-class Antibacterial [EPC]' },
    });
    expect((await api(provider, 'PUT', `/v1/patients/${patientId}/allergies/${allergyId}`, { active: false })).status).toBe(200);
    await writeInDoseSpot(patientId, 'Amoxicillin 500 mg capsule');
    await writeInDoseSpot(patientId, 'Lisinopril 10 mg tablet');
    const synced = await syncNow(patientId);
    expect(synced.created).toBe(2);
    expect(await tasksOf(patientId)).toEqual([]);
    expect((await medicationsOf(patientId)).every((m) => m.safetyWarnings === undefined)).toBe(true);
    for (const noteId of synced.noteIds) expect((await api(provider, 'GET', `/v1/notes/${noteId}`)).body.data.safetyWarnings).toBeUndefined();
    expect((await patientAuditTrail(patientId)).some((e) => e.entity === 'DRUG_SAFETY_WARNING')).toBe(false);
  });
});
