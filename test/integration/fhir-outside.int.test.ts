import { beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, patientNotes, sectionItems } from '../support/chart-reads.js';
import { api, signIn } from '../support/local-stack.js';

/*
 * What outside systems write that a clinician must never meet wrongly in the chart: statuses that
 * say "not so" or "not done", resources about another patient of the bundle, every reaction of an
 * allergy, vitals coded or dated as other systems do, smoking status filed as a survey, identical
 * prescriptions, a lab report older than its order, a condition's onset day, who wrote a note, and a
 * file whose title is longer than any file store keeps as a name.
 */

type Res = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const run = Date.now().toString(36);
let provider: string;
let patientId: string;

const ok = expectStatus;
const items = (section: string) => sectionItems(provider, patientId, section);
const notes = (noteType: string) => patientNotes(provider, patientId, noteType);

const SNOMED = 'http://snomed.info/sct';
const LOINC = 'http://loinc.org';
const me = { reference: 'urn:uuid:p-1' };
const cc = (system: string, code: string, display: string) => ({ coding: [{ system, code, display }], text: display });
const status = (system: string, code: string) => ({ coding: [{ system, code }] });
const ALLERGY_VER = 'http://terminology.hl7.org/CodeSystem/allergyintolerance-verification';
const COND_VER = 'http://terminology.hl7.org/CodeSystem/condition-ver-status';
const COND_CLIN = 'http://terminology.hl7.org/CodeSystem/condition-clinical';
const vitalCat = [cc('http://terminology.hl7.org/CodeSystem/observation-category', 'vital-signs', 'Vital Signs')];
const longTitle = `${'Discharge summary from the regional hospital with every consultant named '.repeat(5)}final.pdf`;
const prescription = {
  resourceType: 'MedicationRequest',
  status: 'active',
  intent: 'order',
  medicationCodeableConcept: cc('http://www.nlm.nih.gov/research/umls/rxnorm', '314076', 'lisinopril 10 MG Oral Tablet'),
  subject: me,
  authoredOn: '2024-02-12T10:00:00Z',
  dosageInstruction: [{ text: '1 tablet daily' }],
};

