import { readFileSync } from 'node:fs';
import { unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectValidBundle, schemaErrors } from '../support/fhir-checks.js';
import { expectStatus, patientNotes, sectionItems } from '../support/chart-reads.js';
import { api, patientAuditTrail, signIn } from '../support/local-stack.js';

/*
 * A chart another EHR wrote, shaped as Synthea writes one patient: a transaction bundle with
 * urn:uuid fullUrls, SNOMED CT, RxNorm, CVX and LOINC codes, metric vitals, encounters, care plans,
 * claims and a clinical note carried inline as base64 text.
 */

type Res = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const fixture = JSON.parse(readFileSync(new URL('../fixtures/fhir/synthea-patient.json', import.meta.url), 'utf8')) as {
  resourceType: string;
  type: string;
  entry: { fullUrl: string; resource: Res }[];
};
const run = Date.now().toString(36);
let provider: string;
let patientId: string;

const ok = expectStatus;
const items = (section: string) => sectionItems(provider, patientId, section);
const notes = (noteType: string) => patientNotes(provider, patientId, noteType);

beforeAll(async () => {
  provider = await signIn('provider@demo.tidewell.local');
  patientId = (await ok(api(provider, 'POST', '/v1/patients', { firstName: 'Marisol', lastName: `Quintero${run}`, gender: 'female', dob: '1968-07-14' }), 201))
    .id;
});

