import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { XMLParser } from 'fast-xml-parser';
import { expectStatus, patientNotes, sectionItems } from '../support/chart-reads.js';
import { api, signIn } from '../support/local-stack.js';

/*
 * C-CDA documents into a chart. Published documents (HL7's C-CDA examples, EHR vendors' samples)
 * are read from CCDA_REAL_DIR (or ../shared/data/ccda) when present; otherwise the hand-written
 * fixtures under test/fixtures/ccda, which carry the same shapes (nullFlavor, negated entries,
 * narrative-only sections, an embedded PDF). Per section, every clinical statement of the document
 * is either imported or listed as left out with its reason: nothing is lost silently.
 */

type Res = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const FIXTURES = resolve(import.meta.dirname, '../fixtures/ccda');
const REAL = process.env.CCDA_REAL_DIR ?? resolve(import.meta.dirname, '../../../shared/data/ccda');
const xmlFiles = (dir: string) =>
  readdirSync(dir)
    .filter((f) => /\.xml$/i.test(f))
    .sort();

function sources(): [string, string][] {
  if (existsSync(REAL) && xmlFiles(REAL).length) return xmlFiles(REAL).map((f) => [f, readFileSync(resolve(REAL, f), 'utf8')]);
  return xmlFiles(FIXTURES).map((f) => [`${f} (hand-written)`, readFileSync(resolve(FIXTURES, f), 'utf8')]);
}

/*
 * The test's own count of a document's clinical statements, per top-level section (its title): an
 * allergy or problem concern counts its observations, a vital signs or results organizer its
 * statements (and the results organizer itself, the lab report), any other entry counts one.
 */
const ORGANIZER_SECTIONS = new Set(['8716-3', '30954-2']);
const CONCERN_SECTIONS = new Set(['48765-2', '11450-4', '11348-0']);
const STATEMENTS = ['act', 'observation', 'substanceAdministration', 'procedure', 'organizer', 'encounter', 'supply'];
const list = (v: unknown): Res[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]) as Res[];
function statementsPerSection(xml: string): Map<string, number> {
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', removeNSPrefix: true, processEntities: false }).parse(xml)
    .ClinicalDocument as Res;
  const counts = new Map<string, number>();
  const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'object' && v ? String((v as Res)['#text'] ?? '') : '');
  for (const c of list(doc.component?.structuredBody?.component)) {
    const s = c.section as Res | undefined;
    if (!s) continue;
    const title = text(s.title).replace(/\s+/g, ' ').trim() || s.code?.['@displayName'] || 'Section';
    const code = s.code?.['@code'] as string | undefined;
    let n = 0;
    for (const entry of list(s.entry)) {
      if (code && CONCERN_SECTIONS.has(code) && entry.act)
        n += Math.max(1, list(entry.act.entryRelationship).filter((r) => r['@typeCode'] === 'SUBJ' && r.observation).length);
      else if (code && ORGANIZER_SECTIONS.has(code) && entry.organizer)
        n += list(entry.organizer.component).flatMap((x) => STATEMENTS.flatMap((k) => list(x[k]))).length + (code === '30954-2' ? 1 : 0);
      else n += 1;
    }
    counts.set(title, (counts.get(title) ?? 0) + n);
  }
  return counts;
}

let provider: string;
beforeAll(async () => {
  provider = await signIn('provider@demo.tidewell.local');
});
const ok = expectStatus;
const newPatient = async (last: string) =>
  (
    await ok(
      api(provider, 'POST', '/v1/patients', { firstName: 'Ccda', lastName: `${last}${Date.now().toString(36)}`, gender: 'female', dob: '1972-04-14' }),
      201,
    )
  ).id as string;

const TABLE: string[] = [];

