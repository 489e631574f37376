import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../infra/local/runtime.js';
import type { FhirExportResult } from '../../shared/chart/fhir.js';
import { inlineZipFiles } from '../../shared/chart/fhir-zip.js';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { LAB_MESSAGES, type LabNoteData } from '../../shared/labs/lab-schema.js';
import { NOTE_MESSAGES } from '../../shared/notes/note-constants.js';
import { expectValidBundle } from '../support/fhir-checks.js';
import { eventually } from '../support/eventually.js';
import { api, patientAuditTrail, signIn, stackOutputs, tableClient } from '../support/local-stack.js';
import { callApi, restartableRuntime, signInAs } from '../support/restartable-runtime.js';

const run = Date.now().toString(36);
const RECURRENCE_URL = 'https://tidewell.app/fhir/StructureDefinition/appointment-recurrence';
const OCCURRENCE_URL = 'https://tidewell.app/fhir/StructureDefinition/appointment-occurrence';
// The stand-ins find the patient by the number that called or faxed: one patient alone has it.
const patientPhone = `+1503559${String(Date.now() % 10_000).padStart(4, '0')}`;
const NEW_PATIENT_FORM = '5f1a2b3c4d5e6f7081920a1b';
let provider: string;
let admin: string;
let employee: string;
let patientId: string;
let providerId: string;
/** The demo provider's weekly series for the patient (4 times: the 2nd cancelled alone, the 3rd moved two hours later) and a past telehealth visit. */
let seriesId: string;
let seriesDays: string[];
// A slot of this run's own, years ahead: the shared runtime's other tests book the same provider.
// A whole day of its own at 15:00 UTC (morning in the practice zone), so the occurrence moved two hours later stays on its day.
const seriesStart = new Date(Date.UTC(2031, 0, 1) + (parseInt(run, 36) % 20_000) * 86_400_000 + 15 * 3_600_000).toISOString();
const pastStart = new Date(Date.UTC(2022, 0, 1) + (parseInt(run, 36) % 20_000) * 3 * 3_600_000).toISOString();
type Res = { resourceType: string; [k: string]: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function ok(res: Promise<{ status: number; body: any }>, status = 201) {
  const r = await res;
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  return r.body;
}

/** A lab order Health Gorilla filled: two panels' results, as applyLabReport leaves the note. */
const RECEIVED_LAB: LabNoteData = {
  text: 'Annual labs',
  tests: ['24323-8', '4548-4'],
  orderedFrom: "Health Gorilla's local stand-in",
  labReferenceId: 'REQ-1001',
  actions: [{ display: 'Comprehensive metabolic panel (CMP)' }, { display: 'Hemoglobin A1c' }],
  hgId: 'hg-order-1',
  orderStatus: 'final',
  collectedAt: '2025-01-10T14:00:00.000Z',
  lastUpdated: '2025-01-11T09:00:00.000Z',
  paymentStatus: 'BILLED',
  results: [
    {
      id: 'rep-cmp/glu',
      text: 'Glucose',
      code: '2345-7',
      codeText: 'Glucose',
      interpretation: 'H',
      issued: '2025-01-11T09:00:00.000Z',
      ranges: [{ low: 70, high: 99 }],
      valueQuantity: { value: 131, unit: 'mg/dL' },
      performer: "Health Gorilla's local stand-in",
      reportId: 'rep-cmp',
      panel: 'Comprehensive metabolic panel (CMP)',
    },
    {
      id: 'rep-cmp/na',
      text: 'Sodium',
      code: '2951-2',
      codeText: 'Sodium',
      interpretation: 'N',
      issued: '2025-01-11T09:00:00.000Z',
      ranges: [{ low: 135, high: 145 }],
      valueQuantity: { value: 140, unit: 'mmol/L' },
      reportId: 'rep-cmp',
      panel: 'Comprehensive metabolic panel (CMP)',
    },
    {
      id: 'rep-a1c/a1c',
      text: 'Hemoglobin A1c',
      code: '4548-4',
      interpretation: 'H',
      issued: '2025-01-11T09:00:00.000Z',
      ranges: [{ low: 4, high: 5.6 }],
      valueQuantity: { value: 6.1, unit: '%' },
      reportId: 'rep-a1c',
      panel: 'Hemoglobin A1c',
    },
  ],
};

async function exportZip(token: string) {
  const res = await api(token, 'GET', `/v1/patients/${patientId}/fhir-export`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const result = res.body as FhirExportResult;
  const zip = new Uint8Array(await (await fetch(result.url)).arrayBuffer());
  const files = unzipSync(zip);
  return {
    result,
    files,
    bundle: JSON.parse(new TextDecoder().decode(files['bundle.json'])) as { resourceType: string; type: string; entry: { fullUrl: string; resource: Res }[] },
  };
}

beforeAll(async () => {
  [provider, admin, employee] = await Promise.all([
    signIn('provider@demo.tidewell.local'),
    signIn('admin@demo.tidewell.local'),
    signIn('employee@demo.tidewell.local'),
  ]);
  const p = await ok(
    api(provider, 'POST', '/v1/patients', {
      firstName: 'Fiona',
      lastName: `Fhir${run}`,
      gender: 'female',
      dob: '1981-03-04',
      primaryPhoneNumber: patientPhone,
      email: `fiona.${run}@example.com`,
    }),
  );
  patientId = p.id;
  const base = `/v1/patients/${patientId}`;
  await ok(api(provider, 'POST', `${base}/allergies`, { name: 'Penicillin', severity: 'severe', startDate: '2010-01-01' }));
  await ok(api(provider, 'POST', `${base}/diagnoses`, { name: 'Hypertension', date: '2020-01', pinned: false, icd10CodeId: 'I10' }));
  await ok(
    api(provider, 'POST', `${base}/medications`, {
      productName: 'Lisinopril',
      strength: '10',
      strengthUOM: 'mg',
      code: { type: 'NDC', value: '68180-0514-01' },
    }),
  );
  await ok(api(provider, 'POST', `${base}/vaccines`, { name: 'Influenza', cvxCode: '141', mvxCode: 'SKB', date: '2024-10-01', administrationRoute: 'IM' }));
  await ok(api(provider, 'POST', `${base}/surgeries`, { name: 'Appendectomy', date: '2001-05-05' }));
  await ok(api(provider, 'POST', `${base}/family-history`, { diagnosis: 'Diabetes', family: ['FTH'] }));
  await ok(api(provider, 'POST', `${base}/social-history`, { question: 'Tobacco use?', answer: 'Never' }));
  await ok(api(provider, 'POST', `${base}/general`, { name: 'Lives alone' }));
  const vitals = await ok(api(provider, 'POST', '/v2/notes', { noteId: 'new', noteType: 'VITALS', patientId }));
  await ok(
    api(provider, 'POST', `/v1/notes/${vitals.noteId}/sign`, {
      noteVersion: vitals.noteVersion,
      data: { systolic: 120, diastolic: 80, weight: 160, height: 66 },
    }),
    200,
  );
  await ok(
    api(provider, 'POST', '/v2/notes', {
      noteId: 'new',
      noteType: 'SMS_LOG',
      patientId,
      eventTimestamp: '2025-02-03T15:04:05.000Z',
      data: { text: `Running ten minutes late ${run}`, formattedText: `<p>Running ten minutes late ${run}</p>` },
    }),
  );
  const presign = await ok(
    api(provider, 'POST', '/v1/s3/files', { key: `patients/${patientId}/documents/scan-${run}.pdf`, contentType: 'application/pdf', size: 11 }),
    200,
  );
  await fetch(presign.signedUrl, { method: 'PUT', headers: { 'content-type': 'application/pdf', origin: stackOutputs().webUrl }, body: '%PDF-1.4 hi' });
  const doc = await ok(api(provider, 'POST', '/v2/notes', { noteId: 'new', noteType: 'NOTE', patientId }));
  await ok(
    api(provider, 'POST', `/v1/notes/${doc.noteId}/sign`, {
      noteVersion: doc.noteVersion,
      data: { text: 'Visit: blood pressure controlled.', formattedText: '<p>Visit: blood pressure controlled.</p>' },
      files: [{ key: presign.key, name: `scan-${run}.pdf`, contentType: 'application/pdf', size: 11 }],
    }),
    200,
  );
  providerId = (await ok(api(provider, 'GET', '/v1/practices/users/me'), 200)).userId;
  const booking = {
    patientId,
    providerId,
    appointmentTypeId: 'apt-demo-follow-up',
    bookingLocationId: 'loc-demo-main',
    visitType: 'in_person',
    start: seriesStart,
    durationMinutes: 30,
    notes: `Bring the glucose log ${run}`,
  };
  const series = await ok(api(provider, 'POST', '/v1/appointments', { ...booking, recurrence: { frequency: 'Weekly', interval: 1, end: 'COUNT', count: 4 } }));
  seriesId = series.appointmentId;
  const range = await ok(
    api(
      provider,
      'GET',
      `/v1/appointments?start=${encodeURIComponent(seriesStart)}&end=${encodeURIComponent(new Date(Date.parse(seriesStart) + 30 * 86_400_000).toISOString())}&providerId=${providerId}`,
    ),
    200,
  );
  seriesDays = (range.occurrences as Res[]).filter((o) => o.appointmentId === seriesId).map((o) => o.occurrenceDay);
  expect(seriesDays).toHaveLength(4);
  await ok(api(provider, 'DELETE', `/v1/appointments/${seriesId}?occurrence=${seriesDays[1]}`), 200);
  const third = (range.occurrences as Res[]).find((o) => o.appointmentId === seriesId && o.occurrenceDay === seriesDays[2])!;
  await ok(
    api(provider, 'PUT', `/v1/appointments/${seriesId}?occurrence=${seriesDays[2]}`, {
      ...booking,
      start: new Date(Date.parse(third.start) + 2 * 3_600_000).toISOString(),
    }),
    200,
  );
  await ok(
    api(provider, 'POST', '/v1/appointments', {
      patientId,
      providerId,
      appointmentTypeId: 'apt-demo-telehealth',
      visitType: 'virtual',
      bookingLocationId: null,
      start: pastStart,
      durationMinutes: 15,
    }),
  );
  // A call from the patient's number that left a voicemail, a fax from it, and a form the patient filled in.
  const webUrl = stackOutputs().webUrl;
  const post = (path: string, body: unknown, type = 'application/json') =>
    fetch(`${webUrl}${path}`, { method: 'POST', headers: { 'content-type': type }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  expect((await post('/local/telephony/inbound', { from: patientPhone })).status).toBe(200);
  expect((await post('/local/fax/inbound', { from: patientPhone })).status).toBe(200);
  const form = await ok(api(provider, 'POST', '/v2/practices/forms/send', { patientId, formId: NEW_PATIENT_FORM, sendMethod: 'Email' }), 200);
  const answers = {
    concern: `Knee pain ${run}`,
    medications: 'None',
    allergies: 'Penicillin',
    conditions: 'Hypertension',
    surgeries: 'Appendectomy',
    family: 'Diabetes (father)',
    tobacco: 'Former',
    alcohol: '2',
    exercise: '1-2 times a week',
    occupation: 'Teacher',
  };
  const filled = await fetch(`${stackOutputs().apiUrl.replace(/\/api$/, '')}/local/intakeq/fill/${form.data.intakeId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(answers).toString(),
  });
  expect(filled.status).toBe(200);
  const notes = async () =>
    ((await api(provider, 'GET', `/v1/notes?patientId=${patientId}`)).body.notes as Res[]).filter(
      (n) => ['PHONE_CALL', 'FAX', 'FORM'].includes(n.noteType) && n.status === 'DELIVERED',
    );
  await eventually('the call, fax and form notes delivered', notes, (list) => list.length >= 3);
  expect((await notes()).map((n) => n.noteType).sort()).toEqual(['FAX', 'FORM', 'PHONE_CALL']);
  const lab = await ok(api(provider, 'POST', '/v2/notes', { noteId: 'new', noteType: 'LAB', status: 'DRAFT', data: { text: 'Annual labs' }, patientId }));
  const { client, tableName } = tableClient();
  await client.send(
    new UpdateCommand({
      TableName: tableName,
      Key: { practiceId: 'prc_demo_tidewell', sk: `NOTE#${lab.noteId}` },
      UpdateExpression: 'SET #d = :d, #s = :s',
      ExpressionAttributeNames: { '#d': 'data', '#s': 'status' },
      ExpressionAttributeValues: { ':d': RECEIVED_LAB, ':s': 'DELIVERED' },
    }),
  );
});

describe('FHIR export of one chart', () => {
  it('a provider gets a zip holding a bundle that validates, with codes, references and the files', async () => {
    const { result, files, bundle } = await exportZip(provider);
    expectValidBundle(bundle as never);
    // The scanned PDF, the voicemail and the received fax.
    expect(result.files).toBe(3);
    expect(result.resources).toBe(bundle.entry.length);
    const types = new Set(bundle.entry.map((e) => e.resource.resourceType));
    for (const t of [
      'Patient',
      'AllergyIntolerance',
      'Condition',
      'MedicationStatement',
      'Immunization',
      'Procedure',
      'FamilyMemberHistory',
      'Observation',
      'DocumentReference',
    ])
      expect(types).toContain(t);
    const resources = bundle.entry.map((e) => e.resource);
    expect(resources.find((r) => r.resourceType === 'Condition' && r.code.text === 'Hypertension')!.code.coding[0]).toMatchObject({
      system: 'http://hl7.org/fhir/sid/icd-10-cm',
      code: 'I10',
    });
    expect(resources.find((r) => r.resourceType === 'Observation' && r.code.coding?.[0]?.code === '85354-9')).toBeTruthy();
    const file = resources.find((r) => r.resourceType === 'DocumentReference' && r.description === `scan-${run}.pdf`)!;
    const path = file.content[0].attachment.url as string;
    expect(new TextDecoder().decode(files[path])).toBe('%PDF-1.4 hi');
    // The series with its rule, the moved occurrence, the cancelled one and the past visit; the provider named in full, the location carried.
    const appointments = resources.filter((r) => r.resourceType === 'Appointment');
    expect(appointments.map((a) => a.status).sort()).toEqual(['booked', 'booked', 'booked', 'cancelled']);
    const series = appointments.find((a) => a.identifier[0].value === seriesId)!;
    expect(series).toMatchObject({
      start: seriesStart,
      appointmentType: { text: 'Follow-up visit' },
      description: 'Repeats weekly, 4 times.',
      comment: `Bring the glucose log ${run}`,
    });
    const byRef = new Map(bundle.entry.map((e) => [e.fullUrl, e.resource]));
    const [practitioner, location] = series.participant.slice(1).map((p: Res) => byRef.get(p.actor.reference)!);
    expect(practitioner).toMatchObject({
      resourceType: 'Practitioner',
      name: [{ text: 'Daniel Okafor' }],
      telecom: [{ system: 'email', value: 'provider@demo.tidewell.local' }],
    });
    expect(practitioner!.identifier).toContainEqual({ system: 'http://hl7.org/fhir/sid/us-npi', value: '1467582930' });
    expect(location).toMatchObject({ resourceType: 'Location', name: 'Main office', address: { text: '100 Congress Ave, Austin, TX 78701' } });
    const cancelled = appointments.find((a) => a.status === 'cancelled')!;
    expect(cancelled.extension[0].extension).toEqual([
      { url: 'series', valueReference: { reference: `urn:uuid:${series.id}` } },
      { url: 'day', valueDate: seriesDays[1] },
      { url: 'originalStart', valueDateTime: cancelled.start },
    ]);
  });

  it('carries the call with its voicemail, the fax with its PDF and the form response with its answers', async () => {
    const { files, bundle } = await exportZip(provider);
    const resources = bundle.entry.map((e) => e.resource);
    const communications = resources.filter((r) => r.resourceType === 'Communication');
    const call = communications.find((r) => r.medium[0].coding[0].code === 'PHONE')!;
    expect(call).toMatchObject({
      status: 'completed',
      category: [{ text: 'Call received: Voicemail' }],
      note: [{ text: `From phone ${patientPhone}` }, { text: 'To practice number +15415550180' }],
    });
    expect(call.extension).toContainEqual({
      url: 'https://tidewell.app/fhir/StructureDefinition/voicemail-duration',
      valueDuration: { value: 8, unit: 's', system: 'http://unitsofmeasure.org', code: 's' },
    });
    const voicemail = call.payload.find((p: Res) => p.contentAttachment).contentAttachment;
    expect(voicemail).toMatchObject({ contentType: 'audio/wav', title: 'voicemail.wav' });
    expect(new TextDecoder().decode(files[voicemail.url]!.slice(0, 4))).toBe('RIFF');
    const note = resources.find((r) => r.resourceType === 'DocumentReference' && r.type.text === 'PHONE_CALL')!;
    expect(call.about).toEqual([{ reference: `urn:uuid:${note.id}` }]);
    const fax = communications.find((r) => r.medium[0].coding[0].code === 'FAXWRIT')!;
    const pdf = fax.payload.find((p: Res) => p.contentAttachment).contentAttachment;
    expect(new TextDecoder().decode(files[pdf.url]!.slice(0, 5))).toBe('%PDF-');
    const form = resources.find((r) => r.resourceType === 'QuestionnaireResponse')!;
    expect(form.item).toContainEqual({ linkId: 'concern', text: expect.any(String), answer: [{ valueString: `Knee pain ${run}` }] });
  });

  it("an admin may export; an employee is refused; every export is in the patient's audit trail", async () => {
    const { result } = await exportZip(admin);
    expect((await api(employee, 'GET', `/v1/patients/${patientId}/fhir-export`)).status).toBe(403);
    const trail = await patientAuditTrail(patientId);
    expect(trail.filter((e) => e.entity === 'fhir_export').length).toBeGreaterThanOrEqual(2);
    expect(trail.some((e) => e.entity === 'fhir_export' && e.entityId === result.fileName)).toBe(true);
  });

  it('another patient id answers 404', async () => {
    expect((await api(provider, 'GET', `/v1/patients/nobody-${run}/fhir-export`)).status).toBe(404);
  });
});

/** What a chart says, without who wrote it down, when, or under which ids: what a round trip must keep. */
const IMPORTED_TYPES = new Set([
  'AllergyIntolerance',
  'Condition',
  'MedicationStatement',
  'Immunization',
  'Procedure',
  'FamilyMemberHistory',
  'Observation',
  'DocumentReference',
  'Communication',
  'QuestionnaireResponse',
  'DiagnosticReport',
  'ServiceRequest',
]);
// A file's place in the zip (url) is not content: its bytes are compared where it matters.
const NOT_CONTENT = new Set([
  'id',
  'identifier',
  'reference',
  'recordedDate',
  'dateAsserted',
  'recorded',
  'date',
  'creation',
  'issued',
  'author',
  'authenticator',
  'performer',
  'display',
  'url',
]);
function strip(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(strip);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v)
        .filter(([k]) => !NOT_CONTENT.has(k))
        .map(([k, x]) => [k, strip(x)]),
    );
  return v;
}
function clinicalContent(bundle: { entry: { resource: Res }[] }): string[] {
  return bundle.entry
    .map((e) => e.resource)
    .filter((r) => IMPORTED_TYPES.has(r.resourceType) && !(r.resourceType === 'DocumentReference' && r.content.some((c: Res) => c.attachment.url)))
    .map((r) => JSON.stringify(strip(r)))
    .sort();
}

