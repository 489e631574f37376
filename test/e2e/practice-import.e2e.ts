import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { expectAccessibleAtEach } from './support/axe.js';
import { section } from './support/chart.js';
import { apiAs, EMPLOYEE, signIn, test } from './support/sign-in.js';

const ADMIN = 'admin@demo.tidewell.local';
const SHOTS = 'test-results/screenshots';
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Another system's whole-practice export as a folder of NDJSON files, one per resource type: the
 * Synthea (US Core) patient of test/fixtures, its urn:uuid references written as Type/id as a Bulk
 * Data export writes them, and a second patient of one resource. Names and ids are this run's own,
 * so the practice has never seen them.
 */
function exportFolder(run: string): { dir: string; family: string; second: string } {
  const bundle = JSON.parse(readFileSync(join('test', 'fixtures', 'fhir', 'synthea-patient.json'), 'utf8')) as { entry: { fullUrl: string; resource: Json }[] };
  const family = `Quintero${run}`;
  const second = `Import${run}`;
  const byUrl = new Map(bundle.entry.map((e) => [e.fullUrl, `${String(e.resource.resourceType)}/${String(e.resource.id)}`]));
  const source = bundle.entry.find((e) => e.resource.resourceType === 'Patient')!.resource;
  const patientRef = `Patient/${String(source.id)}`;
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (!value || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => {
        if (k !== 'reference' || typeof v !== 'string') return [k, rewrite(v)];
        const ref = byUrl.get(v) ?? v;
        return [k, ref === patientRef ? `Patient/imp-${run}` : ref];
      }),
    );
  };
  const resources = bundle.entry.map((e) => rewrite(e.resource) as Json);
  const patient = resources.find((r) => r.resourceType === 'Patient')!;
  Object.assign(patient, { id: `imp-${run}`, name: [{ use: 'official', family, given: ['Marisol44'] }] });
  delete patient.identifier;
  resources.push({
    resourceType: 'Patient',
    id: `imp2-${run}`,
    name: [{ use: 'official', family: second, given: ['Ada'] }],
    gender: 'female',
    birthDate: '1980-02-03',
  });
  const dir = join(mkdtempSync(join(tmpdir(), 'practice-import-')), `export-${run}`);
  mkdirSync(dir);
  const byType = new Map<string, Json[]>();
  for (const r of resources) byType.set(r.resourceType, [...(byType.get(r.resourceType) ?? []), r]);
  for (const [type, list] of byType) writeFileSync(join(dir, `${type}.ndjson`), `${list.map((r) => JSON.stringify(r)).join('\n')}\n`);
  return { dir, family, second };
}

