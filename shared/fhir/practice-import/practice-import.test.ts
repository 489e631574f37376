import { describe, expect, it } from 'vitest';
import { ImportError, parseExport, toBase64 } from './export-files.js';
import { groupByPatient, localFilePath } from './group.js';
import { describeExport, matchUsers, previewImport, runImport, type ImportIo, type PatientOutcome } from './run.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const line = (r: Json) => JSON.stringify(r);
const patient = (id: string, family: string) => ({ resourceType: 'Patient', id, name: [{ family, given: ['Ada'] }] });
const dr = { resourceType: 'Practitioner', id: 'dr1', name: [{ family: 'Hale' }], telecom: [{ system: 'email', value: 'Jo@Demo.test' }] };
const other = { resourceType: 'Practitioner', id: 'dr2', telecom: [{ system: 'email', value: 'new@elsewhere.test' }] };
const note = (id: string, p: string) => ({
  resourceType: 'DocumentReference',
  id,
  subject: { reference: `http://old.example/fhir/Patient/${p}` },
  author: [{ reference: 'Practitioner/dr1' }],
  content: [{ attachment: { contentType: 'text/plain', url: `files/${p}/${id}.txt` } }],
});

describe('an export read for a practice import', () => {
  it('reads every NDJSON file in name order, counts resources per type and leaves the error file out', () => {
    const read = parseExport([
      { name: 'Patient.0001.ndjson', text: `${line(patient('p2', 'Moss'))}\n` },
      { name: 'OperationOutcome.ndjson', text: line({ resourceType: 'OperationOutcome', id: 'e1' }) },
      { name: 'Patient.0000.ndjson', text: `${line(patient('p1', 'Lee'))}\n\n` },
    ]);
    expect(read.resources.map((r) => r.id)).toEqual(['p1', 'p2']);
    expect(read.counts).toEqual({ Patient: 2 });
  });

  it('names the file and line of a line that is not JSON, or not a resource', () => {
    expect(() => parseExport([{ name: 'Patient.ndjson', text: `${line(patient('p1', 'Lee'))}\n{not json` }])).toThrow(
      new ImportError('Patient.ndjson line 2 is not JSON: an NDJSON file holds one resource per line.', 'bad-export'),
    );
    expect(() => parseExport([{ name: 'x.ndjson', text: '{"id":"p1"}' }])).toThrow('x.ndjson line 1 is not a FHIR resource (it has no resourceType).');
  });

  it('groups each patient with what names them (absolute references too) and the practitioners those name; what names no patient is set apart', () => {
    const orphan = { resourceType: 'Observation', id: 'o9', subject: { reference: 'Patient/gone' } };
    const { groups, unassigned } = groupByPatient([patient('p1', 'Lee'), patient('p2', 'Moss'), dr, other, note('n1', 'p1'), note('n2', 'p2'), orphan]);
    expect(groups.map((g) => g.entry.map((e) => e.fullUrl))).toEqual([
      ['Patient/p1', 'DocumentReference/n1', 'Practitioner/dr1'],
      ['Patient/p2', 'DocumentReference/n2', 'Practitioner/dr1'],
    ]);
    expect(unassigned.map((r) => r.id)).toEqual(['o9']);
  });

  it('finds an attachment in the export folder by a relative path or a Tidewell download url, never outside it', () => {
    expect(localFilePath('files/p1/a%20b.pdf')).toBe('files/p1/a b.pdf');
    expect(localFilePath('https://api.example/v1/practices/fhir-exports/e1/files/files/p1/x.pdf')).toBe('files/p1/x.pdf');
    expect(localFilePath('files/../secret')).toBeUndefined();
    expect(localFilePath('https://elsewhere.example/x.pdf')).toBeUndefined();
  });

  it('matches practitioners to users by email, whatever the case, and lists the others', () => {
    expect(matchUsers([dr, other], [{ emailAddress: 'jo@demo.test' }])).toEqual({ matched: ['jo@demo.test'], unmatched: ['new@elsewhere.test'] });
  });

  it('says what it holds before anything is sent: patients, requests and the files it names', () => {
    const found = describeExport(parseExport([{ name: 'all.ndjson', text: [patient('p1', 'Lee'), dr, note('n1', 'p1')].map(line).join('\n') }]));
    expect([found.groups.length, found.requests, found.filePaths, found.practitioners.length]).toEqual([1, 1, ['files/p1/n1.txt'], 1]);
  });

  it('base64-encodes bytes as an attachment carries them', () => {
    const bytes = new Uint8Array(70_000).map((_, i) => i % 251);
    expect(toBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'));
  });
});

describe('a practice import run', () => {
  const exported = parseExport([
    { name: 'all.ndjson', text: [patient('p1', 'Lee'), patient('p2', 'Moss'), dr, note('n1', 'p1'), note('n2', 'p2')].map(line).join('\n') },
  ]);
  function fakeIo(answer: (bundle: Json) => { status: number; body: Json }) {
    const sent: Json[] = [];
    let saved: string[] = [];
    const io: ImportIo = {
      call: async (method, path, body) => {
        if (path === '/v1/practices/users') return { status: 200, body: { users: [{ emailAddress: 'jo@demo.test' }] } };
        const bundle = (body as Json).bundle as Json;
        sent.push(bundle);
        return answer(bundle);
      },
      put: async () => ({ ok: true, status: 200 }),
      readFile: async (path) => (path === 'files/p1/n1.txt' ? new TextEncoder().encode('hello') : undefined),
      progress: { load: async () => saved, save: async (done) => void (saved = done) },
    };
    return { io, sent, saved: () => saved };
  }
  const ok = (bundle: Json) => ({
    status: 200,
    body: { patientId: `new-${String(bundle.entry[0].resource.id)}`, created: true, added: bundle.entry.length - 1, present: 0, skipped: 0, leftOut: [] },
  });

  it('sends each patient with its files, tells each outcome, and keeps the patients done so a second run resumes after them', async () => {
    const { io, sent, saved } = fakeIo(ok);
    const outcomes: PatientOutcome[] = [];
    const summary = await runImport({ exported, where: 'the files picked', apiLabel: 'api', out: () => undefined, onPatient: (o) => outcomes.push(o) }, io);
    expect(outcomes.map((o) => [o.n, o.total, o.patient, o.patientId, o.added])).toEqual([
      [1, 2, 'Ada Lee (Patient/p1)', 'new-p1', 2],
      [2, 2, 'Ada Moss (Patient/p2)', 'new-p2', 2],
    ]);
    const carried = (sent[0]!.entry as Json[]).find((e) => e.resource.id === 'n1')!.resource.content[0].attachment;
    expect(atob(carried.data)).toBe('hello');
    expect(summary).toMatchObject({ created: 2, added: 4, files: 1, missingFiles: ['files/p2/n2.txt'], users: { matched: ['jo@demo.test'], unmatched: [] } });
    expect(saved()).toEqual(['Patient/p1', 'Patient/p2']);
    const again = await runImport({ exported, where: 'x', apiLabel: 'api', out: () => undefined }, io);
    expect([again.sent, again.resumed, sent.length]).toEqual([0, 2, 2]);
  });

  it("stops before the next patient when asked, and lists a failed patient with the server's reason without keeping it done", async () => {
    const stop = new AbortController();
    const { io, saved } = fakeIo((bundle) =>
      bundle.entry[0].resource.id === 'p1' ? { status: 400, body: { message: 'The Patient has no name' } } : ok(bundle),
    );
    const first = await runImport({ exported, where: 'x', apiLabel: 'api', out: () => undefined, signal: stop.signal, onPatient: () => stop.abort() }, io);
    expect(first).toMatchObject({ sent: 1, stopped: true, failed: [{ patient: 'Ada Lee (Patient/p1)', error: 'The Patient has no name' }] });
    expect(saved()).toEqual([]);
  });

  it('sends as many patients at once as asked, keeps every one done, and starts none after the API refuses the admin', async () => {
    const many = parseExport([{ name: 'p.ndjson', text: ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((id) => line(patient(id, id.toUpperCase()))).join('\n') }]);
    let inFlight = 0;
    let most = 0;
    const slow = (answer: (bundle: Json) => { status: number; body: Json }) => async (bundle: Json) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight -= 1;
      return answer(bundle);
    };
    const { io, saved } = fakeIo(ok);
    const answerOf = io.call;
    const paced = slow(ok);
    io.call = async (method, path, body) =>
      path === '/v1/practices/fhir-imports/patients' ? paced((body as Json).bundle as Json) : answerOf(method, path, body);
    const summary = await runImport({ exported: many, where: 'x', apiLabel: 'api', out: () => undefined, concurrency: 3 }, io);
    expect(most).toBe(3);
    expect(summary).toMatchObject({ sent: 7, created: 7, failed: [] });
    expect([...saved()].sort()).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((id) => `Patient/${id}`));

    const refused = fakeIo(ok);
    const tried: string[] = [];
    const deny = slow(() => ({ status: 403, body: { message: 'Forbidden' } }));
    refused.io.call = async (method, path, body) => {
      if (path !== '/v1/practices/fhir-imports/patients') return { status: 200, body: { users: [] } };
      tried.push(String(((body as Json).bundle as Json).entry[0].resource.id));
      return deny({});
    };
    await expect(runImport({ exported: many, where: 'x', apiLabel: 'api', out: () => undefined, concurrency: 2 }, refused.io)).rejects.toMatchObject({
      kind: 'refused',
    });
    expect(tried).toEqual(['a', 'b']);
  });

  it('stops the whole run when the API refuses the admin', async () => {
    const { io } = fakeIo(() => ({ status: 403, body: { message: 'Forbidden' } }));
    await expect(runImport({ exported, where: 'x', apiLabel: 'api', out: () => undefined }, io)).rejects.toMatchObject({ kind: 'refused' });
  });
});