/** Appointments and the locations they name, without ids or when they were booked: what moving them keeps. */
function appointmentContent(bundle: { entry: { resource: Res }[] }): string[] {
  const keep = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(keep);
    if (v && typeof v === 'object')
      return Object.fromEntries(
        Object.entries(v)
          .filter(([k]) => !['id', 'identifier', 'reference', 'created'].includes(k))
          .map(([k, x]) => [k, keep(x)]),
      );
    return v;
  };
  return bundle.entry
    .map((e) => e.resource)
    .filter((r) => r.resourceType === 'Appointment' || r.resourceType === 'Location')
    .map((r) => JSON.stringify(keep(r)))
    .sort();
}

describe('FHIR import into another chart', () => {
  let target: string;
  let bundle: { resourceType: string; entry: { fullUrl: string; resource: Res }[] };

  beforeAll(async () => {
    // As the import screen sends a zip: its files carried inside the bundle.
    const exported = await exportZip(provider);
    bundle = inlineZipFiles(exported.bundle, exported.files) as typeof bundle;
    const p = await ok(api(admin, 'POST', '/v1/patients', { firstName: 'Fiona', lastName: `Moved${run}`, gender: 'female', dob: '1981-03-04' }));
    target = p.id;
  });

  it('previews what will be added, imports it once, and a second import adds nothing', async () => {
    const preview = await ok(api(provider, 'POST', `/v1/patients/${target}/fhir-import-preview`, { bundle }), 200);
    expect(preview.sourcePatient).toBe(`Fiona Fhir${run}`);
    expect(preview.present).toBe(0);
    expect(preview.items.filter((i: Res) => i.action === 'add').map((i: Res) => i.summary)).toEqual(
      expect.arrayContaining(['Allergy: Penicillin', 'Surgery: Appendectomy', 'Social history: Tobacco use?: Never']),
    );
    expect(preview.items.find((i: Res) => i.resourceType === 'Patient').action).toBe('skip');
    // The same provider at the same times in this practice: the calendar's double-booking rule leaves them out, in its words.
    const appointments = preview.items.filter((i: Res) => i.resourceType === 'Appointment');
    expect(
      appointments.filter(
        (i: Res) => i.action === 'skip' && /^Daniel Okafor is already booked on \d\d\/\d\d\/\d{4} from .+\. Choose another time or provider\.$/.test(i.reason),
      ),
    ).toHaveLength(2);
    expect(appointments.filter((i: Res) => i.reason === 'Its series is left out')).toHaveLength(2);
    expect(preview.items.find((i: Res) => i.resourceType === 'Communication')).toEqual({
      resourceType: 'Communication',
      action: 'add',
      summary: `Text on 2025-02-03: Running ten minutes late ${run}`,
    });
    expect(preview.items.find((i: Res) => i.summary.startsWith('Text'))).toEqual({
      resourceType: 'Communication',
      action: 'add',
      summary: `Text on 2025-02-03: Running ten minutes late ${run}`,
    });
    const day = new Date().toISOString().slice(0, 10);
    expect(preview.items.filter((i: Res) => ['Communication', 'QuestionnaireResponse'].includes(i.resourceType) && !i.summary.startsWith('Text'))).toEqual([
      { resourceType: 'Communication', action: 'add', summary: `Fax received on ${day} (from ${patientPhone})` },
      { resourceType: 'Communication', action: 'add', summary: `Call on ${day}: Voicemail (from ${patientPhone})` },
      { resourceType: 'QuestionnaireResponse', action: 'add', summary: `Form: New Patient Intake on ${day}` },
    ]);
    // The notes those came from, and the recording and PDF on them, come in once: through the call, fax and form response.
    const through = preview.items
      .filter((i: Res) => /^Brought in through its (call|fax|form response)$/.test(i.reason ?? ''))
      .map((i: Res) => i.reason)
      .sort();
    expect(through).toEqual([
      'Brought in through its call',
      'Brought in through its call',
      'Brought in through its fax',
      'Brought in through its fax',
      'Brought in through its form response',
    ]);
    const texts = async () => (await api(provider, 'GET', `/v1/notes?patientId=${target}&noteType=SMS_LOG`)).body.notes as Res[];
    expect(await texts()).toEqual([]);
    // The lab note's two reports come in as its one note; their results, orders and the note's own document with them.
    const labItems = preview.items.filter(
      (i: Res) => ['DiagnosticReport', 'ServiceRequest'].includes(i.resourceType) || i.summary.startsWith('Lab result') || i.summary === 'Note: Lab report',
    );
    expect(labItems.filter((i: Res) => i.action === 'add')).toEqual([
      { resourceType: 'DiagnosticReport', action: 'add', summary: 'Lab report: Comprehensive metabolic panel (CMP) on 2025-01-10 (2 results)' },
      { resourceType: 'DiagnosticReport', action: 'add', summary: 'Lab report: Hemoglobin A1c on 2025-01-10 (1 result)' },
    ]);
    expect(labItems.filter((i: Res) => i.resourceType === 'ServiceRequest').map((i: Res) => i.reason)).toEqual([
      'Brought in with its lab report',
      'Brought in with its lab report',
    ]);
    expect(labItems.filter((i: Res) => i.resourceType === 'Observation').map((i: Res) => [i.summary, i.reason])).toEqual([
      ['Lab result: Glucose 131 mg/dL on 2025-01-10', 'Brought in with its lab report'],
      ['Lab result: Sodium 140 mmol/L on 2025-01-10', 'Brought in with its lab report'],
      ['Lab result: Hemoglobin A1c 6.1 % on 2025-01-10', 'Brought in with its lab report'],
    ]);
    expect(labItems.find((i: Res) => i.resourceType === 'DocumentReference')).toMatchObject({ action: 'skip', reason: 'Brought in through its lab report' });
    const labs = async () => (await api(provider, 'GET', `/v1/notes?patientId=${target}&noteType=LAB`)).body.notes as Res[];
    expect(await labs()).toEqual([]);
    // The preview changes nothing.
    expect((await api(provider, 'GET', `/v1/patients/${target}/allergies`)).body.items).toEqual([]);

    const first = await ok(api(provider, 'POST', `/v1/patients/${target}/fhir-import`, { bundle }), 200);
    expect(first.added).toBe(preview.add);
    const allergies = (await api(provider, 'GET', `/v1/patients/${target}/allergies`)).body.items;
    expect(allergies.map((a: Res) => [a.name, a.severity])).toEqual([['Penicillin', 'severe']]);
    // The text arrives as a logged text, signed so it cannot be edited into something the patient never wrote.
    const [logged] = await texts();
    expect(logged).toMatchObject({
      status: 'DELIVERED',
      signed: expect.any(String),
      eventTimestamp: '2025-02-03T15:04:05.000Z',
      data: { text: `Running ten minutes late ${run}` },
    });
    expect((await api(provider, 'POST', `/v1/notes/${logged.noteId}`, { noteVersion: logged.noteVersion, data: { text: 'Rewritten' } })).status).toBe(400);
    // The call, fax and form arrive as signed history: the recording and the PDF on their notes, the answers on the form.
    const history = async () =>
      ((await api(provider, 'GET', `/v1/notes?patientId=${target}`)).body.notes as Res[]).filter((n) => ['PHONE_CALL', 'FAX', 'FORM'].includes(n.noteType));
    const byType = Object.fromEntries((await history()).map((n) => [n.noteType, n]));
    expect(byType.PHONE_CALL).toMatchObject({
      status: 'SIGNED',
      signed: expect.any(String),
      data: { direction: 'INBOUND', from: patientPhone, to: '+15415550180', missed: false, voicemailSeconds: 8 },
      files: [{ name: 'voicemail.wav', contentType: 'audio/wav' }],
    });
    expect(byType.FAX).toMatchObject({
      status: 'DELIVERED',
      signed: expect.any(String),
      data: { direction: 'INBOUND', from: patientPhone },
      files: [{ contentType: 'application/pdf' }],
    });
    expect(byType.FORM).toMatchObject({ status: 'DELIVERED', signed: expect.any(String), data: { formName: 'New Patient Intake', imported: true } });
    expect(byType.FORM.data.submissionData.Questions).toContainEqual(expect.objectContaining({ Id: 'concern', Answer: `Knee pain ${run}` }));
    const pdf = await api(provider, 'GET', `/v1/s3/files?key=${encodeURIComponent(byType.FAX.files[0].key)}`);
    expect((await (await fetch(pdf.body.signedUrl)).text()).slice(0, 5)).toBe('%PDF-');
    expect(
      (await api(provider, 'POST', `/v1/notes/${byType.PHONE_CALL.noteId}`, { noteVersion: byType.PHONE_CALL.noteVersion, data: { text: 'Rewritten' } }))
        .status,
    ).toBe(400);
    // One signed LAB note, held as a received result is, marked imported: no vendor order to act on.
    const [lab] = await labs();
    expect(lab).toMatchObject({
      status: 'SIGNED',
      signed: expect.any(String),
      data: {
        source: 'import',
        text: 'Annual labs',
        tests: ['24323-8', '4548-4'],
        orderStatus: 'final',
        collectedAt: '2025-01-10T14:00:00.000Z',
        orderedFrom: "Health Gorilla's local stand-in",
      },
    });
    expect(lab.data.hgId).toBeUndefined();
    expect(lab.data.results.map((r: Res) => [r.panel, r.text, r.code, r.valueQuantity, r.interpretation, r.ranges, r.issued])).toEqual([
      ['Comprehensive metabolic panel (CMP)', 'Glucose', '2345-7', { value: 131, unit: 'mg/dL' }, 'H', [{ low: 70, high: 99 }], '2025-01-11T09:00:00.000Z'],
      ['Comprehensive metabolic panel (CMP)', 'Sodium', '2951-2', { value: 140, unit: 'mmol/L' }, 'N', [{ low: 135, high: 145 }], '2025-01-11T09:00:00.000Z'],
      ['Hemoglobin A1c', 'Hemoglobin A1c', '4548-4', { value: 6.1, unit: '%' }, 'H', [{ low: 4, high: 5.6 }], '2025-01-11T09:00:00.000Z'],
    ]);
    const order = await api(provider, 'POST', `/v1/notes/${lab.noteId}/lab-order`, { noteVersion: lab.noteVersion, tests: ['24323-8'] });
    expect(order.status).toBe(409);
    expect(JSON.stringify(order.body)).toContain(LAB_MESSAGES.imported);
    // Its results trend with the patient's other values.
    const trend = await ok(api(provider, 'GET', `/v2/notes/labs/link/${target}/2345-7`), 200);
    expect(trend.points.map((p: Res) => p.value)).toEqual([131]);

    const again = await ok(api(provider, 'POST', `/v1/patients/${target}/fhir-import-preview`, { bundle }), 200);
    expect([again.add, again.present]).toEqual([0, preview.add]);
    const second = await ok(api(provider, 'POST', `/v1/patients/${target}/fhir-import`, { bundle }), 200);
    expect(second.added).toBe(0);
    expect((await api(provider, 'GET', `/v1/patients/${target}/allergies`)).body.items).toHaveLength(1);
    expect(await texts()).toHaveLength(1);
    expect((await history()).map((n) => n.noteType).sort()).toEqual(['FAX', 'FORM', 'PHONE_CALL']);
    expect(await labs()).toHaveLength(1);

    const trail = await patientAuditTrail(target);
    expect(trail.filter((e) => e.entity === 'fhir_import').map((e) => e.count)).toEqual(expect.arrayContaining([preview.add, 0]));
  });

  it('a round trip (export, import, export) keeps the same clinical content', async () => {
    const again = (await exportZip(provider)).bundle;
    const moved = await api(provider, 'GET', `/v1/patients/${target}/fhir-export`);
    const zip = new Uint8Array(await (await fetch(moved.body.url)).arrayBuffer());
    const out = JSON.parse(new TextDecoder().decode(unzipSync(zip)['bundle.json']));
    expectValidBundle(out);
    expect(clinicalContent(out)).toEqual(clinicalContent(again));
  });

  it('an appointment whose provider or location this practice does not have is left out saying which', async () => {
    const stranger = {
      resourceType: 'Practitioner',
      id: 'dr-x',
      name: [{ family: 'Nobody', given: ['Nora'] }],
      identifier: [{ system: 'http://hl7.org/fhir/sid/us-npi', value: '1999999999' }],
    };
    const okafor = {
      resourceType: 'Practitioner',
      id: 'dr-o',
      name: [{ text: 'Someone else' }],
      telecom: [{ system: 'email', value: 'PROVIDER@demo.tidewell.local' }],
    };
    const moon = { resourceType: 'Location', id: 'moon', name: 'Moon base' };
    const visit = (id: string, actor: string, place?: string, extra: Record<string, unknown> = {}) => ({
      resourceType: 'Appointment',
      id,
      status: 'booked',
      start: '2032-02-03T15:00:00.000Z',
      end: '2032-02-03T15:30:00.000Z',
      appointmentType: { text: 'Follow-up visit' },
      participant: [{ actor: { reference: actor }, status: 'accepted' }, ...(place ? [{ actor: { reference: place }, status: 'accepted' }] : [])],
      ...extra,
    });
    // An hour after this run's past visit: a slot of its own.
    const laterThatDay = new Date(Date.parse(pastStart) + 3_600_000).toISOString();
    const handmade = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [stranger, okafor, moon]
        .map((r) => ({ fullUrl: `${r.resourceType}/${r.id}`, resource: r }))
        .concat([
          { fullUrl: 'Appointment/a1', resource: visit('a1', 'Practitioner/dr-x', 'Location/moon') as never },
          { fullUrl: 'Appointment/a2', resource: visit('a2', 'Practitioner/dr-o', 'Location/moon') as never },
          {
            fullUrl: 'Appointment/a3',
            resource: visit('a3', 'Practitioner/dr-o', undefined, {
              appointmentType: { text: 'Acupuncture' },
              serviceType: [{ text: 'Virtual visit' }],
              start: laterThatDay,
              end: undefined,
              minutesDuration: 20,
            }) as never,
          },
          { fullUrl: 'Appointment/a4', resource: visit('a4', 'Practitioner/dr-o', undefined, { status: 'noshow' }) as never },
        ]),
    };
    const preview = await ok(api(provider, 'POST', `/v1/patients/${target}/fhir-import-preview`, { bundle: handmade }), 200);
    const item = (summaryStart: string) =>
      preview.items.filter((i: Res) => i.resourceType === 'Appointment').find((i: Res) => i.summary.startsWith(summaryStart));
    expect(item('Appointment: Follow-up visit on 2032-02-03 with Nora Nobody')).toMatchObject({
      action: 'skip',
      reason: 'No user of this practice matches the provider Nora Nobody',
    });
    // Matched by email (whatever its case), but the location is not this practice's.
    expect(item('Appointment: Follow-up visit on 2032-02-03 with Someone else')).toMatchObject({
      action: 'skip',
      reason: 'No booking location of this practice is named Moon base',
    });
    expect(preview.items.find((i: Res) => i.reason?.startsWith('The patient did not come'))).toBeTruthy();
    // A type this practice lacks is booked as its first active one, and the preview says so; a past visit is history and comes in.
    const acupuncture = item('Appointment: Acupuncture');
    expect(acupuncture).toMatchObject({ action: 'add' });
    expect(acupuncture.summary).toMatch(/, booked as .+$/);
    const imported = await ok(api(provider, 'POST', `/v1/patients/${target}/fhir-import`, { bundle: handmade }), 200);
    expect(imported.added).toBe(1);
    const range = await ok(
      api(
        provider,
        'GET',
        `/v1/appointments?start=${encodeURIComponent(pastStart)}&end=${encodeURIComponent(new Date(Date.parse(pastStart) + 86_400_000).toISOString())}&providerId=${providerId}`,
      ),
      200,
    );
    expect((range.occurrences as Res[]).filter((o) => o.patientId === target)).toMatchObject([
      { visitType: 'virtual', start: laterThatDay, end: new Date(Date.parse(laterThatDay) + 20 * 60_000).toISOString() },
    ]);
    expect((await ok(api(provider, 'POST', `/v1/patients/${target}/fhir-import`, { bundle: handmade }), 200)).added).toBe(0);
  });

  it('a series whose moved day would clash here comes in without that day, and the day at its new time', async () => {
    // A Monday between May and September (no daylight-time change in the series), different each run.
    const monday = Date.UTC(2034, 4, 1) + (parseInt(run, 36) % 18) * 7 * 86_400_000;
    const at = (days: number) => new Date(monday + days * 86_400_000 + 17 * 3_600_000).toISOString();
    const movedDay = at(7).slice(0, 10);
    // This practice already has the provider busy at the series' second Monday, the day the source moved.
    const other = await ok(api(admin, 'POST', '/v1/patients', { firstName: 'Otto', lastName: `Busy${run}`, gender: 'male', dob: '1970-01-01' }));
    await ok(
      api(provider, 'POST', '/v1/appointments', {
        patientId: other.id,
        providerId,
        appointmentTypeId: 'apt-demo-telehealth',
        visitType: 'virtual',
        bookingLocationId: null,
        start: at(7),
        durationMinutes: 30,
      }),
    );
    const okafor = {
      resourceType: 'Practitioner',
      id: 'dr-o',
      name: [{ text: 'Daniel Okafor' }],
      telecom: [{ system: 'email', value: 'provider@demo.tidewell.local' }],
    };
    const visit = (id: string, start: string, extension: unknown[]) => ({
      resourceType: 'Appointment',
      id,
      status: 'booked',
      start,
      minutesDuration: 30,
      appointmentType: { text: 'Follow-up visit' },
      serviceType: [{ text: 'Virtual visit' }],
      participant: [{ actor: { reference: 'Practitioner/dr-o' }, status: 'accepted' }],
      extension,
    });
    const series = visit('s1', at(0), [
      {
        url: RECURRENCE_URL,
        extension: [
          { url: 'frequency', valueCode: 'Weekly' },
          { url: 'interval', valuePositiveInt: 1 },
          { url: 'end', valueCode: 'COUNT' },
          { url: 'count', valuePositiveInt: 3 },
        ],
      },
    ]);
    const moved = visit('o1', at(8), [
      {
        url: OCCURRENCE_URL,
        extension: [
          { url: 'series', valueReference: { reference: 'Appointment/s1' } },
          { url: 'day', valueDate: movedDay },
        ],
      },
    ]);
    const handmade = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [okafor, series, moved].map((r) => ({ fullUrl: `${r.resourceType}/${r.id}`, resource: r })),
    };
    const preview = await ok(api(provider, 'POST', `/v1/patients/${target}/fhir-import-preview`, { bundle: handmade }), 200);
    expect(preview.items.filter((i: Res) => i.resourceType === 'Appointment').map((i: Res) => i.action)).toEqual(['add', 'add']);
    expect((await ok(api(provider, 'POST', `/v1/patients/${target}/fhir-import`, { bundle: handmade }), 200)).added).toBe(2);
    const range = await ok(
      api(provider, 'GET', `/v1/appointments?start=${encodeURIComponent(at(-1))}&end=${encodeURIComponent(at(21))}&providerId=${providerId}`),
      200,
    );
    expect((range.occurrences as Res[]).filter((o) => o.patientId === target).map((o) => o.start)).toEqual([at(0), at(8), at(14)]);
    expect((await ok(api(provider, 'POST', `/v1/patients/${target}/fhir-import`, { bundle: handmade }), 200)).added).toBe(0);
  });

  it('refuses what is not a bundle with the words the screen shows, and an employee', async () => {
    const bad = await api(provider, 'POST', `/v1/patients/${target}/fhir-import-preview`, { bundle: { resourceType: 'Patient' } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('The file is not a FHIR Bundle');
    expect((await api(employee, 'POST', `/v1/patients/${target}/fhir-import`, { bundle })).status).toBe(403);
    // A resource Tidewell would refuse is listed as left out, with the chart's own words, and never added.
    const future = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [{ resource: { resourceType: 'Condition', code: { text: `Future ${run}` }, onsetDateTime: '2999-01-01', subject: { reference: 'Patient/x' } } }],
    };
    const preview = await ok(api(provider, 'POST', `/v1/patients/${target}/fhir-import-preview`, { bundle: future }), 200);
    expect(preview.items[0]).toMatchObject({ action: 'skip', summary: `Diagnosis: Future ${run}` });
    expect(preview.items[0].reason).toMatch(/future/i);
    expect((await ok(api(provider, 'POST', `/v1/patients/${target}/fhir-import`, { bundle: future }), 200)).added).toBe(0);
  });

  it("texts and calls from another system: the patient's own texts come in as received, a call as a call note, undelivered texts are left out saying why", async () => {
    const sms = { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ParticipationMode', code: 'SMSWRIT' }] };
    const other = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        { fullUrl: 'https://ehr.example/fhir/Patient/p1', resource: { resourceType: 'Patient', id: 'p1', name: [{ family: 'Elsewhere', given: ['Fiona'] }] } },
        {
          resource: {
            resourceType: 'Communication',
            identifier: [{ system: 'https://ehr.example/sms', value: `in-${run}` }],
            status: 'completed',
            medium: [sms],
            sent: '2025-03-01T10:00:00Z',
            sender: { reference: 'Patient/p1' },
            payload: [{ contentString: `Can I move my visit? ${run}` }],
          },
        },
        {
          resource: {
            resourceType: 'Communication',
            identifier: [{ system: 'https://ehr.example/sms', value: `failed-${run}` }],
            status: 'not-done',
            medium: [sms],
            sent: '2025-03-02T10:00:00Z',
            payload: [{ contentString: 'Never arrived' }],
          },
        },
        {
          resource: {
            resourceType: 'Communication',
            identifier: [{ system: 'https://ehr.example/call', value: `call-${run}` }],
            status: 'completed',
            medium: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ParticipationMode', code: 'PHONE' }] }],
            category: [{ text: 'Phone call' }],
            sent: '2025-03-03T10:00:00Z',
          },
        },
      ],
    };
    const preview = await ok(api(provider, 'POST', `/v1/patients/${target}/fhir-import-preview`, { bundle: other }), 200);
    expect(preview.items.slice(1)).toEqual([
      { resourceType: 'Communication', action: 'add', summary: `Text on 2025-03-01: Can I move my visit? ${run}` },
      { resourceType: 'Communication', action: 'skip', summary: 'Text on 2025-03-02: Never arrived', reason: 'The text was not delivered' },
      { resourceType: 'Communication', action: 'add', summary: 'Call on 2025-03-03: Answered' },
    ]);
    expect((await ok(api(provider, 'POST', `/v1/patients/${target}/fhir-import`, { bundle: other }), 200)).added).toBe(2);
    expect((await ok(api(provider, 'POST', `/v1/patients/${target}/fhir-import`, { bundle: other }), 200)).added).toBe(0);
    const notes = (await api(provider, 'GET', `/v1/notes?patientId=${target}&noteType=SMS_LOG`)).body.notes as Res[];
    expect(notes.filter((n) => n.data.text === `Can I move my visit? ${run}`).map((n) => n.data.direction)).toEqual(['inbound']);
    const calls = ((await api(provider, 'GET', `/v1/notes?patientId=${target}`)).body.notes as Res[]).filter(
      (n) => n.noteType === 'PHONE_CALL' && n.eventTimestamp === '2025-03-03T10:00:00.000Z',
    );
    expect(calls).toMatchObject([{ status: 'SIGNED', data: { text: 'Call to an unknown number: Answered', direction: 'OUTBOUND' }, files: [] }]);
  });

  it('prescriptions come in as medication list entries, once, unless the bundle lists the medication already or it was never sent', async () => {
    const rx = (name: string, status: string, extra: Record<string, unknown> = {}) => ({
      resourceType: 'MedicationRequest',
      identifier: [{ system: 'https://ehr.example/rx', value: `${name}-${run}` }],
      status,
      intent: 'order',
      medicationCodeableConcept: { text: name },
      subject: { reference: 'Patient/p1' },
      authoredOn: '2025-04-01',
      ...extra,
    });
    const other = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        {
          resource: rx(`Amoxicillin ${run}`, 'active', {
            requester: { display: 'Dr. Ada Lane' },
            dosageInstruction: [{ text: '500 mg three times a day', route: { text: 'oral' } }],
            dispenseRequest: { numberOfRepeatsAllowed: 1, quantity: { value: 30 }, expectedSupplyDuration: { value: 10, unit: 'days' } },
          }),
        },
        { resource: rx(`Draftamine ${run}`, 'draft') },
        { resource: rx(`Listed ${run}`, 'completed') },
        {
          resource: {
            resourceType: 'MedicationStatement',
            status: 'active',
            medicationCodeableConcept: { text: `Listed ${run}` },
            subject: { reference: 'Patient/p1' },
          },
        },
      ],
    };
    const preview = await ok(api(provider, 'POST', `/v1/patients/${target}/fhir-import-preview`, { bundle: other }), 200);
    expect(preview.items.slice(0, 3)).toEqual([
      { resourceType: 'MedicationRequest', action: 'add', summary: `Prescription: Amoxicillin ${run} on 2025-04-01` },
      {
        resourceType: 'MedicationRequest',
        action: 'skip',
        summary: `Prescription: Draftamine ${run} on 2025-04-01`,
        reason: 'A draft prescription was never sent',
      },
      {
        resourceType: 'MedicationRequest',
        action: 'skip',
        summary: `Prescription: Listed ${run} on 2025-04-01`,
        reason: 'Brought in through the medication list',
      },
    ]);
    expect((await ok(api(provider, 'POST', `/v1/patients/${target}/fhir-import`, { bundle: other }), 200)).added).toBe(2);
    expect((await ok(api(provider, 'POST', `/v1/patients/${target}/fhir-import`, { bundle: other }), 200)).added).toBe(0);
    const meds = (await api(provider, 'GET', `/v1/patients/${target}/medications`)).body.items as Res[];
    expect(
      meds
        .filter((m) => m.productName.endsWith(run))
        .map((m) => m.productName)
        .sort(),
    ).toEqual([`Amoxicillin ${run}`, `Listed ${run}`]);
    expect(meds.find((m) => m.productName === `Amoxicillin ${run}`)).toMatchObject({
      status: 'Active',
      start: '2025-04-01',
      sigText: '500 mg three times a day',
      routeOfAdministration: 'oral',
      refills: 1,
      quantity: 30,
      daysSupply: 10,
      description: 'Prescribed by Dr. Ada Lane',
    });
  });

  it('faxes, form responses and dispenses from another system: a fax note with its PDF, a form note with every answer, a dispense on the medication list unless its prescription comes too', async () => {
    const fax = { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ParticipationMode', code: 'FAXWRIT' }] };
    const dispense = (name: string, status: string, extra: Record<string, unknown> = {}) => ({
      resourceType: 'MedicationDispense',
      identifier: [{ system: 'https://ehr.example/dispense', value: `${name}-${run}` }],
      status,
      medicationCodeableConcept: { coding: [{ system: 'http://hl7.org/fhir/sid/ndc', code: '0904-5853-61' }], text: name },
      subject: { reference: 'Patient/p1' },
      quantity: { value: 30, unit: 'tablet' },
      whenHandedOver: '2025-06-01T15:00:00Z',
      ...extra,
    });
    const other = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        {
          resource: {
            resourceType: 'Communication',
            identifier: [{ system: 'https://ehr.example/fax', value: `fax-${run}` }],
            status: 'completed',
            medium: [fax],
            received: '2025-06-02T09:00:00Z',
            note: [{ text: 'From fax +15415557788' }],
            payload: [
              { contentString: `Referral letter ${run}` },
              { contentAttachment: { contentType: 'application/pdf', title: 'referral.pdf', data: Buffer.from('%PDF-1.4 referral fax').toString('base64') } },
            ],
          },
        },
        {
          resource: {
            resourceType: 'QuestionnaireResponse',
            identifier: { system: 'https://ehr.example/qr', value: `qr-${run}` },
            status: 'completed',
            questionnaire: 'https://ehr.example/Questionnaire/phq-2',
            authored: '2025-06-03T10:00:00Z',
            item: [
              {
                linkId: 'mood',
                text: 'Mood',
                item: [
                  { linkId: 'down', text: 'Feeling down?', answer: [{ valueCoding: { code: 'LA6568-5', display: 'Not at all' } }] },
                  { linkId: 'smoker', text: 'Smoker?', answer: [{ valueBoolean: false }] },
                ],
              },
            ],
          },
        },
        {
          resource: {
            resourceType: 'QuestionnaireResponse',
            identifier: { system: 'https://ehr.example/qr', value: `unfinished-${run}` },
            status: 'in-progress',
            authored: '2025-06-03T10:00:00Z',
            item: [{ linkId: 'a', answer: [{ valueString: 'x' }] }],
          },
        },
        {
          fullUrl: 'https://ehr.example/fhir/MedicationRequest/rx1',
          resource: {
            resourceType: 'MedicationRequest',
            id: 'rx1',
            status: 'cancelled',
            intent: 'order',
            medicationCodeableConcept: { text: `Prescribed ${run}` },
            subject: { reference: 'Patient/p1' },
          },
        },
        { resource: dispense(`Prescribed ${run}`, 'completed', { authorizingPrescription: [{ reference: 'MedicationRequest/rx1' }] }) },
        { resource: dispense(`Handed ${run}`, 'completed', { performer: [{ actor: { display: 'Pharmacist Pat' } }] }) },
        { resource: dispense(`Cancelled ${run}`, 'cancelled') },
      ],
    };
    const preview = await ok(api(provider, 'POST', `/v1/patients/${target}/fhir-import-preview`, { bundle: other }), 200);
    expect(preview.items.map(({ summary, action, reason }: Res) => [summary, action, reason])).toEqual([
      ['Fax received on 2025-06-02 (from +15415557788)', 'add', undefined],
      ['Form: phq-2 on 2025-06-03', 'add', undefined],
      ['Form: form on 2025-06-03', 'skip', 'The form was not finished'],
      [`Prescription: Prescribed ${run}`, 'skip', 'The prescription was cancelled'],
      [`Dispensed: Prescribed ${run} on 2025-06-01`, 'skip', 'Brought in through its prescription'],
      [`Dispensed: Handed ${run} on 2025-06-01`, 'add', undefined],
      [`Dispensed: Cancelled ${run} on 2025-06-01`, 'skip', 'The dispense was cancelled'],
    ]);
    expect((await ok(api(provider, 'POST', `/v1/patients/${target}/fhir-import`, { bundle: other }), 200)).added).toBe(3);
    expect((await ok(api(provider, 'POST', `/v1/patients/${target}/fhir-import`, { bundle: other }), 200)).added).toBe(0);

    const notes = (await api(provider, 'GET', `/v1/notes?patientId=${target}`)).body.notes as Res[];
    const faxes = notes.filter((n) => n.noteType === 'FAX' && n.data.text === `Referral letter ${run}`);
    expect(faxes).toMatchObject([
      {
        status: 'DELIVERED',
        signed: expect.any(String),
        eventTimestamp: '2025-06-02T09:00:00.000Z',
        data: { direction: 'INBOUND', from: '+15415557788' },
        files: [{ name: 'referral.pdf', contentType: 'application/pdf' }],
      },
    ]);
    const pdf = await api(provider, 'GET', `/v1/s3/files?key=${encodeURIComponent(faxes[0].files[0].key)}`);
    expect(await (await fetch(pdf.body.signedUrl)).text()).toBe('%PDF-1.4 referral fax');
    const forms = notes.filter((n) => n.noteType === 'FORM' && n.data.formName === 'phq-2');
    expect(forms).toHaveLength(1);
    expect(forms[0]).toMatchObject({
      status: 'DELIVERED',
      signed: expect.any(String),
      data: { imported: true, questionnaire: 'https://ehr.example/Questionnaire/phq-2', dateSubmitted: '2025-06-03T10:00:00.000Z' },
    });
    expect(forms[0].data.submissionData.Questions.map((q: Res) => [q.Id, q.Text, q.Answer])).toEqual([
      ['down', 'Feeling down?', 'Not at all'],
      ['smoker', 'Smoker?', 'No'],
    ]);

    const meds = ((await api(provider, 'GET', `/v1/patients/${target}/medications`)).body.items as Res[]).filter((m) =>
      [`Handed ${run}`, `Prescribed ${run}`, `Cancelled ${run}`].includes(m.productName),
    );
    expect(meds).toMatchObject([
      {
        productName: `Handed ${run}`,
        status: 'Complete',
        start: '2025-06-01',
        quantity: 30,
        description: 'Dispensed 30 tablet on 2025-06-01 by Pharmacist Pat',
        code: { type: 'NDC', value: '0904-5853-61' },
      },
    ]);
  });

  it('a file carried in the bundle becomes a document note holding it, once; a link to a file outside it, or a file type Tidewell refuses, is left out', async () => {
    const doc = (value: string, attachment: Record<string, unknown>) => ({
      resourceType: 'DocumentReference',
      identifier: [{ system: 'https://ehr.example/docs', value: `${value}-${run}` }],
      status: 'current',
      type: { text: 'Referral' },
      subject: { reference: 'Patient/p1' },
      date: '2025-05-06T09:00:00Z',
      content: [{ attachment }],
    });
    const other = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        {
          resource: doc('inline', { contentType: 'application/pdf', title: `referral-${run}.pdf`, data: Buffer.from('%PDF-1.4 referral').toString('base64') }),
        },
        { resource: doc('linked', { contentType: 'application/pdf', title: 'elsewhere.pdf', url: 'https://ehr.example/binary/1' }) },
        { resource: doc('refused', { contentType: 'application/octet-stream', title: 'setup.exe', data: Buffer.from('MZ').toString('base64') }) },
      ],
    };
    const preview = await ok(api(provider, 'POST', `/v1/patients/${target}/fhir-import-preview`, { bundle: other }), 200);
    expect(preview.items[0]).toEqual({ resourceType: 'DocumentReference', action: 'add', summary: `File: referral-${run}.pdf` });
    expect(preview.items[1]).toMatchObject({ action: 'skip', reason: 'The file itself is not in the bundle' });
    expect(preview.items[2]).toMatchObject({ action: 'skip', reason: NOTE_MESSAGES.unsupportedFile });
    expect((await ok(api(provider, 'POST', `/v1/patients/${target}/fhir-import`, { bundle: other }), 200)).added).toBe(1);
    expect((await ok(api(provider, 'POST', `/v1/patients/${target}/fhir-import`, { bundle: other }), 200)).added).toBe(0);
    const docs = ((await api(provider, 'GET', `/v1/notes?patientId=${target}&noteType=DOCUMENT`)).body.notes as Res[]).filter(
      (n) => n.files?.[0]?.name === `referral-${run}.pdf`,
    );
    expect(docs).toHaveLength(1);
    expect(docs[0]).toMatchObject({ status: 'SIGNED', eventTimestamp: '2025-05-06T09:00:00.000Z', files: [{ contentType: 'application/pdf', size: 17 }] });
    const file = await api(provider, 'GET', `/v1/s3/files?key=${encodeURIComponent(docs[0].files[0].key)}`);
    expect(file.status, JSON.stringify(file.body)).toBe(200);
    expect(await (await fetch(file.body.signedUrl)).text()).toBe('%PDF-1.4 referral');
  });

  it("another system's lab report becomes one signed LAB note with its results, conclusion and PDF, once; a result without a report joins its day's note", async () => {
    const loinc = (code: string, display: string) => ({ coding: [{ system: 'http://loinc.org', code, display }], text: display });
    const lab = [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'laboratory' }] }];
    const obs = (id: string, code: Record<string, unknown>, value: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
      fullUrl: `https://ehr.example/fhir/Observation/${id}-${run}`,
      resource: {
        resourceType: 'Observation',
        id: `${id}-${run}`,
        status: 'final',
        category: lab,
        code,
        subject: { reference: 'Patient/p1' },
        effectiveDateTime: '2025-06-02T08:30:00Z',
        issued: '2025-06-03T10:00:00Z',
        ...value,
        ...extra,
      },
    });
    const pdf = Buffer.from(`%PDF-1.4 bmp ${run}`).toString('base64');
    const other = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        {
          fullUrl: `https://ehr.example/fhir/ServiceRequest/sr-${run}`,
          resource: {
            resourceType: 'ServiceRequest',
            id: `sr-${run}`,
            status: 'completed',
            intent: 'order',
            code: loinc('51990-0', 'Basic metabolic panel'),
            subject: { reference: 'Patient/p1' },
            authoredOn: '2025-06-01T16:00:00Z',
          },
        },
        obs(
          'k',
          loinc('2823-3', 'Potassium'),
          { valueQuantity: { value: 5.6, unit: 'mmol/L', system: 'http://unitsofmeasure.org', code: 'mmol/L' } },
          { interpretation: [{ coding: [{ code: 'H' }] }], referenceRange: [{ low: { value: 3.5 }, high: { value: 5.1 } }] },
        ),
        obs('hemolysis', { text: 'Specimen hemolysis' }, { valueCodeableConcept: { text: 'Slight' } }),
        {
          fullUrl: `https://ehr.example/fhir/DiagnosticReport/dr-${run}`,
          resource: {
            resourceType: 'DiagnosticReport',
            id: `dr-${run}`,
            status: 'final',
            category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0074', code: 'LAB' }] }],
            code: loinc('51990-0', 'Basic metabolic panel'),
            subject: { reference: 'Patient/p1' },
            effectiveDateTime: '2025-06-02T08:30:00Z',
            issued: '2025-06-03T10:00:00Z',
            performer: [{ display: 'Coastal Reference Lab' }],
            basedOn: [{ reference: `ServiceRequest/sr-${run}` }],
            result: [{ reference: `Observation/k-${run}` }, { reference: `https://ehr.example/fhir/Observation/hemolysis-${run}` }],
            conclusion: 'Potassium high; slight hemolysis, repeat if symptomatic.',
            presentedForm: [{ contentType: 'application/pdf', title: `bmp-${run}.pdf`, data: pdf }],
          },
        },
        obs('chol', loinc('2093-3', 'Cholesterol, total'), { valueQuantity: { value: 182, unit: 'mg/dL' }, effectiveDateTime: '2025-06-09T08:00:00Z' }),
        {
          resource: {
            resourceType: 'ServiceRequest',
            status: 'active',
            intent: 'order',
            code: { text: 'Lipid panel' },
            subject: { reference: 'Patient/p1' },
            authoredOn: '2025-06-20',
          },
        },
        {
          resource: {
            resourceType: 'DiagnosticReport',
            status: 'final',
            category: [{ coding: [{ code: 'RAD' }] }],
            code: { text: 'Chest X-ray' },
            subject: { reference: 'Patient/p1' },
          },
        },
      ],
    };
    const preview = await ok(api(provider, 'POST', `/v1/patients/${target}/fhir-import-preview`, { bundle: other }), 200);
    expect(preview.items).toEqual([
      { resourceType: 'ServiceRequest', action: 'skip', summary: 'Lab order: Basic metabolic panel on 2025-06-01', reason: 'Brought in with its lab report' },
      { resourceType: 'Observation', action: 'skip', summary: 'Lab result: Potassium 5.6 mmol/L on 2025-06-02', reason: 'Brought in with its lab report' },
      { resourceType: 'Observation', action: 'skip', summary: 'Lab result: Specimen hemolysis Slight on 2025-06-02', reason: 'Brought in with its lab report' },
      { resourceType: 'DiagnosticReport', action: 'add', summary: 'Lab report: Basic metabolic panel on 2025-06-02 (2 results)' },
      { resourceType: 'Observation', action: 'add', summary: 'Lab result: Cholesterol, total 182 mg/dL on 2025-06-09' },
      {
        resourceType: 'ServiceRequest',
        action: 'skip',
        summary: 'Lab order: Lipid panel on 2025-06-20',
        reason: 'A lab order without its results is not imported',
      },
      { resourceType: 'DiagnosticReport', action: 'skip', summary: 'Report: Chest X-ray', reason: 'Only lab reports are imported' },
    ]);
    expect((await ok(api(provider, 'POST', `/v1/patients/${target}/fhir-import`, { bundle: other }), 200)).added).toBe(2);
    expect((await ok(api(provider, 'POST', `/v1/patients/${target}/fhir-import`, { bundle: other }), 200)).added).toBe(0);
    const labs = ((await api(provider, 'GET', `/v1/notes?patientId=${target}&noteType=LAB`)).body.notes as Res[]).filter(
      (n) => n.data.source === 'import' && n.eventTimestamp.startsWith('2025-06'),
    );
    const bmp = labs.find((n) => n.data.orderedFrom === 'Coastal Reference Lab')!;
    expect(bmp).toMatchObject({
      status: 'SIGNED',
      // Dated when its samples were taken, not when another system wrote its order.
      eventTimestamp: '2025-06-02T08:30:00.000Z',
      data: {
        tests: ['51990-0'],
        actions: [{ display: 'Basic metabolic panel' }],
        orderStatus: 'final',
        collectedAt: '2025-06-02T08:30:00.000Z',
        lastUpdated: '2025-06-03T10:00:00.000Z',
      },
      files: [{ name: `bmp-${run}.pdf`, contentType: 'application/pdf' }],
    });
    expect(Object.values(bmp.data.conclusions)).toEqual(['Potassium high; slight hemolysis, repeat if symptomatic.']);
    // The conclusion is what the chart's notes list shows of the note.
    expect(bmp.data.text).toBe('Potassium high; slight hemolysis, repeat if symptomatic.');
    expect(bmp.data.results.map((r: Res) => [r.text, r.valueQuantity ?? r.valueString, r.interpretation, r.ranges, r.performer])).toEqual([
      ['Potassium', { value: 5.6, unit: 'mmol/L' }, 'H', [{ low: 3.5, high: 5.1 }], 'Coastal Reference Lab'],
      ['Specimen hemolysis', 'Slight', undefined, undefined, 'Coastal Reference Lab'],
    ]);
    const file = await api(provider, 'GET', `/v1/s3/files?key=${encodeURIComponent(bmp.files[0].key)}`);
    expect(await (await fetch(file.body.signedUrl)).text()).toBe(`%PDF-1.4 bmp ${run}`);
    const loose = labs.find((n) => n.noteId !== bmp.noteId)!;
    expect(loose).toMatchObject({
      status: 'SIGNED',
      eventTimestamp: '2025-06-09T08:00:00.000Z',
      data: { actions: [{ display: 'Lab results' }], results: [{ text: 'Cholesterol, total', code: '2093-3', valueQuantity: { value: 182, unit: 'mg/dL' } }] },
    });
    expect(labs).toHaveLength(2);
    // Its export says the same again: the report with its conclusion, based on its order, with its results.
    const moved = await api(provider, 'GET', `/v1/patients/${target}/fhir-export`);
    const out = JSON.parse(new TextDecoder().decode(unzipSync(new Uint8Array(await (await fetch(moved.body.url)).arrayBuffer()))['bundle.json']));
    expectValidBundle(out);
    const report = (out.entry as { resource: Res }[]).map((e) => e.resource).find((r) => r.resourceType === 'DiagnosticReport' && r.conclusion)!;
    expect(report).toMatchObject({
      status: 'final',
      code: { coding: [{ code: '51990-0' }], text: 'Basic metabolic panel' },
      effectiveDateTime: '2025-06-02T08:30:00.000Z',
      performer: [{ display: 'Coastal Reference Lab' }],
    });
    expect(report.basedOn).toHaveLength(1);
    expect(report.result).toHaveLength(2);
  });
});

