import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { HealthGorillaClient, HEALTH_GORILLA_CLIENT_SECRET_ID } from '../../functions/lib/adapters/health-gorilla.js';
import {
  LOCAL_HG_CLIENT_ID,
  LOCAL_HG_CLIENT_URI,
  LOCAL_HG_LAB_ORG,
  LOCAL_HG_PATH,
  LOCAL_HG_PRACTICE_ORG,
  LOCAL_HG_USER_LOGIN,
} from '../../infra/local/labs/local-health-gorilla.js';
import { HEALTH_GORILLA_PARTNER_ID, LAB_MESSAGES, LOCAL_LAB_PROVIDER_LABEL, type LabNoteData } from '../../shared/labs/lab-schema.js';
import { pdfText } from '../support/pdf-text.js';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { api, createTestUser, patientAuditTrail, signIn, stackEndpoints, stackOutputs, tableClient } from '../support/local-stack.js';
import { eventually } from '../support/eventually.js';

const run = Date.now().toString(36);
let provider: string;
let admin: string;
let employee: string;
let patientId: string;

const secrets = () => JSON.parse(readFileSync(stackEndpoints().partnerSecretsFile, 'utf8')) as Record<string, string>;
const hgBase = () => `${stackOutputs().apiUrl.replace(/\/api$/, '')}${LOCAL_HG_PATH}`;
/** The stand-in, called as the vendor's API is (JWT bearer token, FHIR R4). */
const vendor = () =>
  new HealthGorillaClient({
    baseUrl: hgBase(),
    clientId: LOCAL_HG_CLIENT_ID,
    clientSecret: secrets()[HEALTH_GORILLA_CLIENT_SECRET_ID]!,
    clientUri: LOCAL_HG_CLIENT_URI,
    userLogin: LOCAL_HG_USER_LOGIN,
    scopes: 'user/*.*',
    authorizedBy: LOCAL_HG_PRACTICE_ORG,
    performer: LOCAL_HG_LAB_ORG,
  });

/** A Subscription notification with the header the Subscription names, as Health Gorilla posts it. */
const deliver = (body: unknown) =>
  fetch(`${stackOutputs().apiUrl}/v1/partner-deliveries/${HEALTH_GORILLA_PARTNER_ID}/results`, {
    method: 'POST',
    headers: { 'content-type': 'application/fhir+json', authorization: `Bearer ${secrets()[HEALTH_GORILLA_PARTNER_ID]}` },
    body: JSON.stringify(body),
  });

async function labNote(token: string, patient: string | null = patientId) {
  const res = await api(token, 'POST', '/v2/notes', { noteId: 'new', noteType: 'LAB', status: 'DRAFT', data: { text: 'Annual labs' }, patientId: patient });
  expect(res.status).toBe(201);
  return res.body as { noteId: string; noteVersion: number };
}

beforeAll(async () => {
  [provider, admin, employee] = await Promise.all([
    signIn('provider@demo.tidewell.local'),
    signIn('admin@demo.tidewell.local'),
    signIn('employee@demo.tidewell.local'),
  ]);
  const patient = await api(provider, 'POST', '/v1/patients', { firstName: 'Lana', lastName: `Labs${run}`, gender: 'female', dob: '1975-06-15' });
  patientId = patient.body.id;
});

