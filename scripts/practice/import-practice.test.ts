import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { calendarNamed, importPractice, INLINE_FILE_BYTES, partsOf, PART_BYTES, PART_RESOURCES } from './import-practice.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

const patient = { resourceType: 'Patient', id: 'p1', name: [{ family: 'Lee', given: ['Ada'] }] };
const location = { resourceType: 'Location', id: 'l1', name: 'Main office', address: { text: '100 Congress Ave, Austin, TX 78701' } };
const visit = (type: string, minutes: number, actors: Json[] = []) => ({
  resourceType: 'Appointment',
  id: `a-${type}`,
  status: 'booked',
  appointmentType: { text: type },
  start: '2026-12-14T15:00:00Z',
  minutesDuration: minutes,
  participant: [{ actor: { reference: 'Patient/p1' } }, ...actors.map((actor) => ({ actor }))],
});

describe('a practice import of appointments', () => {
  it('names the types (with their length) and booking locations the appointments book', () => {
    const named = calendarNamed([
      patient,
      location,
      visit('Follow-up visit', 30, [{ reference: 'Location/l1', display: 'Main office' }]),
      visit('Telehealth check-in', 15),
      visit('follow-up visit', 60),
    ]);
    expect([...named.types]).toEqual([
      ['Follow-up visit', 30],
      ['Telehealth check-in', 15],
    ]);
    expect([...named.locations]).toEqual([['Main office', '100 Congress Ave, Austin, TX 78701']]);
  });

  it('makes the types and locations the practice lacks before the patients, and carries a call recording named only by its payload', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tidewell-import-'));
    dirs.push(dir);
    const call = {
      resourceType: 'Communication',
      id: 'c1',
      status: 'completed',
      subject: { reference: 'Patient/p1' },
      medium: [{ coding: [{ code: 'PHONE' }] }],
      received: '2026-11-30T15:00:00Z',
      payload: [{ contentAttachment: { contentType: 'audio/wav', title: 'voicemail.wav', url: 'files/p1/0001-voicemail.wav' } }],
    };
    const resources = [patient, location, visit('Follow-up visit', 30, [{ reference: 'Location/l1' }]), visit('Telehealth check-in', 15), call];
    writeFileSync(join(dir, 'all.ndjson'), resources.map((r) => JSON.stringify(r)).join('\n'));
    mkdirSync(join(dir, 'files', 'p1'), { recursive: true });
    writeFileSync(join(dir, 'files', 'p1', '0001-voicemail.wav'), 'RIFF drill');
    const sent: { method: string; path: string; body?: Json }[] = [];
    const fetch = (async (url: string, init: RequestInit) => {
      const path = url.replace('http://api.test', '');
      const body = init.body ? (JSON.parse(String(init.body)) as Json) : undefined;
      sent.push({ method: String(init.method), path, body });
      const reply = (status: number, json: unknown) => new Response(JSON.stringify(json), { status });
      if (path === '/v1/practices/users') return reply(200, { users: [] });
      if (path === '/v1/appointment-types' && init.method === 'GET') return reply(200, { appointmentTypes: [{ ident: 't1', name: 'Telehealth check-in' }] });
      if (path === '/v1/booking-locations' && init.method === 'GET') return reply(200, { bookingLocations: [] });
      if (init.method === 'POST' && path !== '/v1/practices/fhir-imports/patients') return reply(201, {});
      return reply(200, { created: true, added: 4, present: 0, skipped: 0, leftOut: [] });
    }) as typeof globalThis.fetch;
    const summary = await importPractice({ dir, apiUrl: 'http://api.test', token: 't', fetch, out: () => undefined });
    expect(summary.calendar).toEqual({ types: ['Follow-up visit'], locations: ['Main office'] });
    const posts = sent.filter((s) => s.method === 'POST').map((s) => s.path);
    expect(posts).toEqual(['/v1/appointment-types', '/v1/booking-locations', '/v1/practices/fhir-imports/patients']);
    expect(sent.find((s) => s.path === '/v1/appointment-types' && s.method === 'POST')?.body).toEqual({ name: 'Follow-up visit', durationMinutes: 30 });
    expect(sent.find((s) => s.path === '/v1/booking-locations' && s.method === 'POST')?.body).toEqual({
      name: 'Main office',
      address: '100 Congress Ave, Austin, TX 78701',
    });
    const bundle = sent.at(-1)!.body!.bundle as Json;
    const sentCall = (bundle.entry as Json[]).find((e) => e.resource.resourceType === 'Communication')!.resource;
    expect(Buffer.from(sentCall.payload[0].contentAttachment.data, 'base64').toString()).toBe('RIFF drill');
    expect(summary.files).toBe(1);
  });

  it('sends a file too large for a request through the presigned upload and names its key in the bundle; a small one stays in the bundle', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tidewell-import-'));
    dirs.push(dir);
    const doc = (id: string, name: string) => ({
      resourceType: 'DocumentReference',
      id,
      status: 'current',
      subject: { reference: 'Patient/p1' },
      content: [{ attachment: { contentType: 'application/pdf', title: name, url: `files/p1/${name}` } }],
    });
    // A voicemail's payload names the same large file as its document: it goes up once.
    const call = {
      resourceType: 'Communication',
      id: 'c1',
      status: 'completed',
      subject: { reference: 'Patient/p1' },
      payload: [{ contentAttachment: { contentType: 'application/pdf', url: 'files/p1/0002-large.pdf' } }],
    };
    writeFileSync(join(dir, 'all.ndjson'), [patient, doc('d1', '0001-small.pdf'), doc('d2', '0002-large.pdf'), call].map((r) => JSON.stringify(r)).join('\n'));
    mkdirSync(join(dir, 'files', 'p1'), { recursive: true });
    const large = Buffer.alloc(INLINE_FILE_BYTES * 5 + 7, 0x41);
    writeFileSync(join(dir, 'files', 'p1', '0001-small.pdf'), '%PDF small');
    writeFileSync(join(dir, 'files', 'p1', '0002-large.pdf'), large);
    const sent: { method: string; url: string; body?: Json; bytes?: number; type?: string }[] = [];
    const fetch = (async (url: string, init: RequestInit) => {
      const reply = (status: number, json: unknown) => new Response(JSON.stringify(json), { status });
      if (url.startsWith('http://store.test/')) {
        sent.push({
          method: String(init.method),
          url,
          bytes: (init.body as Uint8Array).length,
          type: (init.headers as Record<string, string>)['content-type'],
        });
        return new Response(null, { status: 200 });
      }
      const path = url.replace('http://api.test', '');
      const body = init.body ? (JSON.parse(String(init.body)) as Json) : undefined;
      sent.push({ method: String(init.method), url: path, body });
      if (path === '/v1/practices/users') return reply(200, { users: [] });
      if (path === '/v1/s3/files')
        return reply(200, { signedUrl: 'http://store.test/put?sig=1', key: `protected/fhir-imports/u1/${String(body!.key).split('/').at(-1)}` });
      return reply(200, { created: true, added: 3, present: 0, skipped: 0, leftOut: [] });
    }) as typeof globalThis.fetch;
    const lines: string[] = [];
    const summary = await importPractice({ dir, apiUrl: 'http://api.test', token: 't', fetch, out: (l) => lines.push(l) });
    expect(summary.failed).toEqual([]);
    expect(sent.filter((s) => s.url === '/v1/s3/files').map((s) => s.body)).toEqual([
      { key: 'fhir-imports/0002-large.pdf', contentType: 'application/pdf', size: large.length },
    ]);
    expect(sent.filter((s) => s.url.startsWith('http://store.test/'))).toEqual([
      { method: 'PUT', url: 'http://store.test/put?sig=1', bytes: large.length, type: 'application/pdf' },
    ]);
    const post = sent.find((s) => s.url === '/v1/practices/fhir-imports/patients')!;
    const entry = (post.body!.bundle.entry as Json[]).map((e) => e.resource);
    const attachment = (id: string) => entry.find((r) => r.id === id)!.content[0].attachment;
    expect(Buffer.from(attachment('d1').data, 'base64').toString()).toBe('%PDF small');
    expect(attachment('d2').data).toBeUndefined();
    expect(attachment('d2').extension).toEqual([
      { url: 'https://tidewell.health/fhir/import/uploaded-file', valueString: 'protected/fhir-imports/u1/0002-large.pdf' },
    ]);
    // The call's payload finds the bytes by the document's url: neither carried nor uploaded twice.
    expect(entry.find((r) => r.id === 'c1')!.payload[0].contentAttachment.data).toBeUndefined();
    expect(JSON.stringify(post.body).length).toBeLessThan(INLINE_FILE_BYTES);
    expect(summary.files).toBe(2);
    expect(lines.join('\n')).toContain('1 large files uploaded apart');
  });
});

