import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectStatus } from '../support/chart-reads.js';
import { api, signIn } from '../support/local-stack.js';

/*
 * Real outside charts: Synthea-generated R4 patient bundles and US Core's own example resources,
 * kept with the shared reference data (../shared/data/fhir, see its README for source and licence;
 * FHIR_REAL_DIR points elsewhere). Without them the hand-written Synthea-shaped fixture stands in.
 * Per resource type, every bundle entry is either imported (and found in the chart) or listed as
 * left out with its reason: nothing is lost silently.
 */

type Res = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Bundle = { resourceType: 'Bundle'; type: string; entry: { fullUrl?: string; resource: Res }[] };

const DIR = process.env.FHIR_REAL_DIR ?? resolve(import.meta.dirname, '../../../shared/data/fhir');
const json = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Res;

/** US Core's examples are single resources: one collection bundle, its example patient first. */
function usCoreBundle(dir: string): Bundle {
  const resources = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => json(resolve(dir, f)));
  const first = resources.findIndex((r) => r.resourceType === 'Patient' && r.id === 'example');
  const ordered = [resources[first]!, ...resources.filter((_, i) => i !== first)];
  return {
    resourceType: 'Bundle',
    type: 'collection',
    entry: ordered.map((r) => ({ fullUrl: `https://us-core.example/fhir/${r.resourceType}/${r.id}`, resource: r })),
  };
}

function sources(): [string, Bundle][] {
  const found: [string, Bundle][] = [];
  if (existsSync(resolve(DIR, 'synthea'))) {
    for (const f of readdirSync(resolve(DIR, 'synthea'))
      .filter((x) => x.endsWith('.json'))
      .sort())
      found.push([`synthea/${f}`, json(resolve(DIR, 'synthea', f)) as Bundle]);
  }
  if (existsSync(resolve(DIR, 'us-core'))) found.push(['us-core examples', usCoreBundle(resolve(DIR, 'us-core'))]);
  if (found.length === 0)
    found.push(['synthea-patient.json (hand-written)', json(resolve(import.meta.dirname, '../fixtures/fhir/synthea-patient.json')) as Bundle]);
  return found;
}

/** Chart sections each resource type comes into, to find what was imported. */
const SECTIONS: Record<string, string[]> = {
  AllergyIntolerance: ['allergies'],
  Condition: ['diagnoses', 'general'],
  Immunization: ['vaccines'],
  Procedure: ['surgeries'],
  FamilyMemberHistory: ['family-history'],
};

let provider: string;
beforeAll(async () => {
  provider = await signIn('provider@demo.tidewell.local');
});

const ok = expectStatus;