describe('the dry run against a practice', () => {
  it('counts what would come in, matches practitioners to users, names the calendar to make and the files at hand, with reads only', async () => {
    const appointment = {
      resourceType: 'Appointment',
      id: 'a1',
      status: 'booked',
      start: '2024-01-02T10:00:00Z',
      end: '2024-01-02T10:45:00Z',
      appointmentType: { text: 'Long visit' },
      participant: [{ actor: { reference: 'Patient/p1' } }],
    };
    const exported = parseExport([
      { name: 'Patient.ndjson', text: [patient('p1', 'Lee'), patient('p2', 'Moss')].map(line).join('\n') },
      { name: 'Practitioner.ndjson', text: [dr, other].map(line).join('\n') },
      { name: 'DocumentReference.ndjson', text: [note('n1', 'p1'), note('n2', 'p2')].map(line).join('\n') },
      { name: 'Appointment.ndjson', text: line(appointment) },
    ]);
    const calls: string[] = [];
    const preview = await previewImport(exported, {
      call: async (method, path) => {
        calls.push(`${method} ${path}`);
        if (path === '/v1/practices/users') return { status: 200, body: { users: [{ emailAddress: 'jo@demo.test' }] } };
        if (path === '/v1/appointment-types') return { status: 200, body: { appointmentTypes: [{ name: 'Check-up' }] } };
        return { status: 200, body: { bookingLocations: [] } };
      },
      hasFile: async (path) => path === 'files/p1/n1.txt',
    });
    expect(calls.every((c) => c.startsWith('GET '))).toBe(true);
    expect(preview).toMatchObject({
      patients: 2,
      resources: 7,
      counts: { Patient: 2, Practitioner: 2, DocumentReference: 2, Appointment: 1 },
      requests: 2,
      users: { matched: ['jo@demo.test'], unmatched: ['new@elsewhere.test'] },
      calendar: { types: ['Long visit'], locations: [] },
      files: [
        { path: 'files/p1/n1.txt', present: true },
        { path: 'files/p2/n2.txt', present: false },
      ],
    });
  });

  it('says to sign in as an admin when the practice refuses to list its users', async () => {
    const exported = parseExport([{ name: 'Patient.ndjson', text: line(patient('p1', 'Lee')) }]);
    await expect(previewImport(exported, { call: async () => ({ status: 403, body: {} }), hasFile: async () => false })).rejects.toMatchObject({
      kind: 'refused',
    });
  });
});
