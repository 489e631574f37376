import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FhirBulkExport, FhirBulkExportView } from '../../shared/chart/fhir-bulk.js';
import { startLocalRuntime, type LocalRuntime } from '../../infra/local/runtime.js';
import { downloadExport, importPractice, type ImportSummary } from '../../scripts/practice/import-practice.js';
import { callApi, signInAs } from '../support/restartable-runtime.js';
import { startRuntimeProcess, type RuntimeProcess } from '../support/runtime-process.js';

/*
 * The restore drill: a freshly seeded demo practice (a runtime of this file's own, so what other test
 * files add to the shared runtime is not in it) exported, imported into a second, empty practice (its
 * own practice id, table, bucket and pool), and exported again there.
 */
const run = Date.now().toString(36);
const FILE_BYTES = `%PDF-1.4 restore drill ${run}`;
/** A scan larger than any request the API takes (the local runtime refuses 10 MB, a Lambda 6 MB): it comes back only through the import's own upload. */
const LARGE_BYTES = Buffer.concat([Buffer.from(`%PDF-1.4 large scan ${run}\n`), Buffer.alloc(11 * 1024 * 1024, 0x25)]);
/** The demo practice's texting number (infra/local/seed). */
const PRACTICE_PHONE = '+15415550100';
const folders: string[] = [];
const folder = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  folders.push(dir);
  return dir;
};
type Res = { resourceType: string; id: string; [k: string]: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

let origin: RuntimeProcess | undefined;
let target: LocalRuntime;
/** The first practice's export, as it reported itself and as downloaded. */
let first: FhirBulkExportView;
let exported: string;
let targetAdmin: string;
/** The drill patient's phone: the number the practice texted with. */
let phone: string;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function exportAndWait(call: (method: string, path: string) => Promise<{ status: number; body: any }>): Promise<FhirBulkExportView> {
  let started: FhirBulkExport | undefined;
  // One export runs at a time in a practice: wait out one another test left running.
  for (let i = 0; i < 400 && !started; i++) {
    const res = await call('POST', '/v1/practices/fhir-exports');
    if (res.status === 202) started = res.body as FhirBulkExport;
    else {
      expect(res.status, JSON.stringify(res.body)).toBe(409);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  if (!started) throw new Error('An export stayed running');
  const deadline = Date.now() + 120_000;
  for (;;) {
    const res = await call('GET', `/v1/practices/fhir-exports/${started.exportId}`);
    expect(res.status).toBe(200);
    const view = res.body as FhirBulkExportView;
    if (view.status !== 'running') {
      expect(view.error).toBeUndefined();
      expect(view.status).toBe('completed');
      return view;
    }
    if (Date.now() > deadline) throw new Error(`Export still running (${view.patientsDone}/${view.patientsTotal})`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

function ndjson(dir: string): Res[] {
  return readdirSync(dir)
    .filter((n) => n.endsWith('.ndjson') && n !== 'OperationOutcome.ndjson')
    .flatMap((n) =>
      readFileSync(join(dir, n), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Res),
    );
}

/** The attached files' bytes, as a sorted list of hashes (their names differ by patient id between practices). */
function fileHashes(dir: string): string[] {
  const walk = (d: string): string[] => readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : [join(d, n)]));
  const files = join(dir, 'files');
  return (statSync(files, { throwIfNoEntry: false }) ? walk(files) : [])
    .map((f) => `${relative(files, f).split('/').slice(1).join('/')}:${createHash('sha256').update(readFileSync(f)).digest('hex')}`)
    .sort();
}

/**
 * What a resource says clinically, without what names the practice (ids, references, identifiers,
 * urls, export and import times). A file's size is compared as its bytes, below: the source's
 * voicemail and fax records do not say it, the restored files do.
 */
function clinical(r: Res): string {
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip);
    if (!v || typeof v !== 'object') return v;
    return Object.fromEntries(
      Object.entries(v)
        .filter(
          ([k]) =>
            ![
              'id',
              'reference',
              'identifier',
              'url',
              'meta',
              'fullUrl',
              'masterIdentifier',
              'date',
              'recorded',
              'issued',
              'authoredOn',
              'recordedDate',
              'dateAsserted',
              'creation',
              'size',
            ].includes(k),
        )
        .map(([k, x]) => [k, strip(x)]),
    );
  };
  return JSON.stringify(strip(r));
}
const clinicalOf = (resources: Res[], type: string) =>
  resources
    .filter((r) => r.resourceType === type)
    .map(clinical)
    .sort();

beforeAll(async () => {
  // The first practice runs in a process of its own (its handlers read their table from the environment).
  const started = await startRuntimeProcess(folder('tidewell-origin-'));
  const rt = { outputs: started.outputs } as LocalRuntime;
  origin = started;
  const provider = await signInAs(rt, 'provider@demo.tidewell.local');
  const api = (token: string, method: string, path: string, body?: unknown) => callApi(rt, token, method, path, body);
  // A chart with a file behind a signed note, so the drill carries bytes.
  const p = await api(provider, 'POST', '/v1/patients', { firstName: 'Restore', lastName: `Drill${run}`, gender: 'female', dob: '1966-05-04' });
  expect(p.status).toBe(201);
  const base = `/v1/patients/${p.body.id}`;
  phone = `+1503557${String(Date.now() % 10_000).padStart(4, '0')}`;
  for (const [path, body] of [
    ['allergies', { name: 'Latex', severity: 'moderate', startDate: '2015-03-01' }],
    ['diagnoses', { name: 'Hypertension', date: '2020-01', pinned: false, icd10CodeId: 'I10' }],
    ['medications', { productName: 'Lisinopril', strength: '10', strengthUOM: 'mg', code: { type: 'NDC', value: '68180-0514-01' } }],
    ['vaccines', { name: 'Influenza', cvxCode: '141', mvxCode: 'SKB', date: '2024-10-01', administrationRoute: 'IM' }],
    ['surgeries', { name: 'Appendectomy', date: '2001-05-05' }],
    ['family-history', { diagnosis: 'Diabetes', family: ['FTH'] }],
    ['social-history', { question: 'Tobacco use?', answer: 'Never' }],
  ] as const) {
    const res = await api(provider, 'POST', `${base}/${path}`, body);
    expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(201);
  }
  expect(
    (await api(provider, 'PUT', base, { firstName: 'Restore', lastName: `Drill${run}`, gender: 'female', dob: '1966-05-04', primaryPhoneNumber: phone }))
      .status,
  ).toBe(200);
  const vitals = await api(provider, 'POST', '/v2/notes', { noteId: 'new', noteType: 'VITALS', patientId: p.body.id });
  expect(
    (
      await api(provider, 'POST', `/v1/notes/${vitals.body.noteId}/sign`, {
        noteVersion: vitals.body.noteVersion,
        data: { systolic: 120, diastolic: 80, weight: 160, height: 66 },
      })
    ).status,
  ).toBe(200);
  expect(
    (
      await api(provider, 'POST', '/v2/notes', {
        noteId: 'new',
        noteType: 'SMS_LOG',
        patientId: p.body.id,
        eventTimestamp: '2025-02-03T15:04:05.000Z',
        data: { text: `Running late ${run}`, formattedText: `<p>Running late ${run}</p>` },
      })
    ).status,
  ).toBe(201);
  // A conversation: the practice's text and the patient's answer through the carrier.
  const conversation = await api(provider, 'POST', '/v1/messaging/conversations', { patientPhoneNumber: phone, practicePhoneNumber: PRACTICE_PHONE });
  expect(conversation.status).toBe(200);
  const conversationId = conversation.body.conversation.conversationId as string;
  expect((await api(provider, 'POST', `/v1/messaging/conversations/${conversationId}/messages`, { text: `Your results are in ${run}` })).status).toBe(201);
  const answer = await fetch(`${rt.outputs.webUrl}/local/carrier/sms`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ from: phone, to: PRACTICE_PHONE, text: `Thank you, what do they say? ${run}` }),
  });
  expect(answer.status).toBe(202);
  const texts = (await api(provider, 'GET', `/v1/messaging/conversations/${conversationId}/messages`)).body.messages as { direction: string }[];
  expect(texts.map((t) => t.direction)).toEqual(['outbound', 'inbound']);
  // A call from the patient's number that left a voicemail, and a fax from it.
  const post = (path: string) =>
    fetch(`${rt.outputs.webUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ from: phone }) });
  expect((await post('/local/telephony/inbound')).status).toBe(200);
  expect((await post('/local/fax/inbound')).status).toBe(200);
  const presign = await api(provider, 'POST', '/v1/s3/files', {
    key: `patients/${p.body.id}/documents/drill-${run}.pdf`,
    contentType: 'application/pdf',
    size: FILE_BYTES.length,
  });
  expect(presign.status).toBe(200);
  expect(
    (await fetch(presign.body.signedUrl, { method: 'PUT', headers: { 'content-type': 'application/pdf', origin: rt.outputs.webUrl }, body: FILE_BYTES }))
      .status,
  ).toBe(200);
  const large = await api(provider, 'POST', '/v1/s3/files', {
    key: `patients/${p.body.id}/documents/scan-${run}.pdf`,
    contentType: 'application/pdf',
    size: LARGE_BYTES.length,
  });
  expect(large.status).toBe(200);
  expect(
    (
      await fetch(large.body.signedUrl, {
        method: 'PUT',
        headers: { 'content-type': 'application/pdf', origin: rt.outputs.webUrl },
        body: new Uint8Array(LARGE_BYTES),
      })
    ).status,
  ).toBe(200);
  const note = await api(provider, 'POST', '/v2/notes', { noteId: 'new', noteType: 'NOTE', patientId: p.body.id });
  expect(note.status).toBe(201);
  const signed = await api(provider, 'POST', `/v1/notes/${note.body.noteId}/sign`, {
    noteVersion: note.body.noteVersion,
    data: { text: 'Discharge summary attached.', formattedText: '<p>Discharge summary attached.</p>' },
    files: [
      { key: presign.body.key, name: `drill summary ${run}.pdf`, contentType: 'application/pdf', size: FILE_BYTES.length },
      { key: large.body.key, name: `large scan ${run}.pdf`, contentType: 'application/pdf', size: LARGE_BYTES.length },
    ],
  });
  expect(signed.status, JSON.stringify(signed.body)).toBe(200);
  // A visit at the main office and a weekly telehealth series: the calendar comes back too.
  const providerId = (await api(provider, 'GET', '/v1/practices/users/me')).body.userId;
  const day = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
  for (const booking of [
    {
      appointmentTypeId: 'apt-demo-follow-up',
      bookingLocationId: 'loc-demo-main',
      visitType: 'in_person',
      start: `${day}T15:00:00.000Z`,
      durationMinutes: 30,
      notes: `Bring the glucose log ${run}`,
    },
    {
      appointmentTypeId: 'apt-demo-telehealth',
      bookingLocationId: null,
      visitType: 'virtual',
      start: `${day}T17:00:00.000Z`,
      durationMinutes: 15,
      recurrence: { frequency: 'Weekly', interval: 1, end: 'COUNT', count: 3 },
    },
  ]) {
    const booked = await api(provider, 'POST', '/v1/appointments', { patientId: p.body.id, providerId, ...booking });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
  }
  const originAdmin = await signInAs(rt, 'admin@demo.tidewell.local');
  first = await exportAndWait((method, path) => callApi(rt, originAdmin, method, path));
  exported = folder('tidewell-export-a-');
  await downloadExport({ apiUrl: rt.outputs.apiUrl, token: originAdmin }, first.exportId, exported);
  await started.stop();
  origin = undefined;

  target = await startLocalRuntime({
    dataDir: folder('tidewell-restore-'),
    port: 0,
    serveWeb: false,
    seed: true,
    empty: true,
    practiceIdentity: { practiceId: 'prc_restored_tidewell', slug: 'restored', practiceName: 'Restored Practice' },
  });
  targetAdmin = await signInAs(target, 'admin@demo.tidewell.local');
}, 300_000);

afterAll(async () => {
  await origin?.stop();
  await target?.stop();
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

/** What the restored practice's Messages hub and the patient's SMS chat show of a phone's texts with the practice number. */
async function textsOf(patientPhone: string) {
  const list = await callApi(target, targetAdmin, 'GET', '/v1/messaging/conversations?filter=all&limit=100');
  expect(list.status, JSON.stringify(list.body)).toBe(200);
  const mine = (list.body.conversations as { conversationId: string; patientPhoneNumber: string; practicePhoneNumber: string }[]).filter(
    (c) => c.patientPhoneNumber === patientPhone,
  );
  expect(mine, 'one conversation with the patient phone').toHaveLength(1);
  const conversation = mine[0] as (typeof mine)[number] & Record<string, unknown>;
  const unread = await callApi(target, targetAdmin, 'GET', '/v1/messaging/conversations?filter=unread&limit=100');
  const shown = (m: { direction: string; text: string; readStatus: string }) => ({ direction: m.direction, text: m.text, readStatus: m.readStatus });
  const chat = await callApi(target, targetAdmin, 'GET', `/v1/messaging/conversations/${conversation.conversationId}/messages?limit=50`);
  expect(chat.status, JSON.stringify(chat.body)).toBe(200);
  const history = await callApi(target, targetAdmin, 'GET', `/sms?phoneNumber=${encodeURIComponent(patientPhone)}&limit=50`);
  expect(history.status, JSON.stringify(history.body)).toBe(200);
  return {
    conversation,
    total: list.body.total as number,
    unreadTab: (unread.body.conversations as { conversationId: string }[]).map((c) => c.conversationId),
    messages: (chat.body.messages as Parameters<typeof shown>[0][]).map(shown),
    history: (history.body.messages as Parameters<typeof shown>[0][]).map(shown),
  };
}

describe('a practice rebuilt from its export', () => {
  it('only an admin of the practice imports into it, and a bundle without a patient is refused in words', async () => {
    const provider = await signInAs(target, 'provider@demo.tidewell.local');
    const bundle = { resourceType: 'Bundle', entry: [{ resource: { resourceType: 'Patient', name: [{ family: 'Nope', given: ['No'] }] } }] };
    const refused = await callApi(target, provider, 'POST', '/v1/practices/fhir-imports/patients', { bundle });
    expect(refused.status).toBe(403);
    const empty = await callApi(target, targetAdmin, 'POST', '/v1/practices/fhir-imports/patients', {
      bundle: { resourceType: 'Bundle', entry: [{ resource: { resourceType: 'Condition', code: { text: 'Asthma' } } }] },
    });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('The bundle holds no Patient: each bundle of a practice import is one patient with their resources');
    const unnamed = await callApi(target, targetAdmin, 'POST', '/v1/practices/fhir-imports/patients', {
      bundle: { resourceType: 'Bundle', entry: [{ resource: { resourceType: 'Patient', gender: 'female' } }] },
    });
    expect(unnamed.status).toBe(400);
    expect(unnamed.body.message).toBe('The Patient has no name: a chart needs a first and last name');
    // Nothing was created by the refused requests.
    const patients = await callApi(target, targetAdmin, 'GET', '/v1/patients');
    expect(patients.body.total).toBe(0);
  });

  it('export, import into the empty practice, export again: the same counts per resource type, clinical content and file bytes; a second run adds nothing', async () => {
    // The drill patient's bundle with every file carried would be refused (413): the large scan goes up on its own.
    const lines: string[] = [];
    // Parts of 8 resources: the drill patient is cut into parts as a patient of ten years would be, so the round trip
    // proves that what the import reads together (a call and its note, a fax and its note, a note and its files) is never cut apart.
    const imported: ImportSummary = await importPractice({
      dir: exported,
      apiUrl: target.outputs.apiUrl,
      token: targetAdmin,
      parts: { resources: 8 },
      out: (l) => lines.push(l),
    });
    expect(imported.failed, lines.join('\n')).toEqual([]);
    expect(lines.join('\n')).toMatch(/sent in \d+ parts/);
    expect(lines.join('\n')).toContain('1 large files uploaded apart');
    console.log(`Restored ${imported.patients} patients (the largest with a ${LARGE_BYTES.length} byte file) in ${imported.seconds.toFixed(1)} s`);
    expect(imported.patients).toBe(first.patientsDone);
    expect(imported.created).toBe(first.patientsDone);
    expect(imported.added).toBeGreaterThan(first.patientsDone);
    // The demo users have accounts in the restored practice too: every practitioner with an email is matched.
    expect(imported.users.unmatched).toEqual([]);
    expect(imported.users.matched).toContain('provider@demo.tidewell.local');

    const second = await exportAndWait((method, path) => callApi(target, targetAdmin, method, path));
    const again = folder('tidewell-export-b-');
    await downloadExport({ apiUrl: target.outputs.apiUrl, token: targetAdmin }, second.exportId, again);
    const [a, b] = [ndjson(exported), ndjson(again)];
    const table = Object.keys({ ...first.resourceCounts, ...second.resourceCounts })
      .sort()
      .map((type) => `${type}: ${first.resourceCounts[type] ?? 0} → ${second.resourceCounts[type] ?? 0}`);
    console.log(`Round trip (resources per type, demo → restored):\n${table.join('\n')}\nleft out: ${JSON.stringify(imported.leftOut)}`);
    // Every type comes back whole: a type that loses (or gains) one item fails here.
    expect(second.resourceCounts).toEqual(first.resourceCounts);
    expect(Object.keys(first.resourceCounts)).toEqual(
      expect.arrayContaining(['Appointment', 'Communication', 'DocumentReference', 'Location', 'Practitioner']),
    );
    expect(second.patientsDone).toBe(first.patientsDone);
    // The appointment types and booking location the appointments book were made in the empty practice first.
    expect(imported.calendar).toEqual({ types: ['Follow-up visit', 'Telehealth check-in'], locations: ['Main office'] });
    for (const type of [
      'Appointment',
      'AllergyIntolerance',
      'Condition',
      'MedicationStatement',
      'Immunization',
      'Procedure',
      'FamilyMemberHistory',
      'Observation',
      'DocumentReference',
      'Communication',
      'Practitioner',
      'Location',
    ]) {
      expect(clinicalOf(b, type), type).toEqual(clinicalOf(a, type));
    }
    // The patient's answer comes back as a text the patient sent, after the practice's text, in both exports.
    for (const resources of [a, b]) {
      const said = (words: string) =>
        resources.find((r) => r.resourceType === 'Communication' && r.payload?.some((x: { contentString?: string }) => x.contentString === words));
      const answer = said(`Thank you, what do they say? ${run}`);
      const asked = said(`Your results are in ${run}`);
      expect(answer?.sender?.reference, 'the answer is from the patient').toMatch(/Patient\//);
      expect(answer?.received).toBeTruthy();
      expect(asked?.recipient?.[0]?.reference, 'the practice text is to the patient').toMatch(/Patient\//);
      expect(Date.parse(answer!.received)).toBeGreaterThanOrEqual(Date.parse(asked!.sent));
    }
    // Every attached file (the note's, the voicemail, the fax's pages) comes back byte for byte, under the same name.
    expect(fileHashes(again)).toEqual(fileHashes(exported));
    expect(fileHashes(exported).length).toBeGreaterThanOrEqual(3);
    // The note's file comes back byte for byte.
    const drill = createHash('sha256').update(FILE_BYTES).digest('hex');
    expect(fileHashes(exported).filter((f) => f.endsWith(drill))).toHaveLength(1);
    expect(fileHashes(again).filter((f) => f.endsWith(drill))).toHaveLength(1);
    const scan = createHash('sha256').update(LARGE_BYTES).digest('hex');
    expect(fileHashes(exported).filter((f) => f.endsWith(scan))).toHaveLength(1);
    expect(fileHashes(again).filter((f) => f.endsWith(scan))).toHaveLength(1);

    // The texts are back in their conversation: the Messages hub lists it, read (restored texts are history),
    // with the patient's answer as its last message, and the conversation and the phone's history hold both texts in order.
    const restored = await textsOf(phone);
    expect(restored.conversation).toMatchObject({
      practicePhoneNumber: PRACTICE_PHONE,
      readStatus: 'READ',
      unreadCount: 0,
      lastMessage: { direction: 'inbound', text: `Thank you, what do they say? ${run}` },
    });
    expect(restored.unreadTab).not.toContain(restored.conversation.conversationId);
    expect(restored.messages).toEqual([
      { direction: 'outbound', text: `Your results are in ${run}`, readStatus: 'READ' },
      { direction: 'inbound', text: `Thank you, what do they say? ${run}`, readStatus: 'READ' },
    ]);
    expect(restored.history).toEqual(restored.messages);

    // A second run (the progress file aside) finds every patient and every resource already here.
    const rerun = await importPractice({ dir: exported, apiUrl: target.outputs.apiUrl, token: targetAdmin, again: true, out: () => undefined });
    expect(rerun).toMatchObject({ failed: [], created: 0, added: 0, patients: first.patientsDone });
    // And a resumed run (the progress file kept) sends none of them.
    const resumed: string[] = [];
    const skipped = await importPractice({ dir: exported, apiUrl: target.outputs.apiUrl, token: targetAdmin, out: (l) => resumed.push(l) });
    expect(skipped).toMatchObject({ created: 0, added: 0, present: 0 });
    // Nor did either run add a text or a conversation.
    expect(await textsOf(phone)).toEqual(restored);
    expect(resumed.join('\n')).toContain(`Resuming: ${first.patientsDone} of ${first.patientsDone} patients were brought in by an earlier run`);
  }, 600_000);
});