describe.each(sources())('a real outside chart: %s', (_name, bundle) => {
  it('every entry is imported or left out with its reason, per resource type, and the chart holds what was imported', { timeout: 240_000 }, async () => {
    const patient = bundle.entry[0]!.resource;
    const created = await ok(
      api(provider, 'POST', '/v1/patients', {
        firstName: 'Real',
        lastName: `Outside${Date.now().toString(36)}`,
        gender: patient.gender === 'male' ? 'male' : 'female',
        dob: patient.birthDate ?? '1980-01-01',
      }),
      201,
    );
    const patientId = created.id as string;
    const preview = await ok(api(provider, 'POST', `/v1/patients/${patientId}/fhir-import-preview`, { bundle }));
    const result = await ok(api(provider, 'POST', `/v1/patients/${patientId}/fhir-import`, { bundle }));
    expect(result.added).toBe(preview.add);
    expect(result.items).toHaveLength(bundle.entry.length);

    const table = new Map<string, { entries: number; added: number; skipped: Map<string, number> }>();
    bundle.entry.forEach((e, i) => {
      const item = result.items[i] as Res;
      expect(item.resourceType).toBe(e.resource.resourceType);
      const row = table.get(item.resourceType) ?? { entries: 0, added: 0, skipped: new Map() };
      row.entries++;
      if (item.action === 'add') row.added++;
      else {
        expect(item.action, item.summary).toBe('skip');
        expect(item.reason, item.summary).toMatch(/\w/);
        row.skipped.set(item.reason, (row.skipped.get(item.reason) ?? 0) + 1);
      }
      table.set(item.resourceType, row);
    });
    for (const [type, row] of table) expect(row.added + [...row.skipped.values()].reduce((a, b) => a + b, 0), type).toBe(row.entries);

    // What the counts say was added is in the chart's sections.
    for (const [type, sections] of Object.entries(SECTIONS)) {
      let inChart = 0;
      for (const section of sections) inChart += ((await ok(api(provider, 'GET', `/v1/patients/${patientId}/${section}`))).items as Res[]).length;
      expect(inChart, type).toBe(table.get(type)?.added ?? 0);
    }
    const medications = ((await ok(api(provider, 'GET', `/v1/patients/${patientId}/medications`))).items as Res[]).length;
    expect(medications).toBe(['MedicationRequest', 'MedicationStatement', 'MedicationDispense'].reduce((n, t) => n + (table.get(t)?.added ?? 0), 0));
    // The codes the source sent stay on what came in: SNOMED CT on conditions and procedures, RxNorm on medications.
    const coded = (type: string, system: string) =>
      bundle.entry.filter(
        (e, i) =>
          e.resource.resourceType === type &&
          (result.items[i] as Res).action === 'add' &&
          (e.resource.code?.coding ?? e.resource.medicationCodeableConcept?.coding ?? []).some((c: Res) => c.system === system),
      ).length;
    const keeping = async (section: string, system: string) =>
      ((await ok(api(provider, 'GET', `/v1/patients/${patientId}/${section}`))).items as Res[]).filter((x) =>
        (x.codings ?? []).some((c: Res) => c.system === system),
      ).length;
    expect(await keeping('diagnoses', 'http://snomed.info/sct')).toBeGreaterThanOrEqual(
      bundle.entry.filter(
        (e, i) =>
          e.resource.resourceType === 'Condition' &&
          (result.items[i] as Res).action === 'add' &&
          !(e.resource.category ?? []).some((c: Res) => JSON.stringify(c).includes('health-concern')) &&
          (e.resource.code?.coding ?? []).some((c: Res) => c.system === 'http://snomed.info/sct'),
      ).length,
    );
    expect(await keeping('surgeries', 'http://snomed.info/sct')).toBe(coded('Procedure', 'http://snomed.info/sct'));
    // (At least: a prescription naming a coded Medication resource keeps that RxNorm code too.)
    expect(await keeping('medications', 'http://www.nlm.nih.gov/research/umls/rxnorm')).toBeGreaterThanOrEqual(
      coded('MedicationRequest', 'http://www.nlm.nih.gov/research/umls/rxnorm') + coded('MedicationStatement', 'http://www.nlm.nih.gov/research/umls/rxnorm'),
    );
    // Race, ethnicity, birth sex and identifiers the Patient carries are on the chart's patient.
    if ((result.items[0] as Res).action === 'add') {
      const stored = await ok(api(provider, 'GET', `/v1/patients/${patientId}`));
      const races = (patient.extension ?? []).filter((x: Res) => x.url.endsWith('us-core-race')).length;
      expect(Boolean(stored.demographics?.race)).toBe(races > 0);
      // An SSN is never kept (a chart does not need it, and it is what identity thieves look for).
      const ssn = (i: Res) => i.system === 'http://hl7.org/fhir/sid/us-ssn' || (i.type?.coding ?? []).some((c: Res) => c.code === 'SS');
      expect(stored.demographics?.identifiers?.length ?? 0).toBe(Math.min(20, (patient.identifier ?? []).filter((i: Res) => i.value && !ssn(i)).length));
      expect(JSON.stringify(stored)).not.toMatch(/\d{3}-\d{2}-\d{4}/);
    }
    // A second import adds nothing.
    expect((await ok(api(provider, 'POST', `/v1/patients/${patientId}/fhir-import-preview`, { bundle }))).add).toBe(0);

    const lines = [...table]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([type, row]) => `| ${type} | ${row.entries} | ${row.added} | ${[...row.skipped].map(([reason, n]) => `${n}: ${reason}`).join('; ')} |`);
    console.log([`\n### ${_name}`, '| resource type | in bundle | added | left out (reason) |', '| --- | --- | --- | --- |', ...lines].join('\n'));
  });
});
