import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FhirBulkExport, FhirBulkExportView } from '../../shared/chart/fhir-bulk.js';
import { s3ObjectsFromEnv } from '../../functions/lib/adapters/s3-objects.js';
import { schemaErrors } from '../support/fhir-checks.js';
import { api, signIn, stackEndpoints, stackOutputs, tableClient } from '../support/local-stack.js';

const run = Date.now().toString(36);
let admin: string;
let provider: string;
let employee: string;
let bulkPatientId: string;
type Res = { resourceType: string; id: string; [k: string]: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

async function waitFor(exportId: string, until: (e: FhirBulkExportView) => boolean, seconds = 50): Promise<FhirBulkExportView> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const res = await api(admin, 'GET', `/v1/practices/fhir-exports/${exportId}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const view = res.body as FhirBulkExportView;
    if (until(view)) return view;
    if (Date.now() > deadline) throw new Error(`Export still ${view.status} (${view.patientsDone}/${view.patientsTotal})`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function lines(url: string): Promise<Res[]> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return (await res.text()).split('\n').filter(Boolean).map((l) => JSON.parse(l) as Res);
}

/** Patients in the directory's listing (gsi1 PATIENTS#ACTIVE), which the export pages through. */
async function activePatientCount(): Promise<number> {
  const { client, tableName } = tableClient();
  const out = await client.send(new QueryCommand({ TableName: tableName, IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': 'PATIENTS#ACTIVE' }, Select: 'COUNT' }));
  return out.Count ?? 0;
}

async function startExport(): Promise<FhirBulkExport> {
  // One export runs at a time: wait for one another test left running.
  for (let i = 0; i < 200; i++) {
    const res = await api(admin, 'POST', '/v1/practices/fhir-exports');
    if (res.status === 202) return res.body as FhirBulkExport;
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('An export stayed running');
}

beforeAll(async () => {
  [admin, provider, employee] = await Promise.all([signIn('admin@demo.tidewell.local'), signIn('provider@demo.tidewell.local'), signIn('employee@demo.tidewell.local')]);
  const phone = `+1503558${String(Date.now() % 10_000).padStart(4, '0')}`;
  const p = await api(provider, 'POST', '/v1/patients', { firstName: 'Bulk', lastName: `Export${run}`, gender: 'female', dob: '1970-02-03', primaryPhoneNumber: phone });
  expect(p.status).toBe(201);
  bulkPatientId = p.body.id;
  expect((await api(provider, 'POST', `/v1/patients/${p.body.id}/allergies`, { name: 'Peanut', severity: 'severe', startDate: '2012-01-01' })).status).toBe(201);
  // A call from the patient's number that left a voicemail.
  const call = await fetch(`${stackOutputs().webUrl}/local/telephony/inbound`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ from: phone }) });
  expect(call.status).toBe(200);
});

describe('the practice FHIR export (Bulk Data)', () => {
  it('only admins start, follow or resume one', async () => {
    for (const token of [provider, employee]) {
      const started = await api(token, 'POST', '/v1/practices/fhir-exports');
      expect(started.status).toBe(403);
      expect(started.body.message).toBe('You do not have permission to do this.');
      expect((await api(token, 'GET', '/v1/practices/fhir-exports')).status).toBe(403);
      expect((await api(token, 'POST', '/v1/practices/fhir-exports/00000000-0000-4000-8000-000000000000/resume')).status).toBe(403);
    }
    expect((await api(admin, 'GET', '/v1/practices/fhir-exports/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('a full export of the demo practice completes through the state machine; its manifest lists every file it wrote', async () => {
    const total = await activePatientCount();
    const started = await startExport();
    expect(started.status).toBe('running');
    const done = await waitFor(started.exportId, (e) => e.status !== 'running');
    expect(done.error).toBeUndefined();
    expect(done.status).toBe('completed');
    expect(done.patientsTotal).toBe(total);
    expect(done.patientsDone).toBe(total);
    // Batches of 4 (the integration runtime's FHIR_BULK_BATCH_SIZE): the loop ran, not one call.
    expect(done.batchesDone).toBeGreaterThanOrEqual(Math.ceil(total / 4));
    expect(done.batchesDone).toBeLessThanOrEqual(Math.ceil(total / 4) + 1);
    const manifest = done.manifest!;
    expect(manifest.transactionTime).toBe(done.startedAt);
    expect(manifest.request).toMatch(/^https?:\/\/.+\/v1\/practices\/fhir-exports$/);
    expect(manifest.error).toEqual([]);
    expect(typeof manifest.requiresAccessToken).toBe('boolean');

    // Every NDJSON object under the export's folder is in the manifest, and nothing else.
    const s3 = s3ObjectsFromEnv({ S3_ENDPOINT: stackEndpoints().s3, AWS_REGION: stackOutputs().region });
    const folder = `exports/fhir/bulk/${started.exportId}/`;
    const stored = (await s3.listKeys(stackOutputs().filesBucket, folder)).map((k) => k.slice(folder.length)).filter((k) => k.endsWith('.ndjson'));
    expect(done.files!.map((f) => f.name).sort()).toEqual(stored.sort());
    expect(manifest.output.length).toBe(stored.length);

    const stored2 = JSON.parse(await (await fetch(done.manifestUrl!)).text());
    expect(stored2.output.map((o: { url: string }) => o.url).sort()).toEqual(stored.sort());

    const byType = new Map<string, Res[]>();
    for (const [i, out] of manifest.output.entries()) {
      const resources = await lines(out.url);
      expect(resources.length).toBeGreaterThan(0);
      for (const r of resources) {
        expect(r.resourceType).toBe(out.type);
        expect(schemaErrors(r), `${r.resourceType}/${r.id}`).toEqual([]);
      }
      expect(done.files![i]!.bytes).toBeGreaterThan(0);
      byType.set(out.type, [...(byType.get(out.type) ?? []), ...resources]);
    }
    const patients = byType.get('Patient') ?? [];
    expect(patients.length).toBe(total);
    expect(new Set(patients.map((p) => p.id)).size).toBe(total);
    expect(patients.some((p) => p.name?.[0]?.family === `Export${run}`)).toBe(true);
    expect((byType.get('AllergyIntolerance') ?? []).some((a) => a.code?.text === 'Peanut')).toBe(true);
    // The patient's call, its voicemail in the export's files folder.
    const bulkPatient = patients.find((p) => p.name?.[0]?.family === `Export${run}`)!;
    const call = (byType.get('Communication') ?? []).find((c) => c.subject.reference === `urn:uuid:${bulkPatient.id}` && c.medium[0].coding[0].code === 'PHONE')!;
    expect(call.category[0].text).toBe('Call received: Voicemail');
    const voicemail = call.payload.find((x: Res) => x.contentAttachment).contentAttachment;
    expect(voicemail.url).toMatch(new RegExp(`^files/${bulkPatientId}/\\d{4}-voicemail\\.wav$`));
    expect(Buffer.from(await s3.getObject({ bucket: stackOutputs().filesBucket, key: `${folder}${voicemail.url}` })).subarray(0, 4).toString()).toBe('RIFF');
    // Practitioners are written once, in one file, whatever the number of batches.
    expect(manifest.output.filter((o) => o.type === 'Practitioner').length).toBeLessThanOrEqual(1);
    const practitioners = byType.get('Practitioner') ?? [];
    expect(new Set(practitioners.map((p) => p.id)).size).toBe(practitioners.length);
    // Each type's count on the screen is what its files hold, the merged practitioners too.
    for (const [type, resources] of byType) expect(done.resourceCounts[type], type).toBe(resources.length);
    // Every reference to a Patient or Practitioner resolves in the export.
    const ids = new Set([...patients, ...practitioners].map((r) => `urn:uuid:${r.id}`));
    const refs = [...byType.values()].flat().flatMap((r) => JSON.stringify(r).match(/"reference":"urn:uuid:[^"]+"/g) ?? []).map((m) => m.slice('"reference":"'.length, -1));
    for (const ref of refs.filter((r) => !ids.has(r))) expect([...byType.values()].flat().some((r) => `urn:uuid:${r.id}` === ref), ref).toBe(true);

    // The admin is told, once, and every patient read is in its audit trail.
    const tasks = await api(admin, 'GET', `/v1/notifications?notificationType=TASK`);
    expect(tasks.status).toBe(200);
    const items = (tasks.body.items ?? tasks.body.notifications ?? tasks.body) as { sourceId: string; text: string }[];
    expect(items.filter((n) => n.sourceId === started.exportId).map((n) => n.text)).toEqual(['The practice data export is ready to download in Settings > Data export.']);
    const listed = await api(admin, 'GET', '/v1/practices/fhir-exports');
    expect(listed.body.exports.find((e: FhirBulkExport) => e.exportId === started.exportId)?.status).toBe('completed');
  });

  it('a failed run says why, and resumes from the batch where it stopped', async () => {
    const { client, tableName } = tableClient();
    const practiceId = stackEndpoints().practiceId;
    // A patient listed in the directory whose record is gone: the batch that reaches it fails.
    const real = await client.send(new GetCommand({ TableName: tableName, Key: { practiceId, sk: `PATIENT#${bulkPatientId}` } }));
    const orphan = { ...real.Item, sk: `BROKEN#${run}`, gsi1sk: `zzzz#${run}`, id: `gone-${run}` };
    await client.send(new PutCommand({ TableName: tableName, Item: orphan }));
    let failed: FhirBulkExportView;
    try {
      const started = await startExport();
      failed = await waitFor(started.exportId, (e) => e.status !== 'running');
    } finally {
      await client.send(new DeleteCommand({ TableName: tableName, Key: { practiceId, sk: orphan.sk! } }));
    }
    expect(failed.status).toBe('failed');
    expect(failed.error).toBe('Patient not found');
    // The batches before the broken patient were written and are kept.
    expect(failed.batchesDone).toBeGreaterThan(0);
    expect(failed.patientsDone).toBeGreaterThan(0);
    expect(failed.patientsDone).toBeLessThan(failed.patientsTotal);
    expect(failed.manifest).toBeUndefined();

    const resumed = await api(admin, 'POST', `/v1/practices/fhir-exports/${failed.exportId}/resume`);
    expect(resumed.status, JSON.stringify(resumed.body)).toBe(202);
    expect(resumed.body.attempt).toBe(2);
    const final = await waitFor(failed.exportId, (e) => e.status !== 'running');
    expect(final.status).toBe('completed');
    expect(final.error).toBeUndefined();
    // Only a failed export resumes.
    const again = await api(admin, 'POST', `/v1/practices/fhir-exports/${failed.exportId}/resume`);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Only a failed export can be resumed.');

    const total = await activePatientCount();
    expect(final.patientsDone).toBe(total);
    expect(final.batchesDone).toBeGreaterThan(failed.batchesDone);
    const patients = (await Promise.all(final.manifest!.output.filter((o) => o.type === 'Patient').map((o) => lines(o.url)))).flat();
    // Each patient once: the batches written before the failure were not written again.
    expect(patients.length).toBe(total);
    expect(new Set(patients.map((p) => p.id)).size).toBe(total);
  }, 120_000);
});