const entries: { fullUrl: string; resource: Res }[] = [
  {
    fullUrl: 'urn:uuid:p-1',
    resource: { resourceType: 'Patient', id: 'p-1', name: [{ given: ['Ines'], family: 'Okafor' }], gender: 'female', birthDate: '1971-05-02' },
  },
  {
    fullUrl: 'urn:uuid:p-2',
    resource: { resourceType: 'Patient', id: 'p-2', name: [{ given: ['Bo'], family: 'Other' }], gender: 'male', birthDate: '1969-01-01' },
  },
  { fullUrl: 'urn:uuid:dr-1', resource: { resourceType: 'Practitioner', id: 'dr-1', name: [{ prefix: ['Dr.'], given: ['Ana'], family: 'Reyes' }] } },
  {
    fullUrl: 'urn:uuid:a-1',
    resource: {
      resourceType: 'AllergyIntolerance',
      patient: me,
      verificationStatus: status(ALLERGY_VER, 'refuted'),
      code: cc(SNOMED, '111088007', 'Latex (substance)'),
    },
  },
  {
    fullUrl: 'urn:uuid:a-2',
    resource: {
      resourceType: 'AllergyIntolerance',
      patient: me,
      verificationStatus: status(ALLERGY_VER, 'entered-in-error'),
      code: cc(SNOMED, '387406002', 'Sulfonamide (substance)'),
    },
  },
  {
    fullUrl: 'urn:uuid:a-3',
    resource: {
      resourceType: 'AllergyIntolerance',
      patient: me,
      recorder: { reference: 'urn:uuid:dr-1' },
      code: cc(SNOMED, '227493005', 'Cashew nuts (substance)'),
      reaction: [
        { manifestation: [cc(SNOMED, '247472004', 'Hives')], severity: 'mild' },
        { manifestation: [cc(SNOMED, '39579001', 'Anaphylaxis')], severity: 'severe' },
      ],
    },
  },
  {
    fullUrl: 'urn:uuid:c-1',
    resource: {
      resourceType: 'Condition',
      subject: me,
      verificationStatus: status(COND_VER, 'refuted'),
      code: cc(SNOMED, '44054006', 'Diabetes mellitus type 2 (disorder)'),
      onsetDateTime: '2020-01-01',
    },
  },
  {
    fullUrl: 'urn:uuid:c-2',
    resource: {
      resourceType: 'Condition',
      subject: me,
      verificationStatus: status(COND_VER, 'entered-in-error'),
      code: cc(SNOMED, '38341003', 'Hypertension (disorder)'),
    },
  },
  {
    fullUrl: 'urn:uuid:c-3',
    resource: {
      resourceType: 'Condition',
      subject: me,
      clinicalStatus: status(COND_CLIN, 'resolved'),
      verificationStatus: status(COND_VER, 'confirmed'),
      code: cc(SNOMED, '444814009', 'Viral sinusitis (disorder)'),
      onsetDateTime: '2019-03-05T10:00:00Z',
      abatementDateTime: '2019-03-19',
      asserter: { display: 'Dr. Ana Reyes' },
    },
  },
  {
    fullUrl: 'urn:uuid:i-1',
    resource: {
      resourceType: 'Immunization',
      status: 'not-done',
      statusReason: cc('http://terminology.hl7.org/CodeSystem/v3-ActReason', 'PATOBJ', 'patient objection'),
      patient: me,
      vaccineCode: cc('http://hl7.org/fhir/sid/cvx', '140', 'Influenza, seasonal, injectable, preservative free'),
      occurrenceDateTime: '2023-10-01',
    },
  },
  {
    fullUrl: 'urn:uuid:pr-1',
    resource: {
      resourceType: 'Procedure',
      status: 'not-done',
      subject: me,
      code: cc(SNOMED, '73761001', 'Colonoscopy (procedure)'),
      performedDateTime: '2022-05-01',
    },
  },
  {
    fullUrl: 'urn:uuid:v-1',
    resource: {
      resourceType: 'Observation',
      status: 'entered-in-error',
      category: vitalCat,
      code: cc(LOINC, '8480-6', 'Systolic blood pressure'),
      subject: me,
      effectiveDateTime: '2023-06-01',
      valueQuantity: { value: 210, unit: 'mmHg', code: 'mm[Hg]' },
    },
  },
  {
    fullUrl: 'urn:uuid:v-2',
    resource: {
      resourceType: 'Observation',
      status: 'final',
      category: vitalCat,
      code: cc(LOINC, '55284-4', 'Blood pressure systolic and diastolic'),
      subject: me,
      effectiveDateTime: '2023-06-01',
      component: [
        { code: cc(LOINC, '8480-6', 'Systolic blood pressure'), valueQuantity: { value: 128, unit: 'mmHg', code: 'mm[Hg]' } },
        { code: cc(LOINC, '8462-4', 'Diastolic blood pressure'), valueQuantity: { value: 82, unit: 'mmHg', code: 'mm[Hg]' } },
      ],
    },
  },
  {
    fullUrl: 'urn:uuid:v-3',
    resource: {
      resourceType: 'Observation',
      status: 'final',
      category: vitalCat,
      code: cc(LOINC, '8331-1', 'Oral temperature'),
      subject: me,
      effectiveDateTime: '2023-06-01',
      valueQuantity: { value: 37, unit: 'Cel', code: 'Cel' },
    },
  },
  {
    fullUrl: 'urn:uuid:v-4',
    resource: {
      resourceType: 'Observation',
      status: 'final',
      category: vitalCat,
      code: cc(LOINC, '8867-4', 'Heart rate'),
      subject: { reference: 'urn:uuid:p-2' },
      effectiveDateTime: '2023-06-01',
      valueQuantity: { value: 61, unit: '/min', code: '/min' },
    },
  },
  {
    fullUrl: 'urn:uuid:s-1',
    resource: {
      resourceType: 'Observation',
      status: 'final',
      category: [cc('http://terminology.hl7.org/CodeSystem/observation-category', 'survey', 'Survey')],
      code: cc(LOINC, '72166-2', 'Tobacco smoking status'),
      subject: me,
      effectiveDateTime: '2023-06-01T09:00:00Z',
      valueCodeableConcept: cc(SNOMED, '266919005', 'Never smoked tobacco (finding)'),
    },
  },
  {
    fullUrl: 'urn:uuid:s-2',
    resource: {
      resourceType: 'Observation',
      status: 'final',
      category: [cc('http://terminology.hl7.org/CodeSystem/observation-category', 'social-history', 'Social History')],
      code: cc(LOINC, '8664-5', 'Cigarettes smoked current (pack per day) - Reported'),
      subject: me,
      effectiveDateTime: '2023-06-01T09:00:00Z',
      valueQuantity: { value: 0, unit: '{packs}/d' },
    },
  },
  { fullUrl: 'urn:uuid:m-1', resource: { ...prescription, id: 'm-1' } },
  { fullUrl: 'urn:uuid:m-2', resource: { ...prescription, id: 'm-2' } },
  {
    fullUrl: 'urn:uuid:sr-1',
    resource: {
      resourceType: 'ServiceRequest',
      status: 'completed',
      intent: 'order',
      subject: me,
      code: cc(LOINC, '2345-7', 'Glucose [Mass/volume] in Serum or Plasma'),
      authoredOn: '2024-01-10T08:00:00Z',
    },
  },
  {
    fullUrl: 'urn:uuid:o-1',
    resource: {
      resourceType: 'Observation',
      status: 'final',
      category: [cc('http://terminology.hl7.org/CodeSystem/observation-category', 'laboratory', 'Laboratory')],
      code: cc(LOINC, '2345-7', 'Glucose [Mass/volume] in Serum or Plasma'),
      subject: me,
      effectiveDateTime: '2005-04-01T08:30:00Z',
      valueQuantity: { value: 94, unit: 'mg/dL' },
    },
  },
  {
    fullUrl: 'urn:uuid:dx-1',
    resource: {
      resourceType: 'DiagnosticReport',
      status: 'final',
      category: [cc('http://terminology.hl7.org/CodeSystem/v2-0074', 'LAB', 'Laboratory')],
      code: cc(LOINC, '24323-8', 'Comprehensive metabolic panel'),
      subject: me,
      basedOn: [{ reference: 'urn:uuid:sr-1' }],
      effectiveDateTime: '2005-04-01T08:30:00Z',
      issued: '2005-04-02T10:00:00Z',
      result: [{ reference: 'urn:uuid:o-1' }],
    },
  },
  {
    fullUrl: 'urn:uuid:d-1',
    resource: {
      resourceType: 'DocumentReference',
      status: 'current',
      type: { text: 'Progress note' },
      description: 'Progress note',
      subject: me,
      date: '2023-06-01T09:30:00Z',
      author: [{ reference: 'urn:uuid:dr-1' }],
      content: [{ attachment: { contentType: 'text/plain', data: Buffer.from('Seen for follow-up. Doing well.').toString('base64') } }],
    },
  },
  {
    fullUrl: 'urn:uuid:d-2',
    resource: {
      resourceType: 'DocumentReference',
      status: 'current',
      subject: me,
      date: '2023-06-02T09:30:00Z',
      content: [{ attachment: { contentType: 'application/pdf', title: longTitle, data: Buffer.from('%PDF-1.4 discharge summary').toString('base64') } }],
    },
  },
];
const bundle = { resourceType: 'Bundle', type: 'collection', entry: entries };