describe("a chart from another EHR's FHIR export (Synthea-shaped)", () => {
  it('the fixture is valid FHIR R4, as another system would send it', () => {
    expect(fixture).toMatchObject({ resourceType: 'Bundle', type: 'transaction' });
    for (const { resource } of fixture.entry) expect(schemaErrors(resource), `${resource.resourceType}/${resource.id}`).toEqual([]);
  });

  it('the preview lists every clinical item to be added, and what Tidewell does not keep is left out with a plain reason', async () => {
    const preview = await ok(api(provider, 'POST', `/v1/patients/${patientId}/fhir-import-preview`, { bundle: fixture }));
    expect(preview.sourcePatient).toBe('Marisol44 Quintero');
    expect(preview.items.map((i: Res) => [i.resourceType, i.summary, i.action, i.reason])).toEqual([
      ['Patient', 'Patient: Marisol44 Quintero (race, ethnicity, birth sex, 3 identifiers)', 'add', undefined],
      ['Organization', 'Organization: HOLYOKE FAMILY HEALTH', 'skip', 'Named on what it wrote'],
      ['Practitioner', 'Practitioner: Lowell521 Abshire638', 'skip', 'Named on what it wrote'],
      [
        'Encounter',
        'Visit: General examination of patient on 2019-03-05',
        'skip',
        'Tidewell does not keep visits (encounters); what was recorded at them comes in on its own',
      ],
      ['Condition', 'Diagnosis: Essential hypertension (I10)', 'add', undefined],
      ['Condition', 'Diagnosis: Acute viral pharyngitis', 'add', undefined],
      ['AllergyIntolerance', 'Allergy: Peanut', 'add', undefined],
      ['AllergyIntolerance', 'Allergy: Penicillin V', 'add', undefined],
      ['MedicationRequest', 'Prescription: Amoxicillin 250 MG Oral Capsule on 2019-03-05', 'add', undefined],
      ['Immunization', 'Vaccine: Td (adult) preservative free on 2019-03-05', 'add', undefined],
      ['Procedure', 'Surgery: Colonoscopy', 'add', undefined],
      ['Observation', 'Lab result: Hemoglobin A1c/Hemoglobin.total in Blood 5.9 % on 2019-03-05', 'add', undefined],
      ['Claim', 'Claim on 2019-03-05', 'skip', 'Billing records are not imported'],
      [
        'Encounter',
        'Visit: General examination of patient on 2024-02-12',
        'skip',
        'Tidewell does not keep visits (encounters); what was recorded at them comes in on its own',
      ],
      ['Condition', 'Diagnosis: Prediabetes', 'add', undefined],
      ['MedicationRequest', 'Prescription: lisinopril 10 MG Oral Tablet on 2024-02-12', 'add', undefined],
      ['Medication', 'Medication: Hydrochlorothiazide 25 MG Oral Tablet', 'skip', 'Brought in through the prescription naming it'],
      ['MedicationRequest', 'Prescription: Hydrochlorothiazide 25 MG Oral Tablet on 2024-02-12', 'add', undefined],
      ['MedicationStatement', 'Medication: 24 HR Metformin hydrochloride 500 MG Extended Release Oral Tablet', 'add', undefined],
      ['Immunization', 'Vaccine: Influenza, seasonal, injectable, preservative free on 2024-02-12', 'add', undefined],
      ['Observation', 'Vitals on 2024-02-12: Body Height', 'add', undefined],
      ['Observation', 'Vital sign: Pain severity - 0-10 verbal numeric rating [Score] - Reported', 'skip', 'Not one of the vital signs Tidewell records'],
      ['Observation', 'Vitals on 2024-02-12: Body Weight', 'add', undefined],
      ['Observation', 'Vitals on 2024-02-12: Body mass index (BMI) [Ratio]', 'add', undefined],
      ['Observation', 'Vitals on 2024-02-12: Blood pressure panel with all children optional', 'add', undefined],
      ['Observation', 'Vitals on 2024-02-12: Heart rate', 'add', undefined],
      ['Observation', 'Vitals on 2024-02-12: Body temperature', 'add', undefined],
      ['Observation', 'Vitals on 2024-02-12: Respiratory rate', 'add', undefined],
      ['Observation', 'Vitals on 2024-02-12: Oxygen saturation in Arterial blood', 'add', undefined],
      ['Observation', 'Lab result: Glucose [Mass/volume] in Blood 112.4 mg/dL on 2024-02-12', 'skip', 'Brought in with its lab report'],
      ['Observation', 'Lab result: Creatinine [Mass/volume] in Blood 0.91 mg/dL on 2024-02-12', 'skip', 'Brought in with its lab report'],
      ['Observation', 'Lab result: Hemoglobin A1c/Hemoglobin.total in Blood 6.1 % on 2024-02-12', 'add', undefined],
      ['DiagnosticReport', 'Lab report: Basic metabolic panel - Blood on 2024-02-12 (2 results)', 'add', undefined],
      ['Observation', 'Social history: Tobacco smoking status: Ex-smoker', 'add', undefined],
      ['Observation', 'Observation: Patient Health Questionnaire 2 item (PHQ-2) total score [Reported]', 'skip', 'Not a kind Tidewell keeps'],
      ['FamilyMemberHistory', 'Family history: Myocardial infarction (father)', 'add', undefined],
      ['CarePlan', 'Care plan: Diabetes self management plan on 2024-02-12', 'skip', 'Tidewell does not keep care plans'],
      ['DiagnosticReport', 'Report: History and physical note', 'skip', 'Brought in through its note'],
      ['DocumentReference', 'Note: History and physical note (2024-02-12)', 'add', undefined],
      ['Claim', 'Claim on 2024-02-12', 'skip', 'Billing records are not imported'],
      ['ExplanationOfBenefit', 'Explanation of benefit: Blue Cross Blue Shield on 2024-02-12', 'skip', 'Billing records are not imported'],
      ['Provenance', 'Record of where the data came from on 2024-02-12', 'skip', 'Not part of the chart'],
    ]);
    expect([preview.add, preview.present, preview.skip]).toEqual([27, 0, 15]);
    // The preview changes nothing.
    expect(await items('diagnoses')).toEqual([]);
  });

  it('imports into the chart sections as a clinician reads them; a second import adds nothing', async () => {
    const first = await ok(api(provider, 'POST', `/v1/patients/${patientId}/fhir-import`, { bundle: fixture }));
    expect(first.added).toBe(27);

    const diagnoses = await items('diagnoses');
    expect(diagnoses.map((d) => [d.name, d.date, d.endDate, d.active, d.icd10CodeId ?? null, d.icd10Code?.code ?? null]).sort()).toEqual([
      ['Acute viral pharyngitis', '2019-03', '2019-03', false, null, null],
      ['Essential hypertension', '2019-03', '', true, 'I10', 'I10'],
      ['Prediabetes', '2024-02', '', true, null, null],
    ]);
    // SNOMED CT is kept beside ICD-10-CM where the source sent both.
    expect(diagnoses.find((d) => d.name === 'Essential hypertension')!.codings).toContainEqual(expect.objectContaining({ system: 'http://snomed.info/sct' }));
    // The patient's race, ethnicity and birth sex (US Core extensions) and record numbers with their system; never the SSN.
    const stored = await ok(api(provider, 'GET', `/v1/patients/${patientId}`));
    expect(stored.demographics).toMatchObject({
      race: { omb: [{ code: '2106-3', display: 'White' }], text: 'White' },
      ethnicity: { omb: [{ code: '2186-5' }] },
      birthSex: 'F',
    });
    expect(stored.demographics.identifiers).toContainEqual({
      system: 'http://hospital.smarthealthit.org',
      value: 'b2c7c4a1-5e3d-4f0a-9a61-3f6f1d2e8c01',
      type: 'MR',
      label: 'Medical Record Number',
    });
    expect(JSON.stringify(stored.demographics)).not.toContain('us-ssn');
    const allergies = await items('allergies');
    expect(allergies.map((a) => [a.name, a.severity, a.description, a.active]).sort()).toEqual([
      ['Peanut', 'moderate', 'Wheal', true],
      ['Penicillin V', 'mild', 'Eruption of skin', true],
    ]);
    const meds = await items('medications');
    expect(meds.map((m) => [m.productName, m.status, m.start, m.sigText]).sort()).toEqual([
      ['24 HR Metformin hydrochloride 500 MG Extended Release Oral Tablet', 'Active', '2024-02-12', '1 tablet by mouth daily with the evening meal'],
      ['Amoxicillin 250 MG Oral Capsule', 'Complete', '2019-03-05', '1 dose 3 times a day'],
      ['Hydrochlorothiazide 25 MG Oral Tablet', 'Active', '2024-02-12', '1 dose once a day'],
      ['lisinopril 10 MG Oral Tablet', 'Active', '2024-02-12', '1 dose once a day'],
    ]);
    expect(meds.find((m) => m.productName.startsWith('lisinopril'))!.description).toBe('Prescribed by Dr. Lowell521 Abshire638');
    const vaccines = await items('vaccines');
    expect(vaccines.map((v) => [v.name, v.cvxCode, v.date]).sort()).toEqual([
      ['Influenza, seasonal, injectable, preservative free', '140', '2024-02-12'],
      ['Td (adult) preservative free', '113', '2019-03-05'],
    ]);
    expect((await items('surgeries')).map((s) => [s.name, s.date])).toEqual([['Colonoscopy', '2019-03-05']]);
    expect((await items('family-history')).map((f) => [f.diagnosis, f.family])).toEqual([['Myocardial infarction', ['FTH']]]);
    const social = await items('social-history');
    expect(social.map((s) => [s.question, s.answers.map((a: Res) => [a.answer, a.timestamp])])).toEqual([
      ['Tobacco smoking status', [['Ex-smoker', '2024-02-12T14:30:14.812Z']]],
    ]);

    // One vitals note for the visit, in the units the vitals form records: cm → in, kg → lb, °C → °F; blood pressure from the panel's parts.
    const vitals = await notes('VITALS');
    expect(vitals).toHaveLength(1);
    expect(vitals[0]).toMatchObject({ status: 'SIGNED', eventTimestamp: '2024-02-12T14:30:14.000Z' });
    expect(vitals[0].data).toMatchObject({
      height: 66,
      weight: 185.4,
      bmi: 29.94,
      systolic: 132,
      diastolic: 84,
      heartRate: 76,
      respiratoryRate: 14,
      spo2: 97,
      temp: 98.4,
      heightUnit: 'in',
      weightUnit: 'lb',
      tempUnit: '°F',
    });

    // The panel as one lab note, and each day's results without a report as another.
    const labs = await notes('LAB');
    const results = labs
      .map((n) => [
        n.eventTimestamp.slice(0, 10),
        n.data.source,
        n.data.results.map((r: Res) => [r.code, r.valueQuantity.value, r.valueQuantity.unit, r.ranges ?? null]),
      ])
      .sort();
    expect(results).toEqual([
      ['2019-03-05', 'import', [['4548-4', 5.9, '%', null]]],
      [
        '2024-02-12',
        'import',
        [
          ['2339-0', 112.4, 'mg/dL', [{ low: 70, high: 99 }]],
          ['38483-4', 0.91, 'mg/dL', null],
        ],
      ],
      ['2024-02-12', 'import', [['4548-4', 6.1, '%', null]]],
    ]);
    expect((await ok(api(provider, 'GET', `/v2/notes/labs/link/${patientId}/4548-4`))).points.map((p: Res) => p.value)).toEqual([5.9, 6.1]);

    // The clinical note's own words, decoded from the bundle: once, though the report presenting it came too.
    const all = (await ok(api(provider, 'GET', `/v1/notes?patientId=${patientId}`))).notes as Res[];
    const withText = all.filter((n) => n.data.text?.includes('# Chief Complaint'));
    expect(withText).toHaveLength(1);
    const note = withText[0];
    expect(note).toMatchObject({ noteType: 'DOCUMENT', status: 'SIGNED', eventTimestamp: '2024-02-12T14:30:14.000Z' });
    expect(note!.data.text).toContain('Patient is presenting with prediabetes. A1c 6.1%.');
    expect(note!.data.formattedText).toContain('<p># Assessment and Plan</p>');

    const again = await ok(api(provider, 'POST', `/v1/patients/${patientId}/fhir-import-preview`, { bundle: fixture }));
    expect([again.add, again.present, again.skip]).toEqual([0, 27, 15]);
    expect((await ok(api(provider, 'POST', `/v1/patients/${patientId}/fhir-import`, { bundle: fixture }))).added).toBe(0);
    expect(await items('diagnoses')).toHaveLength(3);
    expect(await items('medications')).toHaveLength(4);
    expect(await notes('VITALS')).toHaveLength(1);
    expect(await notes('LAB')).toHaveLength(3);
    expect((await patientAuditTrail(patientId)).filter((e) => e.entity === 'fhir_import').map((e) => e.count)).toEqual(expect.arrayContaining([27, 0]));
  });

  it("the patient's export carries what came in, with the codes Tidewell keeps", async () => {
    const res = await ok(api(provider, 'GET', `/v1/patients/${patientId}/fhir-export`));
    const zip = unzipSync(new Uint8Array(await (await fetch(res.url)).arrayBuffer()));
    const bundle = JSON.parse(new TextDecoder().decode(zip['bundle.json'])) as {
      resourceType: string;
      type: string;
      entry: { fullUrl: string; resource: Res }[];
    };
    expectValidBundle(bundle as never);
    const resources = bundle.entry.map((e) => e.resource);
    const of = (type: string) => resources.filter((r) => r.resourceType === type);
    const codes = (cc: Res | undefined, system: string) => ((cc?.coding ?? []) as Res[]).filter((c) => c.system === system).map((c) => c.code);

    const conditions = of('Condition')
      .map((c) => [c.code.text, codes(c.code, 'http://hl7.org/fhir/sid/icd-10-cm'), c.clinicalStatus.coding[0].code])
      .sort();
    expect(conditions).toEqual([
      ['Acute viral pharyngitis', [], 'resolved'],
      ['Essential hypertension', ['I10'], 'active'],
      ['Prediabetes', [], 'active'],
    ]);
    expect(
      of('AllergyIntolerance')
        .map((a) => a.code.text)
        .sort(),
    ).toEqual(['Peanut', 'Penicillin V']);
    expect(
      of('Immunization')
        .map((i) => [i.vaccineCode.text, codes(i.vaccineCode, 'http://hl7.org/fhir/sid/cvx'), i.occurrenceDateTime])
        .sort(),
    ).toEqual([
      ['Influenza, seasonal, injectable, preservative free', ['140'], '2024-02-12'],
      ['Td (adult) preservative free', ['113'], '2019-03-05'],
    ]);
    // The medication list keeps NDC codes only: RxNorm-coded medications come back by name.
    expect(
      of('MedicationStatement')
        .map((m) => [m.medicationCodeableConcept.text, m.status])
        .sort(),
    ).toEqual([
      ['24 HR Metformin hydrochloride 500 MG Extended Release Oral Tablet', 'active'],
      ['Amoxicillin 250 MG Oral Capsule', 'completed'],
      ['Hydrochlorothiazide 25 MG Oral Tablet', 'active'],
      ['lisinopril 10 MG Oral Tablet', 'active'],
    ]);
    expect(of('Procedure').map((p) => [p.code.text, p.performedDateTime])).toEqual([['Colonoscopy', '2019-03-05']]);
    expect(of('FamilyMemberHistory').map((f) => [f.condition[0].code.text, f.relationship.coding[0].code])).toEqual([['Myocardial infarction', 'FTH']]);

    const vitals = of('Observation').filter((o) => o.category?.[0]?.coding?.[0]?.code === 'vital-signs');
    const byLoinc = Object.fromEntries(vitals.map((o) => [o.code.coding[0].code, o]));
    expect(Object.keys(byLoinc).sort()).toEqual(['29463-7', '39156-5', '59408-5', '8302-2', '8310-5', '85354-9', '8867-4', '9279-1']);
    expect(byLoinc['8302-2'].valueQuantity).toMatchObject({ value: 66, code: '[in_i]' });
    expect(byLoinc['29463-7'].valueQuantity).toMatchObject({ value: 185.4, code: '[lb_av]' });
    expect(byLoinc['8310-5'].valueQuantity).toMatchObject({ value: 98.4, code: '[degF]' });
    expect(byLoinc['39156-5'].valueQuantity).toMatchObject({ value: 29.94, code: 'kg/m2' });
    expect(byLoinc['8867-4'].valueQuantity).toMatchObject({ value: 76, code: '/min' });
    expect(byLoinc['9279-1'].valueQuantity).toMatchObject({ value: 14, code: '/min' });
    expect(byLoinc['59408-5'].valueQuantity).toMatchObject({ value: 97, code: '%' });
    expect(byLoinc['85354-9'].component.map((c: Res) => [c.code.coding[0].code, c.valueQuantity.value])).toEqual([
      ['8480-6', 132],
      ['8462-4', 84],
    ]);

    const labs = of('Observation').filter((o) => o.category?.some((c: Res) => c.coding?.some((x: Res) => x.code === 'laboratory')));
    expect(labs.map((o) => [codes(o.code, 'http://loinc.org')[0], o.valueQuantity.value]).sort()).toEqual([
      ['2339-0', 112.4],
      ['38483-4', 0.91],
      ['4548-4', 5.9],
      ['4548-4', 6.1],
    ]);
    expect(of('DiagnosticReport').map((r) => r.code.text)).toContain('Basic metabolic panel - Blood');
    expect(
      of('Observation')
        .filter((o) => o.category?.[0]?.coding?.[0]?.code === 'social-history')
        .map((o) => [o.code.text, o.valueString]),
    ).toEqual([['Tobacco smoking status', 'Ex-smoker']]);
    const note = of('DocumentReference').find((d) =>
      d.content.some(
        (c: Res) =>
          c.attachment.contentType?.startsWith('text/plain') &&
          Buffer.from(c.attachment.data ?? '', 'base64')
            .toString('utf8')
            .includes('# Chief Complaint'),
      ),
    );
    expect(note).toBeTruthy();
  });
});
