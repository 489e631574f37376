import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalRuntime, type LocalRuntime } from '../../infra/local/runtime.js';
import { importPractice, partsOf, PART_BYTES, PART_RESOURCES } from '../../scripts/practice/import-practice.js';
import { callApi, signInAs } from '../support/restartable-runtime.js';

/*
 * A patient of ten years: more texts and vital signs than one request carries (over PART_RESOURCES
 * resources and PART_BYTES of JSON), restored into an empty practice in parts. One part fails after
 * the server wrote half of it (as a gateway timeout would leave it); the rerun completes the chart
 * and every resource is there once.
 */
const TEXTS = 2_400;
const VITALS = 400;
const run = Date.now().toString(36);
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let target: LocalRuntime;
let admin: string;
let dir: string;
const dirs: string[] = [];
const folder = (prefix: string) => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
};

function exportOfOnePatient(): Json[] {
  const patient = {
    resourceType: 'Patient',
    id: 'p-long',
    identifier: [{ system: 'https://other.example/mrn', value: `MRN-${run}` }],
    name: [{ use: 'official', family: `Longtime${run}`, given: ['Tess'] }],
    gender: 'female',
    birthDate: '1950-02-03',
    telecom: [{ system: 'phone', value: '+15035550199' }],
  };
  const practitioner = {
    resourceType: 'Practitioner',
    id: 'dr-hale',
    name: [{ family: 'Hale', given: ['Jo'] }],
    telecom: [{ system: 'email', value: 'provider@demo.tidewell.local' }],
  };
  const day = (i: number) => new Date(Date.UTC(2015, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
  const texts = Array.from({ length: TEXTS }, (_, i) => {
    const fromPatient = i % 2 === 1;
    return {
      resourceType: 'Communication',
      id: `sms-${i}`,
      status: 'completed',
      medium: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ParticipationMode', code: 'SMSWRIT' }] }],
      subject: { reference: 'Patient/p-long' },
      sender: { reference: fromPatient ? 'Patient/p-long' : 'Practitioner/dr-hale' },
      recipient: [{ reference: fromPatient ? 'Practitioner/dr-hale' : 'Patient/p-long' }],
      [fromPatient ? 'received' : 'sent']: `${day(i % 3_000)}T15:${String(i % 60).padStart(2, '0')}:00Z`,
      // A long text (a pasted care plan): the texts alone are more bytes than a part.
      payload: [{ contentString: `Message ${i} of ${run}: ${'Take the morning dose with food and call if dizzy. '.repeat(40)}` }],
    };
  });
  const vitals = Array.from({ length: VITALS }, (_, i) => ({
    resourceType: 'Observation',
    id: `hr-${i}`,
    status: 'final',
    category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'vital-signs' }] }],
    code: { coding: [{ system: 'http://loinc.org', code: '8867-4', display: 'Heart rate' }] },
    subject: { reference: 'Patient/p-long' },
    effectiveDateTime: `${day(i * 7)}T10:00:00Z`,
    valueQuantity: { value: 60 + (i % 40), unit: '/min', system: 'http://unitsofmeasure.org', code: '/min' },
  }));
  return [patient, practitioner, ...texts, ...vitals];
}

beforeAll(async () => {
  dir = folder('tidewell-long-export-');
  writeFileSync(
    join(dir, 'all.ndjson'),
    exportOfOnePatient()
      .map((r) => JSON.stringify(r))
      .join('\n'),
  );
  target = await startLocalRuntime({
    dataDir: folder('tidewell-long-restore-'),
    port: 0,
    serveWeb: false,
    seed: true,
    empty: true,
    practiceIdentity: { practiceId: 'prc_parts_tidewell', slug: 'parts', practiceName: 'Parts Practice' },
  });
  admin = await signInAs(target, 'admin@demo.tidewell.local');
}, 300_000);