describe('FHIR round trip into a second practice', () => {
  // A runtime of this file's own: another practice id, table, bucket and user pool than the shared demo runtime.
  const second = restartableRuntime('tidewell-fhir-second-', {
    practiceId: 'prc_second_tidewell',
    slug: 'second-practice',
    practiceName: 'Second Practice Clinic',
  });
  let rt: LocalRuntime;
  let token: string;
  afterAll(() => second.dispose());
  beforeAll(async () => {
    rt = await second.start();
    token = await signInAs(rt, 'provider@demo.tidewell.local');
  });

  it('export, import into a patient of the other practice, export there: the same clinical content, and importing twice adds nothing', async () => {
    expect(rt.endpoints.practiceId).toBe('prc_second_tidewell');
    const exported0 = await exportZip(provider);
    // As the import screen sends a zip: its files carried inside the bundle.
    const source = inlineZipFiles(exported0.bundle, exported0.files) as typeof exported0.bundle;
    // The source chart is not in the second practice.
    expect((await callApi(rt, token, 'GET', `/v1/patients/${patientId}/fhir-export`)).status).toBe(404);
    const created = await callApi(rt, token, 'POST', '/v1/patients', { firstName: 'Fiona', lastName: `Elsewhere${run}`, gender: 'female', dob: '1981-03-04' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const target = created.body.id as string;
    // Nor is the new patient in the first.
    expect((await api(provider, 'GET', `/v1/patients/${target}/fhir-export`)).status).toBe(404);

    const preview = await callApi(rt, token, 'POST', `/v1/patients/${target}/fhir-import-preview`, { bundle: source });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.present).toBe(0);
    // The provider is this practice's own Daniel Okafor (found by NPI), the type and location its own by name.
    const appointmentItems = (preview.body.items as Res[]).filter((i) => i.resourceType === 'Appointment');
    expect(appointmentItems.map((i) => i.action)).toEqual(['add', 'add', 'add', 'add']);
    expect(appointmentItems.map((i) => i.summary)).toContain(
      `Appointment: Follow-up visit on ${seriesStart.slice(0, 10)} with Daniel Okafor (Repeats weekly, 4 times.)`,
    );
    expect(appointmentItems.filter((i) => i.summary.startsWith('Cancelled appointment: Follow-up visit'))).toHaveLength(1);
    const first = await callApi(rt, token, 'POST', `/v1/patients/${target}/fhir-import`, { bundle: source });
    expect(first.body.added).toBe(preview.body.add);
    expect((await callApi(rt, token, 'POST', `/v1/patients/${target}/fhir-import`, { bundle: source })).body.added).toBe(0);
    // In the calendar once: the series without its cancelled day, the moved occurrence on its own, the past visit too.
    const okaforThere = (await callApi(rt, token, 'GET', '/v1/practices/users/me')).body.userId as string;
    const calendar = await callApi(
      rt,
      token,
      'GET',
      `/v1/appointments?start=${encodeURIComponent(seriesStart)}&end=${encodeURIComponent(new Date(Date.parse(seriesStart) + 30 * 86_400_000).toISOString())}&providerId=${okaforThere}`,
    );
    const booked = (calendar.body.occurrences as Res[]).filter((o) => o.patientId === target);
    expect(booked.map((o) => [o.occurrenceDay, o.recurring, o.bookingLocationName, o.appointmentTypeName])).toEqual([
      [seriesDays[0], true, 'Main office', 'Follow-up visit'],
      [seriesDays[2], false, 'Main office', 'Follow-up visit'],
      [seriesDays[3], true, 'Main office', 'Follow-up visit'],
    ]);
    const past = await callApi(
      rt,
      token,
      'GET',
      `/v1/appointments?start=${encodeURIComponent(pastStart)}&end=${encodeURIComponent(new Date(Date.parse(pastStart) + 86_400_000).toISOString())}&providerId=${okaforThere}`,
    );
    expect((past.body.occurrences as Res[]).filter((o) => o.patientId === target).map((o) => [o.start, o.visitType, o.appointmentTypeName])).toEqual([
      [pastStart, 'virtual', 'Telehealth check-in'],
    ]);

    const exported = await callApi(rt, token, 'GET', `/v1/patients/${target}/fhir-export`);
    expect(exported.status, JSON.stringify(exported.body)).toBe(200);
    const out = JSON.parse(new TextDecoder().decode(unzipSync(new Uint8Array(await (await fetch(exported.body.url)).arrayBuffer()))['bundle.json']));
    expectValidBundle(out);
    expect(clinicalContent(out).length).toBeGreaterThan(5);
    expect(clinicalContent(out)).toEqual(clinicalContent(source));
    expect(appointmentContent(out)).toHaveLength(5);
    expect(appointmentContent(out)).toEqual(appointmentContent(source));
    // The file came across on the note it belonged to, byte for byte.
    const files = unzipSync(new Uint8Array(await (await fetch(exported.body.url)).arrayBuffer()));
    const fileDoc = (out.entry as { resource: Res }[])
      .map((e) => e.resource)
      .find((r) => r.resourceType === 'DocumentReference' && r.description === `scan-${run}.pdf`)!;
    expect(new TextDecoder().decode(files[fileDoc.content[0].attachment.url])).toBe('%PDF-1.4 hi');
    const host = (out.entry as { fullUrl: string; resource: Res }[]).find((e) => e.fullUrl === fileDoc.context.related[0].reference)!.resource;
    expect(Buffer.from(host.content[0].attachment.data, 'base64').toString()).toBe('Visit: blood pressure controlled.');
  });
});