test('an admin imports a practice export in Settings, stops and resumes it, and a second run adds nothing', async ({ page }) => {
  test.setTimeout(240_000);
  const run = Date.now().toString(36);
  const { dir, family, second } = exportFolder(run);
  const broken = join(mkdtempSync(join(tmpdir(), 'practice-import-bad-')), 'Patient.ndjson');
  writeFileSync(broken, '{"resourceType":"Patient","id":"x"}\n{not json\n');

  await signIn(page, ADMIN, '/new-settings/data-import');
  await expect(page.getByRole('heading', { name: 'Practice data import (FHIR)' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Data import' })).toHaveAttribute('aria-current', 'page');
  await expectAccessibleAtEach(page, 'settings: data import');

  // A bad file says which line is wrong, and the screen stays usable.
  await page.getByLabel('NDJSON files', { exact: true }).setInputFiles(broken);
  await expect(page.getByRole('alert')).toHaveText('Patient.ndjson line 2 is not JSON: an NDJSON file holds one resource per line.');
  await expect(page.getByRole('button', { name: 'Choose export folder' })).toBeEnabled();

  // The folder: what was found, before anything is sent.
  await page.getByLabel('Export folder', { exact: true }).setInputFiles(dir);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: /^Found 2 patients and \d+ resources in \d+ NDJSON files$/ })).toBeVisible();
  const counts = page.getByRole('list', { name: 'Resources found by type' });
  await expect(counts.getByRole('listitem').filter({ hasText: 'Condition' })).toHaveText('Condition 3');
  await expect(counts.getByRole('listitem').filter({ hasText: 'Patient' })).toHaveText('Patient 2');
  await expectAccessibleAtEach(page, 'settings: data import, export picked', {
    screenshot: (v) => `${SHOTS}/practice-import-found-${v.width}.png`,
    fullPage: true,
  });

  // Started by keyboard, stopped while the first patient is sent: it stops after that patient.
  let release: () => void = () => undefined;
  const held = new Promise<void>((done) => (release = done));
  let first = true;
  await page.route('**/v1/practices/fhir-imports/patients', async (route) => {
    if (first) {
      first = false;
      await held;
    }
    await route.continue();
  });
  const start = page.getByRole('button', { name: 'Import 2 patients' });
  await start.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: `Importing… 1 of 2 patients: Marisol44 ${family}` })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('progressbar', { name: 'Import progress' })).toBeVisible();
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Stopping after this patient…' })).toBeVisible();
  release();
  await expect(
    page.getByRole('status').filter({ hasText: 'Import stopped: 1 of 2 patients brought in. Resume to carry on from the next patient.' }),
  ).toBeVisible({ timeout: 60_000 });
  await expect(
    page.getByRole('table', { name: 'Patients brought in' }).getByRole('row', { name: new RegExp(`Marisol44 ${family} .* New chart`) }),
  ).toBeVisible();
  await page.unroute('**/v1/practices/fhir-imports/patients');

  // A reload keeps the progress: the same folder resumes from the next patient.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Practice data import (FHIR)' })).toBeVisible();
  await page.getByLabel('Export folder', { exact: true }).setInputFiles(dir);
  await expect(page.getByText('An earlier import brought in 1 of 2 patients: importing carries on from the next patient.')).toBeVisible();
  await page.getByRole('button', { name: 'Resume import (1 left)' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Import finished: 1 new chart, / })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText('1 patient brought in by an earlier import was not sent again.')).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(`Ada ${second} .* New chart`) })).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(`Marisol44 ${family}`) })).toHaveCount(0);

  // Imported again: the server finds everything already here and adds nothing.
  await expect(page.getByText('All 2 patients of this export were brought in.', { exact: false })).toBeVisible();
  await page.getByRole('button', { name: 'Import again' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Import finished: 0 new charts, 0 items added, [1-9]\d* already here, / })).toBeVisible({
    timeout: 60_000,
  });
  const rows = page.getByRole('table', { name: 'Patients brought in' }).getByRole('row');
  await expect(rows.filter({ has: page.getByRole('cell', { name: 'Already here', exact: true }) })).toHaveCount(2);
  await expectAccessibleAtEach(page, 'settings: data import, finished', {
    screenshot: (v) => `${SHOTS}/practice-import-finished-${v.width}.png`,
    fullPage: true,
  });

  // The imported patients are in the practice: found by search, the chart holding what its export held.
  await page.getByRole('link', { name: 'Patients', exact: true }).first().click();
  await page.getByRole('searchbox', { name: 'Search patients' }).fill(second);
  await expect(page.getByRole('link', { name: new RegExp(`^Ada ${second}`) })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search patients' }).fill(family);
  await page.getByRole('link', { name: new RegExp(`^Marisol44 ${family}`) }).click();
  await expect(page.getByRole('heading', { name: 'Health Summary' })).toBeVisible({ timeout: 30_000 });
  await expect(section(page, 'Allergies').getByText('Peanut')).toBeVisible();
  await expect(section(page, 'Medical Conditions').getByText('Prediabetes')).toBeVisible();
});

test('an employee sees the import screen without its pickers, and the API refuses them', async ({ page }) => {
  await signIn(page, EMPLOYEE, '/new-settings/data-import');
  await expect(page.getByText('Only admins can import the practice data.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Choose export folder' })).toHaveCount(0);
  expect((await apiAs(page, 'POST', '/v1/practices/fhir-imports/patients', { bundle: { resourceType: 'Bundle', type: 'collection', entry: [] } })).status).toBe(
    403,
  );
});