describe.each(sources())('a C-CDA document: %s', (name, xml) => {
  it('every clinical statement of every section is imported or left out with its reason, and a second import adds nothing', { timeout: 240_000 }, async () => {
    const patientId = await newPatient('Doc');
    const preview = await ok(api(provider, 'POST', `/v1/patients/${patientId}/ccda-import-preview`, { xml }));
    const result = await ok(api(provider, 'POST', `/v1/patients/${patientId}/ccda-import`, { xml }));
    expect(result.added).toBe(preview.add);
    expect(preview.items).toHaveLength(preview.add + preview.present + preview.skip);
    for (const item of result.items as Res[]) {
      expect(['add', 'skip'], item.summary).toContain(item.action);
      if (item.action === 'skip') expect(item.reason, item.summary).toMatch(/\w/);
    }

    // Per section: the document's statements against the items listed for it (imported or left out).
    const counted = statementsPerSection(xml);
    const items = result.items as Res[];
    for (const [section, statements] of counted) {
      const own = items.filter((i) => i.section === section && i.resourceType !== 'Section');
      const imported = own.filter((i) => i.action === 'add' || i.reason === 'Brought in with its lab report').length;
      const left = own.filter((i) => i.action === 'skip' && i.reason !== 'Brought in with its lab report');
      expect(own.length, `${name} / ${section}`).toBe(statements);
      const reasons = [...new Set(left.map((i) => i.reason as string))].join('; ');
      const textOnly = items.find((i) => i.section === section && i.resourceType === 'Section');
      TABLE.push(
        `| ${name} | ${section} | ${statements} | ${imported} | ${left.length}${reasons ? ` (${reasons})` : ''}${textOnly ? ' (narrative only: kept as text in the document note)' : ''} |`,
      );
    }
    const docItem = items.find((i) => i.section === 'Document');
    expect(docItem, 'the document itself is listed').toBeDefined();
    TABLE.push(`| ${name} | (document note) | 1 | ${docItem!.action === 'add' ? 1 : 0} | ${docItem!.action === 'skip' ? `1 (${docItem!.reason})` : 0} |`);

    // What was added is in the chart.
    const addedOf = (type: string) => items.filter((i) => i.resourceType === type && i.action === 'add').length;
    expect(await sectionItems(provider, patientId, 'allergies')).toHaveLength(addedOf('AllergyIntolerance'));
    expect(await sectionItems(provider, patientId, 'surgeries')).toHaveLength(addedOf('Procedure'));
    expect(await sectionItems(provider, patientId, 'medications')).toHaveLength(addedOf('MedicationStatement'));
    expect((await sectionItems(provider, patientId, 'diagnoses')).length + (await sectionItems(provider, patientId, 'general')).length).toBe(
      addedOf('Condition'),
    );

    const again = await ok(api(provider, 'POST', `/v1/patients/${patientId}/ccda-import-preview`, { xml }));
    expect(again.add).toBe(0);
    expect(again.present).toBe(result.added);
    const twice = await ok(api(provider, 'POST', `/v1/patients/${patientId}/ccda-import`, { xml }));
    expect(twice.added).toBe(0);
    expect(await sectionItems(provider, patientId, 'allergies')).toHaveLength(addedOf('AllergyIntolerance'));
  });
});