describe("Health Gorilla's local stand-in", () => {
  it('refuses an order without its patient or ordering provider, as the vendor does', async () => {
    const client = vendor();
    const token = await client.accessToken();
    const order = (rg: Record<string, unknown>) =>
      fetch(`${hgBase()}/fhir/R4/RequestGroup`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/fhir+json' },
        body: JSON.stringify(rg),
      });
    const { buildRequestGroup } = await import('../../functions/lib/adapters/health-gorilla.js');
    const good = buildRequestGroup(
      { authorizedBy: LOCAL_HG_PRACTICE_ORG, performer: LOCAL_HG_LAB_ORG },
      {
        noteId: `n-${run}`,
        tests: [{ code: '24323-8', display: 'CMP' }],
        patient: { id: 'p1', firstName: 'Ana', lastName: 'Lopez', dob: '1980-01-01', gender: 'female' },
        provider: { resourceId: 'prac-1467582930', name: 'Daniel Okafor', npi: '1467582930' },
        authoredOn: new Date().toISOString(),
      },
    );
    const contained = good.contained as Record<string, unknown>[];
    const noPatient = { ...good, contained: contained.filter((c) => c.resourceType !== 'Patient') };
    const noProvider = { ...good, contained: contained.filter((c) => c.resourceType !== 'Practitioner') };
    const a = await order(noPatient);
    expect(a.status).toBe(422);
    expect(JSON.stringify(await a.json())).toMatch(/Patient is missing/);
    const b = await order(noProvider);
    expect(b.status).toBe(422);
    expect(JSON.stringify(await b.json())).toMatch(/Practitioner is missing/);
    const unenrolled = structuredClone(good);
    ((unenrolled.contained as Record<string, unknown>[])[1]!.identifier as { value: string }[])[0]!.value = 'prac-0000000000';
    expect((await order(unenrolled)).status).toBe(422);
    // Without a valid token nothing is taken.
    const anonymous = await fetch(`${hgBase()}/fhir/R4/RequestGroup`, {
      method: 'POST',
      headers: { 'content-type': 'application/fhir+json' },
      body: JSON.stringify(good),
    });
    expect(anonymous.status).toBe(401);
    const badGrant = await fetch(`${hgBase()}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&client_id=tidewell-local&assertion=a.b.c',
    });
    expect(badGrant.status).toBe(400);
  });
});

describe('lab orders and results', () => {
  it('orders from the note, takes the results once though delivered twice, and notifies the ordering provider once', async () => {
    const note = await labNote(provider);
    const ordered = await api(provider, 'POST', `/v1/notes/${note.noteId}/lab-order`, { noteVersion: note.noteVersion, tests: ['24323-8', '58410-2'] });
    expect(ordered.status, JSON.stringify(ordered.body)).toBe(200);
    const data = ordered.body.data as LabNoteData;
    expect(ordered.body.status).toBe('SENT');
    expect(data).toMatchObject({ orderedFrom: LOCAL_LAB_PROVIDER_LABEL, orderStatus: 'ordered', paymentStatus: 'UNKNOWN', tests: ['24323-8', '58410-2'] });
    expect(data.hgId).toBeTruthy();
    expect(data.labReferenceId).toMatch(/^LCL\d+/);
    expect(data.orderingProvider).toMatchObject({ resourceId: 'prac-1467582930', name: 'Daniel Okafor' });
    expect(data.actions?.map((a) => a.display)).toEqual(['Comprehensive metabolic panel (CMP)', 'Complete blood count (CBC) with automated differential']);
    // Ordered twice: refused, the vendor is not asked again.
    expect((await api(provider, 'POST', `/v1/notes/${note.noteId}/lab-order`, { noteVersion: ordered.body.noteVersion, tests: ['24323-8'] })).status).toBe(409);

    const withResults = await eventually(
      'the final lab results on the note',
      () => api(provider, 'GET', `/v1/notes/${note.noteId}`),
      (r) => r.body.data?.orderStatus === 'final',
      { within: 25_000 },
    );
    const results = (withResults.body.data as LabNoteData).results!;
    expect(withResults.body.status).toBe('DELIVERED');
    expect(results.length).toBe(14 + 8);
    const glucose = results.find((r) => r.code === '2345-7')!;
    expect(glucose).toMatchObject({
      text: 'Glucose',
      valueQuantity: { unit: 'mg/dL' },
      ranges: [{ low: 70, high: 99 }],
      panel: 'Comprehensive metabolic panel (CMP)',
    });
    expect(results.filter((r) => r.interpretation === 'H' || r.interpretation === 'L').length).toBeGreaterThanOrEqual(4);
    // A female patient's hemoglobin range.
    expect(results.find((r) => r.code === '718-7')!.ranges).toEqual([{ low: 12, high: 15.5 }]);

    const notifications = async () =>
      (await api(provider, 'GET', `/v1/notifications?notificationType=LAB_RESULTS&sourceId=${note.noteId}`)).body as { notifications?: unknown[] } | unknown[];
    const list = (v: Awaited<ReturnType<typeof notifications>>) =>
      (Array.isArray(v) ? v : (v.notifications ?? [])) as { assigned: string; data: { noteId: string; patientId: string }; notificationStatus: string }[];
    const first = list(await eventually('the lab result notification', notifications, (v) => list(v).length > 0, { within: 25_000 }));
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ notificationStatus: 'UNREAD', data: { noteId: note.noteId, patientId } });

    // Health Gorilla sends the same notifications again: answered 200, nothing written, no second notification.
    const client = vendor();
    const token = await client.accessToken();
    const resend = await fetch(`${hgBase()}/fhir/R4/RequestGroup/${data.hgId}/$resend-notifications`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(resend.status).toBe(200);
    expect(((await resend.json()) as { statuses: number[] }).statuses).toEqual([200, 200]);
    const after = await api(provider, 'GET', `/v1/notes/${note.noteId}`);
    expect(after.body.noteVersion).toBe(withResults.body.noteVersion);
    expect(list(await notifications())).toHaveLength(1);
    // The same version of a report with a value changed on the way changes nothing either.
    const [report] = await client.reportsFor(data.hgId!);
    const tampered = JSON.parse(JSON.stringify(report)) as { contained: { valueQuantity?: { value: number } }[] };
    tampered.contained[0]!.valueQuantity!.value = 999;
    const replayed = await fetch(`${stackOutputs().apiUrl}/v1/partner-deliveries/${HEALTH_GORILLA_PARTNER_ID}/results`, {
      method: 'POST',
      headers: { 'content-type': 'application/fhir+json', authorization: `Bearer ${secrets()[HEALTH_GORILLA_PARTNER_ID]}` },
      body: JSON.stringify(tampered),
    });
    expect(replayed.status).toBe(200);
    const untouched = await api(provider, 'GET', `/v1/notes/${note.noteId}`);
    expect(untouched.body.noteVersion).toBe(withResults.body.noteVersion);
    expect((untouched.body.data as LabNoteData).results).toEqual(results);
    // Whoever holds the Subscription's token and posts a "corrected" version with a value of their own:
    // the practice reads the report back from Health Gorilla, whose copy is the one already applied.
    const forgedVersion = { ...tampered, meta: { versionId: '7', lastUpdated: new Date().toISOString() } };
    const corrected = await deliver(forgedVersion);
    expect(corrected.status).toBe(200);
    expect(await corrected.json()).toMatchObject({ noteId: note.noteId, replayed: true });
    const stillUntouched = await api(provider, 'GET', `/v1/notes/${note.noteId}`);
    expect(stillUntouched.body.noteVersion).toBe(withResults.body.noteVersion);
    expect((stillUntouched.body.data as LabNoteData).results).toEqual(results);
    expect((stillUntouched.body.data as LabNoteData).results!.some((r) => r.valueQuantity?.value === 999)).toBe(false);
    // A report Health Gorilla never issued, for this very order: refused, nothing applied, nobody notified again.
    const invented = await deliver({ ...tampered, id: `dr-invented-${run}` });
    expect(invented.status).toBe(404);
    expect(((await invented.json()) as { message: string }).message).toBe(LAB_MESSAGES.unknownToVendor);
    const afterInvented = await api(provider, 'GET', `/v1/notes/${note.noteId}`);
    expect(afterInvented.body.noteVersion).toBe(withResults.body.noteVersion);
    expect((afterInvented.body.data as LabNoteData).results).toEqual(results);
    expect(list(await notifications())).toHaveLength(1);
    // Polling reads the same reports.
    expect((await client.reportsFor(data.hgId!)).length).toBe(2);
  });

  it("refuses a delivery without the Subscription's token", async () => {
    const res = await fetch(`${stackOutputs().apiUrl}/v1/partner-deliveries/${HEALTH_GORILLA_PARTNER_ID}/results`, {
      method: 'POST',
      headers: { 'content-type': 'application/fhir+json', authorization: 'Bearer not-the-token-of-the-subscription' },
      body: JSON.stringify({ resourceType: 'DiagnosticReport', id: 'x', basedOn: [{ reference: 'RequestGroup/x' }] }),
    });
    expect(res.status).toBe(401);
    // With the token, a report Health Gorilla does not know is refused by name; one that is no report at all, as bad input.
    const good = await deliver({ resourceType: 'DiagnosticReport', id: 'x', basedOn: [{ reference: `RequestGroup/unknown-${run}` }] });
    expect(good.status).toBe(404);
    expect(((await good.json()) as { message: string }).message).toBe(LAB_MESSAGES.unknownToVendor);
    const notAReport = await deliver({ resourceType: 'Observation', id: '../RequestGroup' });
    expect(notAReport.status).toBe(400);
    expect(((await notAReport.json()) as { message: string }).message).toBe(LAB_MESSAGES.notADeliveredReport);
  });

  it("says 'Missing lab provider resource id' when the ordering provider has none, and needs a patient and a test", async () => {
    const note = await labNote(admin);
    // The admin has no NPI the lab provider knows.
    const res = await api(admin, 'POST', `/v1/notes/${note.noteId}/lab-order`, { noteVersion: note.noteVersion, tests: ['24323-8'] });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(LAB_MESSAGES.missingProviderResourceId);
    const none = await api(provider, 'POST', `/v1/notes/${note.noteId}/lab-order`, { noteVersion: note.noteVersion, tests: [] });
    expect(none.status).toBe(400);
    const orphan = await labNote(provider, null);
    const noPatient = await api(provider, 'POST', `/v1/notes/${orphan.noteId}/lab-order`, { noteVersion: orphan.noteVersion, tests: ['24323-8'] });
    expect(noPatient.status).toBe(400);
    expect(noPatient.body.message).toBe(LAB_MESSAGES.noPatient);
  });

  it('trends one analyte (numeric values, oldest first), prints the report, and keeps roles and tenancy', async () => {
    const note = await labNote(provider);
    const ordered = await api(provider, 'POST', `/v1/notes/${note.noteId}/lab-order`, { noteVersion: note.noteVersion, tests: ['24323-8'] });
    expect(ordered.status).toBe(200);
    await eventually(
      'the final lab results on the note',
      () => api(provider, 'GET', `/v1/notes/${note.noteId}`),
      (r) => r.body.data?.orderStatus === 'final',
      { within: 25_000 },
    );
    const trend = await api(employee, 'GET', `/v2/notes/labs/link/${patientId}/2345-7?timezoneOffset=300`);
    expect(trend.status).toBe(200);
    expect(trend.body.text).toBe('Glucose');
    expect(trend.body.points.length).toBeGreaterThanOrEqual(2);
    expect(trend.body.points.every((p: { value: unknown; day: string }) => typeof p.value === 'number' && /^\d{4}-\d{2}-\d{2}$/.test(p.day))).toBe(true);
    const issued = trend.body.points.map((p: { issued: string }) => p.issued);
    expect([...issued].sort()).toEqual(issued);

    const print = await api(employee, 'GET', `/v1/notes/labs/print?id=${note.noteId}`);
    expect(print.status).toBe(200);
    expect(print.body.contentType).toBe('application/pdf');
    const text = (await pdfText(Buffer.from(print.body.base64, 'base64'))).join(' ');
    expect(text).toContain('Lab report');
    expect(text).toContain(`Lana Labs${run}`);
    expect(text).toContain('Glucose');
    expect(text).toContain(LOCAL_LAB_PROVIDER_LABEL);
    expect(text).not.toContain(LAB_MESSAGES.paymentFailed);
    // The billing system reports the charge failed: the report says so in the spec's words.
    const { client, tableName } = tableClient();
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { practiceId: 'prc_demo_tidewell', sk: `NOTE#${note.noteId}` },
        UpdateExpression: 'SET #d.paymentStatus = :f',
        ExpressionAttributeNames: { '#d': 'data' },
        ExpressionAttributeValues: { ':f': 'FAILED' },
      }),
    );
    const failed = await api(employee, 'GET', `/v1/notes/labs/print?id=${note.noteId}`);
    expect((await pdfText(Buffer.from(failed.body.base64, 'base64'))).join(' ')).toContain(LAB_MESSAGES.paymentFailed);

    // Roles: an employee reads, trends and prints, but does not order.
    const other = await labNote(employee);
    expect((await api(employee, 'POST', `/v1/notes/${other.noteId}/lab-order`, { noteVersion: other.noteVersion, tests: ['24323-8'] })).status).toBe(403);
    // Tenancy: another practice's admin and a no_access user see none of it.
    const foreign = await createTestUser({ email: `labs-foreign-${run}@other.tidewell.local`, group: 'admin', practiceId: 'prc_other_labs' });
    const noAccess = await signIn('noaccess@demo.tidewell.local');
    for (const token of [foreign, noAccess]) {
      expect((await api(token, 'GET', `/v1/notes/labs/print?id=${note.noteId}`)).status).toBe(403);
      expect((await api(token, 'GET', `/v2/notes/labs/link/${patientId}/2345-7`)).status).toBe(403);
      expect((await api(token, 'POST', `/v1/notes/${other.noteId}/lab-order`, { noteVersion: other.noteVersion, tests: ['24323-8'] })).status).toBe(403);
    }
    expect((await api(null, 'GET', `/v1/notes/labs/print?id=${note.noteId}`)).status).toBe(401);
    // Each read is in the patient's access history.
    const trail = await patientAuditTrail(patientId);
    expect(trail.some((e) => e.action === 'read' && e.entityId === note.noteId)).toBe(true);
  });
});