beforeAll(async () => {
  provider = await signIn('provider@demo.tidewell.local');
  patientId = (await ok(api(provider, 'POST', '/v1/patients', { firstName: 'Ines', lastName: `Okafor${run}`, gender: 'female', dob: '1971-05-02' }), 201)).id;
});

describe("another system's chart: statuses, other patients and what must not be lost", () => {
  it('the preview leaves out what is not so, not done, in error or about another patient, each with its reason', async () => {
    const preview = await ok(api(provider, 'POST', `/v1/patients/${patientId}/fhir-import-preview`, { bundle }));
    const byUrl = Object.fromEntries(preview.items.map((i: Res, n: number) => [entries[n]!.fullUrl, [i.action, i.reason]]));
    expect(byUrl).toMatchObject({
      'urn:uuid:p-2': ['skip', 'Another patient: only the first patient in the bundle comes into this chart'],
      'urn:uuid:a-1': ['skip', 'The allergy was refuted'],
      'urn:uuid:a-2': ['skip', 'The allergy was entered in error'],
      'urn:uuid:a-3': ['add', undefined],
      'urn:uuid:c-1': ['skip', 'The condition was refuted'],
      'urn:uuid:c-2': ['skip', 'The condition was entered in error'],
      'urn:uuid:c-3': ['add', undefined],
      'urn:uuid:i-1': ['skip', 'The vaccine was not given (patient objection)'],
      'urn:uuid:pr-1': ['skip', 'The procedure was not done'],
      'urn:uuid:v-1': ['skip', 'It was entered in error'],
      'urn:uuid:v-2': ['add', undefined],
      'urn:uuid:v-3': ['add', undefined],
      'urn:uuid:v-4': ['skip', 'It belongs to another patient in the bundle (Bo Other)'],
      'urn:uuid:s-1': ['add', undefined],
      'urn:uuid:s-2': ['add', undefined],
      'urn:uuid:m-1': ['add', undefined],
      'urn:uuid:m-2': ['add', undefined],
      'urn:uuid:dx-1': ['add', undefined],
      'urn:uuid:d-1': ['add', undefined],
      'urn:uuid:d-2': ['add', undefined],
    });
    expect(preview.items.find((i: Res) => i.resourceType === 'DocumentReference' && i.summary.startsWith('File:')).summary.length).toBeLessThan(130);
  });

  it('imports what the preview listed, as the source wrote it; the runtime keeps answering after a very long file title', async () => {
    const preview = await ok(api(provider, 'POST', `/v1/patients/${patientId}/fhir-import-preview`, { bundle }));
    const result = await ok(api(provider, 'POST', `/v1/patients/${patientId}/fhir-import`, { bundle }));
    // The count is what the preview promised: two identical prescriptions are two.
    expect(result.added).toBe(preview.add);
    expect(result.added).toBe(11);

    const allergies = await items('allergies');
    expect(allergies.map((a) => a.name)).toEqual(['Cashew nuts']);
    expect(allergies[0]).toMatchObject({ severity: 'severe', active: true });
    expect(allergies[0]!.description).toContain('Hives, Anaphylaxis');
    expect(allergies[0]!.description).toContain('Recorded by Dr. Ana Reyes');

    const diagnoses = await items('diagnoses');
    expect(diagnoses.map((d) => [d.name, d.date, d.endDate, d.active])).toEqual([['Viral sinusitis', '2019-03', '2019-03', false]]);
    expect(diagnoses[0]!.description).toContain('Onset on 2019-03-05; Ended on 2019-03-19');
    expect(diagnoses[0]!.description).toContain('Recorded by Dr. Ana Reyes');
    expect(await items('vaccines')).toEqual([]);
    expect(await items('surgeries')).toEqual([]);

    const meds = await items('medications');
    expect(meds.map((m) => m.productName)).toEqual(['lisinopril 10 MG Oral Tablet', 'lisinopril 10 MG Oral Tablet']);

    // Date-only vitals are that day's; blood pressure as 55284-4 and an oral temperature in °C are read. The erred 210 is not.
    const vitals = await notes('VITALS');
    expect(vitals).toHaveLength(1);
    expect(vitals[0]!.eventTimestamp).toBe('2023-06-01T12:00:00.000Z');
    expect(vitals[0]!.data).toMatchObject({ systolic: 128, diastolic: 82, temp: 98.6 });
    expect(vitals[0]!.data.heartRate).toBeUndefined();

    const social = await items('social-history');
    expect(social.map((s) => [s.question, s.answers.map((a: Res) => a.answer)]).sort()).toEqual([
      ['Cigarettes smoked current (pack per day) - Reported', ['0 {packs}/d']],
      ['Tobacco smoking status', ['Never smoked tobacco']],
    ]);

    // The 2005 panel is dated 2005, though its order was written in 2024.
    const labs = await notes('LAB');
    expect(labs.map((n) => n.eventTimestamp)).toEqual(['2005-04-01T08:30:00.000Z']);

    const documents = (await ok(api(provider, 'GET', `/v1/notes?patientId=${patientId}`))).notes as Res[];
    const progress = documents.find((n) => n.data.text === 'Seen for follow-up. Doing well.');
    expect(progress!.author.name).toBe('Dr. Ana Reyes');
    const withFile = documents.find((n) => n.files?.length);
    const file = withFile!.files[0];
    expect(Buffer.byteLength(file.name)).toBeLessThanOrEqual(120);
    expect(file.name.endsWith('.pdf')).toBe(true);
    expect(file.key.endsWith(file.name)).toBe(true);
    // The file is there to read, and the runtime still answers.
    const read = await ok(api(provider, 'GET', `/v1/s3/files?key=${encodeURIComponent(file.key)}`));
    expect(await (await fetch(read.signedUrl)).text()).toBe('%PDF-1.4 discharge summary');

    const again = await ok(api(provider, 'POST', `/v1/patients/${patientId}/fhir-import`, { bundle }));
    expect(again.added).toBe(0);
    expect(await items('medications')).toHaveLength(2);
  });

  it('the local file store refuses a name longer than the disk keeps with a 400, and keeps running', async () => {
    const name = `${'x'.repeat(300)}.pdf`;
    const upload = await ok(api(provider, 'POST', '/v1/s3/files', { key: `${patientId}/notes/n-1/${name}`, contentType: 'application/pdf', size: 3 }));
    // The product shortens the name it signs for.
    expect(Buffer.byteLength(upload.key.split('/').pop())).toBeLessThanOrEqual(120);
    expect((await fetch(upload.signedUrl, { method: 'PUT', body: 'abc', headers: { 'content-type': 'application/pdf' } })).status).toBe(200);
    // A key signed past the product (as a script could) is answered, not fatal.
    const direct = upload.signedUrl.replace(encodeURIComponent(upload.key.split('/').pop()), name);
    expect((await fetch(direct, { method: 'PUT', body: 'abc', headers: { 'content-type': 'application/pdf' } })).status).toBeGreaterThanOrEqual(400);
    expect((await api(provider, 'GET', `/v1/patients/${patientId}/allergies`)).status).toBe(200);
  });
});