describe('the hand-written fixtures, item by item', () => {
  const fixture = (f: string) => readFileSync(resolve(FIXTURES, f), 'utf8');

  it(
    'a CCD brings its items in with their codes, leaves out what is null, negated or text only, and keeps the document as a note',
    { timeout: 120_000 },
    async () => {
      const patientId = await newPatient('Full');
      const xml = fixture('ccd-full.xml');
      const preview = await ok(api(provider, 'POST', `/v1/patients/${patientId}/ccda-import-preview`, { xml }));
      expect(preview.sourcePatient).toBe('Marina Keel');
      expect(preview.title).toBe('Harbor Clinic Continuity of Care');
      const row = (summary: string) => (preview.items as Res[]).find((i) => i.summary === summary);
      expect(row('Allergy: Penicillin G')).toMatchObject({ action: 'add', section: 'Allergies and Adverse Reactions' });
      expect(row('Allergy: Allergy to substance')).toMatchObject({ action: 'skip', reason: 'The allergy names no substance (nullFlavor)' });
      expect(row('Diagnosis: Problem')).toMatchObject({ action: 'skip', reason: 'The problem has no code or name (nullFlavor)' });
      expect(row('Medication: Medication')).toMatchObject({ action: 'skip', reason: 'The medication has no code or name (nullFlavor)' });
      expect(row('Vaccine: Zoster vaccine recombinant on 2023-10-05')).toMatchObject({
        action: 'skip',
        reason: 'The vaccine was not given (Patient objection)',
      });
      expect(row('Social History: Tobacco smoking status')).toMatchObject({
        action: 'skip',
        reason: 'Tidewell does not import Social History entries: kept as text in the document note',
      });
      expect(row('Section: Plan of Treatment')).toMatchObject({ action: 'skip', reason: 'No coded entries: kept as text in the document note' });
      expect(row('Lab result: Result')).toMatchObject({ action: 'skip', reason: 'The result has no code or name (nullFlavor)' });
      expect((preview.items as Res[]).filter((i) => /Body temperature/.test(i.summary))).toEqual([
        expect.objectContaining({ action: 'skip', reason: 'It has no value' }),
      ]);
      await ok(api(provider, 'POST', `/v1/patients/${patientId}/ccda-import`, { xml }));

      const [allergy] = await sectionItems(provider, patientId, 'allergies');
      expect(allergy).toMatchObject({ name: 'Penicillin G', severity: 'moderate', active: true, startDate: '2015-06-01' });
      expect(allergy!.description).toContain('Hives');
      expect(allergy!.codings).toEqual([
        { system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '7980', display: 'Penicillin G' },
        { system: 'http://snomed.info/sct', code: '764146007', display: 'Penicillin' },
      ]);
      const diagnoses = await sectionItems(provider, patientId, 'diagnoses');
      const diabetes = diagnoses.find((d) => d.name === 'Type 2 diabetes mellitus');
      expect(diabetes).toMatchObject({ icd10CodeId: 'E119', active: true, date: '2019-02' });
      expect(diabetes!.codings).toEqual([{ system: 'http://snomed.info/sct', code: '44054006', display: 'Type 2 diabetes mellitus' }]);
      expect(diagnoses.find((d) => d.name === 'Acute bronchitis')).toMatchObject({ active: false, date: '2023-01', endDate: '2023-01' });
      const meds = await sectionItems(provider, patientId, 'medications');
      const metformin = meds.find((m) => m.productName === 'Metformin hydrochloride 500 MG Oral Tablet');
      expect(metformin).toMatchObject({
        status: 'Active',
        start: '2019-03-01',
        sigText: 'Metformin 500 mg tablet: take 1 tablet by mouth twice a day',
        code: { type: 'NDC', value: '00093-1048-01' },
      });
      expect(metformin!.codings).toEqual(
        expect.arrayContaining([
          { system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '861007', display: 'Metformin hydrochloride 500 MG Oral Tablet' },
        ]),
      );
      expect(meds.find((m) => m.productName === 'Amoxicillin 500 MG Oral Capsule')).toMatchObject({
        status: 'Complete',
        start: '2023-01-02',
        end: '2023-01-12',
      });
      const vaccines = (await ok(api(provider, 'GET', `/v1/patients/${patientId}/vaccines`))) as Res;
      const given = JSON.stringify(vaccines);
      expect(given).toContain('"cvxCode":"150"');
      expect(given).toContain('FLU2023A');
      expect(given).not.toContain('Zoster');
      const [surgery] = await sectionItems(provider, patientId, 'surgeries');
      expect(surgery).toMatchObject({
        name: 'Appendectomy',
        date: '2001-07-19',
        codings: [{ system: 'http://snomed.info/sct', code: '80146002', display: 'Appendectomy' }],
      });

      const [vitals] = await patientNotes(provider, patientId, 'VITALS');
      expect(vitals!.data).toMatchObject({ systolic: 128, diastolic: 82, heartRate: 72, weight: 154.3 });
      const [lab] = await patientNotes(provider, patientId, 'LAB');
      expect(lab!.data.results).toEqual([
        expect.objectContaining({ code: '4548-4', valueQuantity: { value: 7.2, unit: '%' }, interpretation: 'H', ranges: [{ low: 4, high: 5.6 }] }),
      ]);
      const [document] = await patientNotes(provider, patientId, 'DOCUMENT');
      expect(document!.data.subject).toBe('Harbor Clinic Continuity of Care');
      expect(document!.author.name).toBe('Dr. Alan Porter');
      for (const section of [
        'ALLERGIES AND ADVERSE REACTIONS',
        'PLAN OF TREATMENT',
        'Recheck A1c in three months. Start walking 30 minutes a day.',
        'SOCIAL HISTORY',
        'Never smoker.',
      ])
        expect(document!.data.text).toContain(section);
      expect(document!.data.formattedText).toContain('<h2>Plan of Treatment</h2>');
      expect(document!.data.formattedText).toContain('<td colspan="2">2024-03-10</td>');
      expect(document!.data.formattedText).toContain('<strong>7.2 %</strong>');
    },
  );

  it('"no known allergies" adds no allergy, and a medication named only in the narrative keeps that name', { timeout: 60_000 }, async () => {
    const patientId = await newPatient('Nka');
    const result = await ok(api(provider, 'POST', `/v1/patients/${patientId}/ccda-import`, { xml: fixture('no-known-allergies.xml') }));
    const items = result.items as Res[];
    expect(items.filter((i) => i.resourceType === 'AllergyIntolerance').map((i) => i.reason)).toEqual([
      'The document states the patient does not have this allergy',
      'The document records no known allergies',
    ]);
    expect(await sectionItems(provider, patientId, 'allergies')).toEqual([]);
    expect((await sectionItems(provider, patientId, 'medications')).map((m) => m.productName)).toEqual(['Ibuprofen 400 mg as needed']);
    expect(items.find((i) => i.summary === 'Section: Problems')).toMatchObject({
      action: 'skip',
      reason: 'No coded entries: kept as text in the document note',
    });
    const [document] = await patientNotes(provider, patientId, 'DOCUMENT');
    expect(document!.author.name).toBe('Bayside Family Practice');
    expect(document!.data.text).toContain('Low back pain since March 2024.');
  });

  it('an embedded PDF (nonXMLBody) becomes a file of the chart on a document note, once', { timeout: 60_000 }, async () => {
    const patientId = await newPatient('Pdf');
    const xml = fixture('unstructured-pdf.xml');
    const result = await ok(api(provider, 'POST', `/v1/patients/${patientId}/ccda-import`, { xml }));
    expect(result.added).toBe(1);
    const [document] = await patientNotes(provider, patientId, 'DOCUMENT');
    expect(document!.files).toEqual([
      expect.objectContaining({
        name: 'Cardiology consult letter.pdf',
        contentType: 'application/pdf',
        size: readFileSync(resolve(FIXTURES, '../files/lab-report.pdf')).length,
      }),
    ]);
    const file = await ok(api(provider, 'GET', `/v1/s3/files?key=${encodeURIComponent(document!.files[0].key)}`));
    const bytes = Buffer.from(await (await fetch(file.signedUrl)).arrayBuffer());
    expect(bytes.equals(readFileSync(resolve(FIXTURES, '../files/lab-report.pdf')))).toBe(true);
    expect((await ok(api(provider, 'POST', `/v1/patients/${patientId}/ccda-import`, { xml }))).added).toBe(0);
  });

  it("a C-CDA from the practice drive is imported by its key; another patient's file is refused", { timeout: 60_000 }, async () => {
    const patientId = await newPatient('Drive');
    const xml = fixture('no-known-allergies.xml');
    const presign = await ok(
      api(provider, 'POST', '/v1/s3/files', { key: 'public/referrals/referral.xml', contentType: 'application/xml', size: Buffer.byteLength(xml) }),
    );
    expect((await fetch(presign.signedUrl, { method: 'PUT', headers: { 'content-type': 'application/xml' }, body: xml })).status).toBe(200);
    const preview = await ok(api(provider, 'POST', `/v1/patients/${patientId}/ccda-import-preview`, { fileKey: presign.key }));
    expect(preview.title).toBe('Referral to physical therapy');
    expect(preview.add).toBe(2);
    const refused = await api(provider, 'POST', `/v1/patients/${patientId}/ccda-import-preview`, { fileKey: 'patients/someone-else/documents/x/referral.xml' });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain("Only a file of the practice drive or of this patient's chart can be imported");
  });

  it('a file that is not a C-CDA, declares a DTD or is too large is refused with a plain 400 and adds nothing', { timeout: 60_000 }, async () => {
    const patientId = await newPatient('Bad');
    const refuse = async (xml: string, message: string) => {
      const res = await api(provider, 'POST', `/v1/patients/${patientId}/ccda-import-preview`, { xml });
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain(message);
    };
    await refuse(
      '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><ClinicalDocument>&e;</ClinicalDocument>',
      'The file declares a document type (DTD), which is not accepted',
    );
    await refuse('<Bundle><entry/></Bundle>', 'The file is not a C-CDA document (no ClinicalDocument)');
    await refuse('<ClinicalDocument><title>x</ClinicalDocument>', 'The file is not well-formed XML');
    await refuse(`<ClinicalDocument>${' '.repeat(5_000_001)}</ClinicalDocument>`, 'The C-CDA file is larger than 5 MB');
    expect(await patientNotes(provider, patientId, 'DOCUMENT')).toEqual([]);
  });
});

describe('the C-CDA table', () => {
  it('lists each document section: statements in the document, imported, left out (with reasons)', () => {
    expect(TABLE.length).toBeGreaterThan(0);
    console.log(['| document | section | in document | imported | left out (reasons) |', '|---|---|---|---|---|', ...TABLE].join('\n'));
  });
});