afterAll(async () => {
  await target?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('a patient larger than one request', () => {
  it('comes in parts; a part that fails half-written is completed by the rerun, every text and vital sign once; a further run adds nothing', async () => {
    const resources = exportOfOnePatient();
    const entry = resources.map((r) => ({ fullUrl: `${r.resourceType}/${r.id}`, resource: r }));
    const whole = Buffer.byteLength(JSON.stringify({ bundle: { resourceType: 'Bundle', type: 'collection', entry } }));
    const parts = partsOf(entry);
    expect(whole).toBeGreaterThan(PART_BYTES);
    expect(entry.length).toBeGreaterThan(PART_RESOURCES);
    expect(parts.length).toBeGreaterThanOrEqual(3);
    const sizes = parts.map((p) => Buffer.byteLength(JSON.stringify({ bundle: { resourceType: 'Bundle', type: 'collection', entry: p } })));

    // The second part reaches the server only half, and the CLI sees a gateway error: as a timeout mid-write would leave it.
    let posts = 0;
    const halfWritten: typeof fetch = async (url, init) => {
      if (String(url).endsWith('/v1/practices/fhir-imports/patients') && ++posts === 2) {
        const body = JSON.parse(String(init!.body)) as Json;
        const half = { ...body, bundle: { ...body.bundle, entry: body.bundle.entry.slice(0, Math.ceil(body.bundle.entry.length / 2)) } };
        const res = await fetch(url, { ...init, body: JSON.stringify(half) });
        expect(res.status).toBe(200);
        return new Response(JSON.stringify({ message: 'Endpoint request timed out' }), { status: 504 });
      }
      return fetch(url, init);
    };
    const lines: string[] = [];
    let started = Date.now();
    const broken = await importPractice({ dir, apiUrl: target.outputs.apiUrl, token: admin, fetch: halfWritten, out: (l) => lines.push(l) });
    const brokenSeconds = (Date.now() - started) / 1000;
    expect(broken.failed).toEqual([{ patient: `Tess Longtime${run} (Patient/p-long)`, error: `part 2 of ${parts.length}: Endpoint request timed out` }]);
    expect(broken.created).toBe(1);
    expect(lines.join('\n')).toContain('a rerun brings in the rest');

    started = Date.now();
    const rerunLines: string[] = [];
    const rerun = await importPractice({ dir, apiUrl: target.outputs.apiUrl, token: admin, out: (l) => rerunLines.push(l) });
    const rerunSeconds = (Date.now() - started) / 1000;
    expect(rerun.failed, rerunLines.join('\n')).toEqual([]);
    expect(rerun.created).toBe(0);
    expect(rerunLines.join('\n')).toContain(`sent in ${parts.length} parts`);
    // The rerun finds what the first part and the half-written second brought in, and adds only the rest:
    // every text, vital sign and the Patient's demographics (its MRN) once, the Patient counted once though every part repeats it.
    expect(rerun.added + rerun.present).toBe(TEXTS + VITALS + 1);
    expect(rerun.present).toBeGreaterThan(broken.added);

    const patients = await callApi(target, admin, 'GET', '/v1/patients?limit=10&offset=0');
    expect(patients.body.total).toBe(1);
    const patientId = String(patients.body.items[0].id ?? patients.body.items[0].patientId);
    const total = async (noteType: string) => {
      const res = await callApi(target, admin, 'GET', `/v1/notes?patientId=${patientId}&noteType=${noteType}&excludeFormattedText=true`);
      expect(res.status).toBe(200);
      return (res.body.notes as { status: string }[]).filter((n) => n.status === 'SIGNED' || n.status === 'DELIVERED').length;
    };
    expect(await total('SMS_LOG')).toBe(TEXTS);
    expect(await total('VITALS')).toBe(VITALS);

    // A further run of every patient adds nothing.
    const again = await importPractice({ dir, apiUrl: target.outputs.apiUrl, token: admin, again: true, out: () => undefined });
    expect(again).toMatchObject({ failed: [], created: 0, added: 0, present: TEXTS + VITALS + 1 });
    expect(await total('SMS_LOG')).toBe(TEXTS);
    expect(await total('VITALS')).toBe(VITALS);
    console.log(
      `One patient of ${entry.length} resources (${whole} bytes of JSON) in ${parts.length} parts of ${parts.map((p) => p.length).join(', ')} entries, ${sizes.join(', ')} bytes; broken run ${brokenSeconds.toFixed(1)} s, rerun ${rerunSeconds.toFixed(1)} s`,
    );
  }, 600_000);
});
