import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FhirBulkExport, FhirBulkExportView } from '../../shared/chart/fhir-bulk.js';
import { s3ObjectsFromEnv } from '../../functions/lib/adapters/s3-objects.js';
import { storedKey } from '../../functions/lib/files/presign.js';
import { schemaErrors } from '../support/fhir-checks.js';
import { eventually } from '../support/eventually.js';
import { api, patientAuditTrail, signIn, stackEndpoints, stackOutputs, tableClient } from '../support/local-stack.js';

const run = Date.now().toString(36);
let admin: string;
let provider: string;
let employee: string;
let bulkPatientId: string;
/** The first test's completed export, whose stored manifest the download tests read. */
let completed: FhirBulkExportView | undefined;
const FILE_BYTES = '%PDF-1.4 bulk';
type Res = { resourceType: string; id: string; [k: string]: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

// An export pages through every patient the other test files made too: a few hundred on a busy runner take most of a minute.
async function waitFor(exportId: string, until: (e: FhirBulkExportView) => boolean, seconds = 150): Promise<FhirBulkExportView> {
  const read = async () => {
    const res = await api(admin, 'GET', `/v1/practices/fhir-exports/${exportId}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as FhirBulkExportView;
  };
  return eventually(`export ${exportId} to reach the awaited state`, read, until, { within: seconds * 1000, every: 250 });
}

/** A GET again on a fresh connection when the server closed the kept-alive one as it was reused (checking a large file can outlast its keep-alive). */
async function fetchFile(url: string): Promise<Response> {
  try {
    return await fetch(url);
  } catch (error) {
    if ((error as { cause?: { code?: string } }).cause?.code !== 'UND_ERR_SOCKET') throw error;
    return fetch(url);
  }
}

async function lines(url: string): Promise<Res[]> {
  const res = await fetchFile(url);
  expect(res.status).toBe(200);
  return (await res.text())
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Res);
}

/** The directory's listing (gsi1 PATIENTS#ACTIVE), which the export pages through in this order. */
function activePatients(page: { Select: 'COUNT' } | { Limit: number }) {
  const { client, tableName } = tableClient();
  return client.send(
    new QueryCommand({
      TableName: tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': 'PATIENTS#ACTIVE' },
      ...page,
    }),
  );
}

const activePatientCount = async (): Promise<number> => (await activePatients({ Select: 'COUNT' })).Count ?? 0;

async function startExport(): Promise<FhirBulkExport> {
  // One export runs at a time: wait for one another test left running.
  const res = await eventually(
    'an export accepted once no other runs',
    () => api(admin, 'POST', '/v1/practices/fhir-exports'),
    (r) => r.status !== 409,
    { within: 50_000, every: 250 },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body as FhirBulkExport;
}

beforeAll(async () => {
  [admin, provider, employee] = await Promise.all([
    signIn('admin@demo.tidewell.local'),
    signIn('provider@demo.tidewell.local'),
    signIn('employee@demo.tidewell.local'),
  ]);
  const phone = `+1503558${String(Date.now() % 10_000).padStart(4, '0')}`;
  const p = await api(provider, 'POST', '/v1/patients', {
    firstName: 'Bulk',
    lastName: `Export${run}`,
    gender: 'female',
    dob: '1970-02-03',
    primaryPhoneNumber: phone,
  });
  expect(p.status).toBe(201);
  bulkPatientId = p.body.id;
  expect((await api(provider, 'POST', `/v1/patients/${p.body.id}/allergies`, { name: 'Peanut', severity: 'severe', startDate: '2012-01-01' })).status).toBe(
    201,
  );
  // An in-person visit, at a slot of this run's own (the shared runtime's other tests book the same provider).
  const providerId = (await api(provider, 'GET', '/v1/practices/users/me')).body.userId;
  const start = new Date(Date.UTC(2033, 0, 1) + (parseInt(run, 36) % 40_000) * 3 * 3_600_000).toISOString();
  const booked = await api(provider, 'POST', '/v1/appointments', {
    patientId: bulkPatientId,
    providerId,
    appointmentTypeId: 'apt-demo-new-patient',
    bookingLocationId: 'loc-demo-north',
    visitType: 'in_person',
    start,
    durationMinutes: 60,
  });
  expect(booked.status, JSON.stringify(booked.body)).toBe(201);
  // A signed note with a file (its name has a space, which its url must carry escaped).
  const presign = await api(provider, 'POST', '/v1/s3/files', {
    key: `patients/${bulkPatientId}/documents/bulk-${run}.pdf`,
    contentType: 'application/pdf',
    size: FILE_BYTES.length,
  });
  expect(presign.status).toBe(200);
  expect(
    (await fetch(presign.body.signedUrl, { method: 'PUT', headers: { 'content-type': 'application/pdf', origin: stackOutputs().webUrl }, body: FILE_BYTES }))
      .status,
  ).toBe(200);
  const gone = await api(provider, 'POST', '/v1/s3/files', {
    key: `patients/${bulkPatientId}/documents/gone-${run}.pdf`,
    contentType: 'application/pdf',
    size: FILE_BYTES.length,
  });
  expect(
    (await fetch(gone.body.signedUrl, { method: 'PUT', headers: { 'content-type': 'application/pdf', origin: stackOutputs().webUrl }, body: FILE_BYTES }))
      .status,
  ).toBe(200);
  const note = await api(provider, 'POST', '/v2/notes', { noteId: 'new', noteType: 'NOTE', patientId: bulkPatientId });
  expect(note.status).toBe(201);
  const signed = await api(provider, 'POST', `/v1/notes/${note.body.noteId}/sign`, {
    noteVersion: note.body.noteVersion,
    data: { text: 'Referral letter attached.', formattedText: '<p>Referral letter attached.</p>' },
    files: [
      { key: presign.body.key, name: `bulk scan ${run}.pdf`, contentType: 'application/pdf', size: FILE_BYTES.length },
      { key: gone.body.key, name: `gone ${run}.pdf`, contentType: 'application/pdf', size: FILE_BYTES.length },
    ],
  });
  expect(signed.status, JSON.stringify(signed.body)).toBe(200);
  // The second file then goes missing from storage: the export must say so, not list it.
  await s3ObjectsFromEnv({ S3_ENDPOINT: stackEndpoints().s3, AWS_REGION: stackOutputs().region }).deleteObject({
    bucket: stackOutputs().filesBucket,
    key: storedKey(gone.body.key),
  });
  // A call from the patient's number that left a voicemail.
  const call = await fetch(`${stackOutputs().webUrl}/local/telephony/inbound`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ from: phone }),
  });
  expect(call.status).toBe(200);
});

/** GET of a download-route url with a token, not following the redirect. */
async function download(url: string, token: string): Promise<Response> {
  return fetch(url, { headers: { authorization: `Bearer ${token}` }, redirect: 'manual' });
}

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
    // This run's patient has a file gone from storage (below): the one error file says so.
    expect(manifest.error.map((e) => e.type)).toEqual(['OperationOutcome']);
    expect(typeof manifest.requiresAccessToken).toBe('boolean');

    // Every NDJSON object under the export's folder is in the manifest, and nothing else.
    const s3 = s3ObjectsFromEnv({ S3_ENDPOINT: stackEndpoints().s3, AWS_REGION: stackOutputs().region });
    const folder = `exports/fhir/bulk/${started.exportId}/`;
    const stored = (await s3.listKeys(stackOutputs().filesBucket, folder))
      .map((k) => k.slice(folder.length))
      .filter((k) => k.endsWith('.ndjson') && k !== 'OperationOutcome.ndjson');
    expect(done.files!.map((f) => f.name).sort()).toEqual(stored.sort());
    expect(manifest.output.length).toBe(stored.length);

    // The stored manifest names each file by its absolute url on the API's download route.
    const stored2 = JSON.parse(await (await fetch(done.manifestUrl!)).text());
    const route = `${stackOutputs().apiUrl}/v1/practices/fhir-exports/${started.exportId}/files/`;
    expect(stored2.output.map((o: { url: string }) => o.url).sort()).toEqual(stored.map((name) => `${route}${name}`).sort());
    expect(stored2.requiresAccessToken).toBe(true);
    expect(stored2.request).toBe(`${stackOutputs().apiUrl}/v1/practices/fhir-exports`);
    // The API's copy hands out expiring links, which need no token.
    expect(manifest.requiresAccessToken).toBe(false);
    expect(manifest.output.every((o) => !o.url.startsWith(route))).toBe(true);
    completed = done;

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
    const call = (byType.get('Communication') ?? []).find(
      (c) => c.subject.reference === `Patient/${bulkPatient.id}` && c.medium[0].coding[0].code === 'PHONE',
    )!;
    expect(call.category[0].text).toBe('Call received: Voicemail');
    const voicemail = call.payload.find((x: Res) => x.contentAttachment).contentAttachment;
    // Its url is the export's download route for files/<patientId>/<position>-voicemail.wav.
    const path = new RegExp(`/fhir-exports/[^/]+/files/(files/${bulkPatientId}/\\d{4}-voicemail\\.wav)$`).exec(voicemail.url)?.[1];
    expect(path, voicemail.url).toBeDefined();
    expect(
      Buffer.from(await s3.getObject({ bucket: stackOutputs().filesBucket, key: `${folder}${path}` }))
        .subarray(0, 4)
        .toString(),
    ).toBe('RIFF');
    // Practitioners are written once, in one file, whatever the number of batches.
    expect(manifest.output.filter((o) => o.type === 'Practitioner').length).toBeLessThanOrEqual(1);
    const practitioners = byType.get('Practitioner') ?? [];
    expect(new Set(practitioners.map((p) => p.id)).size).toBe(practitioners.length);
    // Locations too: one file, each once, the booking's own among them with its address.
    expect(manifest.output.filter((o) => o.type === 'Location')).toHaveLength(1);
    const locations = byType.get('Location') ?? [];
    expect(new Set(locations.map((l) => l.id)).size).toBe(locations.length);
    expect(locations.find((l) => l.name === 'North clinic')).toMatchObject({ address: { text: '9500 Research Blvd, Austin, TX 78759' } });
    const visit = (byType.get('Appointment') ?? []).find(
      (a) => a.appointmentType?.text === 'New patient visit' && JSON.stringify(a.participant).includes('North clinic'),
    );
    expect(visit).toBeTruthy();
    // Each type's count on the screen is what its files hold, the merged practitioners too.
    for (const [type, resources] of byType) expect(done.resourceCounts[type], type).toBe(resources.length);
    // Bulk Data files have no bundle: every reference is relative (Type/id) and names a resource the export holds.
    const all = new Set([...byType.values()].flat().map((r) => `${r.resourceType}/${r.id}`));
    const refs = [...byType.values()]
      .flat()
      .flatMap((r) => JSON.stringify(r).match(/"reference":"[^"]+"/g) ?? [])
      .map((m) => m.slice('"reference":"'.length, -1));
    expect(refs.length).toBeGreaterThan(0);
    expect(refs.filter((r) => r.startsWith('urn:'))).toEqual([]);
    expect(refs.filter((r) => !all.has(r))).toEqual([]);

    // The admin is told, once, and every patient read is in its audit trail.
    const tasks = await api(admin, 'GET', `/v1/notifications?notificationType=TASK`);
    expect(tasks.status).toBe(200);
    const items = (tasks.body.items ?? tasks.body.notifications ?? tasks.body) as { sourceId: string; text: string }[];
    expect(items.filter((n) => n.sourceId === started.exportId).map((n) => n.text)).toEqual([
      'The practice data export is ready to download in Settings > Data export.',
    ]);
    const listed = await api(admin, 'GET', '/v1/practices/fhir-exports');
    expect(listed.body.exports.find((e: FhirBulkExport) => e.exportId === started.exportId)?.status).toBe('completed');
  }, 200_000);

  it("the stored manifest lists every file of the export's folder by an absolute url that downloads with an admin's token", async () => {
    expect(completed, 'the full export above completed').toBeDefined();
    const exportId = completed!.exportId;
    const route = `${stackOutputs().apiUrl}/v1/practices/fhir-exports/${exportId}/files/`;
    const manifest = JSON.parse(await (await fetch(completed!.manifestUrl!)).text()) as {
      requiresAccessToken: boolean;
      output: { type: string; url: string }[];
      error: { type: string; url: string }[];
      extension: Record<string, { count?: number; files?: { url: string; contentType: string; size: number; patient: { reference: string } }[] }>;
    };
    const attached = manifest.extension['https://tidewell.health/fhir/bulk/files']!;
    const files = attached.files!;
    expect(attached.count).toBe(files.length);
    expect(files.length).toBe(completed!.filesCopied);
    expect(files.length).toBeGreaterThan(0);
    const pathOf = (url: string) => url.slice(route.length).split('/').map(decodeURIComponent).join('/');
    for (const url of [...manifest.output.map((o) => o.url), ...files.map((f) => f.url)]) expect(url.startsWith(route), url).toBe(true);

    // Every object in the export's folder but the manifest itself is listed: NDJSON in output, the rest as files.
    const s3 = s3ObjectsFromEnv({ S3_ENDPOINT: stackEndpoints().s3, AWS_REGION: stackOutputs().region });
    const folder = `exports/fhir/bulk/${exportId}/`;
    const objects = (await s3.listObjects(stackOutputs().filesBucket, folder)).map((o) => ({ ...o, path: o.key.slice(folder.length) }));
    const listed = [...manifest.output.map((o) => pathOf(o.url)), ...manifest.error.map((e) => pathOf(e.url)), ...files.map((f) => pathOf(f.url))].sort();
    expect(listed).toEqual(
      objects
        .map((o) => o.path)
        .filter((p) => p !== 'manifest.json')
        .sort(),
    );
    for (const f of files) expect(f.size, f.url).toBe(objects.find((o) => o.path === pathOf(f.url))!.size);

    // The bulk patient's file: its type, size and patient, and its DocumentReference points at the same url.
    const patientOut = (await Promise.all(completed!.manifest!.output.filter((o) => o.type === 'Patient').map((o) => lines(o.url)))).flat();
    const patient = patientOut.find((p) => p.name?.[0]?.family === `Export${run}`)!;
    const scan = files.find((f) => f.url.endsWith(encodeURIComponent(`bulk scan ${run}.pdf`)))!;
    expect(scan).toMatchObject({ contentType: 'application/pdf', size: FILE_BYTES.length, patient: { reference: `Patient/${patient.id}` } });
    expect(scan.url).toBe(`${route}files/${bulkPatientId}/${encodeURIComponent(pathOf(scan.url).split('/').pop()!)}`);
    const documents = (await Promise.all(completed!.manifest!.output.filter((o) => o.type === 'DocumentReference').map((o) => lines(o.url)))).flat();
    const attachmentUrls = documents.flatMap((d) => (d.content as { attachment: { url?: string } }[]).map((c) => c.attachment.url).filter(Boolean));
    expect(attachmentUrls).toContain(scan.url);
    // A file storage no longer holds is not listed; an OperationOutcome in the manifest's error file names it instead.
    expect(manifest.error).toEqual([{ type: 'OperationOutcome', url: `${route}OperationOutcome.ndjson` }]);
    // The API's copy of the manifest presigns the error file as it does the output.
    const outcomes = await lines(completed!.manifest!.error[0]!.url);
    for (const o of outcomes) expect(schemaErrors(o)).toEqual([]);
    const named = (url: string) => outcomes.some((o) => o.issue[0].code === 'not-found' && o.issue[0].diagnostics.includes(`(${url})`));
    const goneUrl = attachmentUrls.find((u): u is string => !!u?.endsWith(encodeURIComponent(`gone ${run}.pdf`)))!;
    expect(files.map((f) => f.url)).not.toContain(goneUrl);
    expect(named(goneUrl)).toBe(true);
    expect(completed!.filesMissing).toBe(outcomes.length);
    for (const url of attachmentUrls) expect(files.some((f) => f.url === url) || named(url!), url).toBe(true);

    // Each url answers an admin with a redirect to a 15-minute link holding the stored bytes.
    for (const url of [...manifest.output.map((o) => o.url), ...files.map((f) => f.url)]) {
      const res = await download(url, admin);
      expect(res.status, url).toBe(302);
      const location = res.headers.get('location')!;
      expect(new URL(location).searchParams.get('X-Amz-Expires')).toBe('900');
      const bytes = new Uint8Array(await (await fetch(location)).arrayBuffer());
      expect(bytes.length, url).toBe(objects.find((o) => o.path === pathOf(url))!.size);
    }
    // A client that follows the redirect (as fetch and curl -L do, leaving the token behind) gets the file itself.
    const followed = await fetch(scan.url, { headers: { authorization: `Bearer ${admin}` } });
    expect(followed.status).toBe(200);
    expect(await followed.text()).toBe(FILE_BYTES);
    const ndjson = await fetch(manifest.output.find((o) => o.type === 'Patient')!.url, { headers: { authorization: `Bearer ${admin}` } });
    expect(
      (await ndjson.text())
        .split('\n')
        .filter(Boolean)
        .every((l) => (JSON.parse(l) as Res).resourceType === 'Patient'),
    ).toBe(true);
    // A download of the patient's file, and of the NDJSON file holding the patient, is in that patient's access history.
    const trail = (await patientAuditTrail(bulkPatientId)).filter(
      (e) => e.entity === 'fhir_bulk_export_file' && e.action === 'read' && e.actorEmail === 'admin@demo.tidewell.local',
    );
    expect(trail.map((e) => e.entityId)).toContain(`${exportId}/${pathOf(scan.url)}`);
    let patientFile: string | undefined;
    for (const out of completed!.manifest!.output.filter((o) => o.type === 'Patient')) {
      if ((await lines(out.url)).some((p) => p.id === patient.id)) patientFile = completed!.files!.find((f) => f.url === out.url)!.name;
    }
    expect(patientFile).toBeDefined();
    expect(trail.map((e) => e.entityId)).toContain(`${exportId}/${patientFile}`);

    // Only admins; nothing outside the export's folder; an unknown export or file is 404.
    for (const token of [provider, employee]) {
      const refused = await download(scan.url, token);
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { message: string }).message).toBe('You do not have permission to do this.');
    }
    const other = (await api(admin, 'GET', '/v1/practices/fhir-exports')).body.exports.find(
      (e: FhirBulkExport) => e.exportId !== exportId && e.status === 'completed',
    ) as FhirBulkExport | undefined;
    const outside = [
      `${route}..%2F..%2F..%2Fpatients%2F${bulkPatientId}%2Fdocuments%2Fbulk-${run}.pdf`,
      `${route}files%2F..%2F..%2F${other?.exportId ?? exportId}%2Fmanifest.json`,
      `${route}files/${bulkPatientId}/..%2F..%2Fmanifest.json`,
      `${route}Unknown.9999.ndjson`,
      `${route}files/${bulkPatientId}/no-such-file.pdf`,
    ];
    for (const url of outside) {
      const res = await download(url, admin);
      expect(res.status, url).toBe(404);
      expect(((await res.json()) as { message: string }).message, url).toBe('File not found');
    }
    const unknown = await download(`${stackOutputs().apiUrl}/v1/practices/fhir-exports/00000000-0000-4000-8000-000000000000/files/manifest.json`, admin);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { message: string }).message).toBe('Export not found');
  });

  it('a failed run says why, and resumes from the batch where it stopped', async () => {
    const { client, tableName } = tableClient();
    const practiceId = stackEndpoints().practiceId;
    // A patient listed in the directory whose record is gone: the batch that reaches it fails.
    const real = await client.send(new GetCommand({ TableName: tableName, Key: { practiceId, sk: `PATIENT#${bulkPatientId}` } }));
    // Listed right after the directory's eighth patient: two batches of 4 are written, then the run stops early.
    const firstNine = await activePatients({ Limit: 9 });
    const eighth = firstNine.Items![7]!.gsi1sk as string;
    const orphan = { ...real.Item, sk: `BROKEN#${run}`, gsi1sk: `${eighth}~${run}`, id: `gone-${run}` };
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
  }, 360_000);
});