describe('a patient too large for one request', () => {
  const practitioner = { resourceType: 'Practitioner', id: 'dr1', name: [{ family: 'Hale', given: ['Jo'] }] };
  const other = { resourceType: 'Practitioner', id: 'dr2', name: [{ family: 'Unnamed', given: ['Not'] }] };
  const text = (i: number) => ({
    resourceType: 'Communication',
    id: `t${i}`,
    status: 'completed',
    medium: [{ coding: [{ code: 'SMSWRIT' }] }],
    subject: { reference: 'Patient/p1' },
    sender: { reference: 'Practitioner/dr1' },
    sent: '2025-01-01T10:00:00Z',
    payload: [{ contentString: `Text ${i} ${'x'.repeat(2000)}` }],
  });
  const vital = (i: number, id = `v${i}`) => ({
    resourceType: 'Observation',
    id,
    status: 'final',
    category: [{ coding: [{ code: 'vital-signs' }] }],
    code: { coding: [{ system: 'http://loinc.org', code: '8867-4' }] },
    subject: { reference: 'Patient/p1' },
    effectiveDateTime: `2020-01-${String((i % 28) + 1).padStart(2, '0')}T10:00:00-05:00`,
    valueQuantity: { value: 70 + i },
  });
  const entry = (r: Json) => ({ fullUrl: `${r.resourceType}/${r.id}`, resource: r });

  it('is cut under the byte and count bounds, the Patient first in every part and nothing sent twice but what later parts name', () => {
    const resources = [patient, practitioner, other, ...Array.from({ length: 2500 }, (_, i) => text(i)), ...Array.from({ length: 600 }, (_, i) => vital(i))];
    const parts = partsOf(resources.map(entry));
    expect(parts.length).toBeGreaterThan(2);
    for (const part of parts) {
      expect(Buffer.byteLength(JSON.stringify({ bundle: { resourceType: 'Bundle', type: 'collection', entry: part } }))).toBeLessThan(PART_BYTES);
      expect(part.length).toBeLessThanOrEqual(PART_RESOURCES);
      expect(part[0]!.resource.resourceType).toBe('Patient');
    }
    // The first part brings the patient and every practitioner in; later ones repeat only what they name, marked included.
    expect(parts[0]!.slice(0, 3).map((e) => [e.fullUrl, e.search])).toEqual([
      ['Patient/p1', undefined],
      ['Practitioner/dr1', undefined],
      ['Practitioner/dr2', undefined],
    ]);
    for (const part of parts.slice(1))
      expect(part.filter((e) => e.search).map((e) => e.fullUrl)).toEqual(
        part.some((e) => e.resource.resourceType === 'Communication') ? ['Patient/p1', 'Practitioner/dr1'] : ['Patient/p1'],
      );
    const own = parts.flatMap((p) => p.filter((e) => !e.search)).map((e) => e.fullUrl);
    expect(own).toHaveLength(resources.length);
    expect(new Set(own).size).toBe(resources.length);
  });

  it('is cut by bytes when its files, carried inline, outweigh a part before its count does', () => {
    const scan = (i: number) => ({
      resourceType: 'DocumentReference',
      id: `s${i}`,
      subject: { reference: 'Patient/p1' },
      content: [{ attachment: { contentType: 'application/pdf', url: `files/p1/s${i}.pdf`, data: Buffer.alloc(900 * 1024, i).toString('base64') } }],
    });
    const parts = partsOf([patient, ...Array.from({ length: 10 }, (_, i) => scan(i))].map(entry));
    expect(parts.map((p) => p.length)).toEqual([4, 4, 4, 2]);
    for (const part of parts)
      expect(Buffer.byteLength(JSON.stringify({ bundle: { resourceType: 'Bundle', type: 'collection', entry: part } }))).toBeLessThan(PART_BYTES);
  });

  it('keeps together what the import reads together: a day of vitals, a call and its note, a report and its results, a fax and its note', () => {
    const call = {
      resourceType: 'Communication',
      id: 'c1',
      medium: [{ coding: [{ code: 'PHONE' }] }],
      subject: { reference: 'Patient/p1' },
      about: [{ reference: 'DocumentReference/n1' }],
    };
    const callNote = { resourceType: 'DocumentReference', id: 'n1', subject: { reference: 'Patient/p1' }, type: { text: 'PHONE_CALL' } };
    const fax = {
      resourceType: 'Communication',
      id: 'f1',
      medium: [{ coding: [{ code: 'FAXWRIT' }] }],
      subject: { reference: 'Patient/p1' },
      identifier: [{ system: 'https://tidewell.app/fhir/identifier/prc1/fax', value: 'fx1' }],
    };
    const faxNote = {
      resourceType: 'DocumentReference',
      id: 'n2',
      subject: { reference: 'Patient/p1' },
      identifier: [{ system: 'https://tidewell.app/fhir/identifier/prc1/note', value: 'fx1' }],
    };
    const result = { ...vital(3, 'r1'), category: [{ coding: [{ code: 'laboratory' }] }], effectiveDateTime: '2019-05-05' };
    const report = { resourceType: 'DiagnosticReport', id: 'd1', subject: { reference: 'Patient/p1' }, result: [{ reference: 'Observation/r1' }] };
    const filler = Array.from({ length: 40 }, (_, i) => text(i));
    const morning = vital(1, 'am');
    const evening = { ...vital(1, 'pm'), effectiveDateTime: '2020-01-02T20:00:00-05:00' };
    const sameMoment = { ...vital(1, 'am2'), effectiveDateTime: '2020-01-02T15:00:00Z' };
    const resources = [
      patient,
      practitioner,
      report,
      ...filler.slice(0, 10),
      call,
      ...filler.slice(10, 20),
      morning,
      faxNote,
      ...filler.slice(20, 30),
      callNote,
      sameMoment,
      fax,
      ...filler.slice(30),
      result,
      evening,
    ];
    const parts = partsOf(resources.map(entry), { resources: 8 });
    const partOf = (id: string) => parts.findIndex((p) => p.some((e) => !e.search && e.resource.id === id));
    expect(parts.length).toBeGreaterThan(5);
    expect(partOf('c1')).toBe(partOf('n1'));
    expect(partOf('f1')).toBe(partOf('n2'));
    expect(partOf('d1')).toBe(partOf('r1'));
    expect(partOf('am')).toBe(partOf('am2'));
    // Referenced before what references it: the result before its report.
    const withReport = parts[partOf('d1')]!.map((e) => e.resource.id);
    expect(withReport.indexOf('r1')).toBeLessThan(withReport.indexOf('d1'));
  });
});
