import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { expectAccessibleAtEach } from './support/axe.js';
import { section } from './support/chart.js';
import { apiAs, EMPLOYEE, signIn, test } from './support/sign-in.js';

const ADMIN = 'admin@demo.tidewell.local';
const SHOTS = 'test-results/screenshots';
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A small PDF: what matters is that its bytes come back as they went in. */
const pdfOf = (run: string) => Buffer.from(`%PDF-1.4\n% discharge letter ${run}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`);

/**
 * Another system's whole-practice export as a folder of NDJSON files, one per resource type: the
 * Synthea (US Core) patient of test/fixtures, its urn:uuid references written as Type/id as a Bulk
 * Data export writes them, and a second patient with a signed DOCUMENT note whose PDF is in the
 * folder's files/ (and a scan the export names but does not hold), written by a practitioner who is
 * a user here and signed by one who is not. Names and ids are this run's own, so the practice has
 * never seen them.
 */
function exportFolder(run: string): { dir: string; family: string; second: string; pdf: Buffer; stranger: string } {
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
  const stranger = `locum-${run}@elsewhere.example`;
  const ada = { reference: `Patient/imp2-${run}` };
  const pdf = pdfOf(run);
  resources.push(
    { resourceType: 'Practitioner', id: `pr-${run}`, name: [{ family: 'Admin', given: ['Demo'] }], telecom: [{ system: 'email', value: ADMIN }] },
    { resourceType: 'Practitioner', id: `pr2-${run}`, name: [{ family: 'Locum', given: ['Lee'] }], telecom: [{ system: 'email', value: stranger }] },
    {
      resourceType: 'DocumentReference',
      id: `note-${run}`,
      status: 'current',
      docStatus: 'final',
      type: { text: 'DOCUMENT' },
      subject: ada,
      date: '2024-03-01T10:00:00Z',
      author: [{ reference: `Practitioner/pr-${run}` }],
      authenticator: { reference: `Practitioner/pr2-${run}` },
      description: `Discharge letter ${run}`,
      content: [{ attachment: { contentType: 'text/plain; charset=utf-8', data: Buffer.from('Discharge letter attached.').toString('base64') } }],
      context: { period: { start: '2024-03-01T10:00:00Z' } },
    },
    {
      resourceType: 'DocumentReference',
      id: `file-${run}`,
      status: 'current',
      type: { text: 'File' },
      subject: ada,
      date: '2024-03-01T10:00:00Z',
      description: `discharge-${run}.pdf`,
      content: [
        {
          attachment: { contentType: 'application/pdf', url: `files/imp2-${run}/discharge-${run}.pdf`, size: pdf.length, title: `discharge-${run}.pdf` },
        },
      ],
      context: { related: [{ reference: `DocumentReference/note-${run}` }], period: { start: '2024-03-01T10:00:00Z' } },
    },
    {
      resourceType: 'DocumentReference',
      id: `lost-${run}`,
      status: 'current',
      type: { text: 'File' },
      subject: ada,
      date: '2024-03-02T10:00:00Z',
      description: `scan-${run}.pdf`,
      content: [{ attachment: { contentType: 'application/pdf', url: `files/imp2-${run}/scan-${run}.pdf`, title: `scan-${run}.pdf` } }],
    },
  );
  const dir = join(mkdtempSync(join(tmpdir(), 'practice-import-')), `export-${run}`);
  mkdirSync(join(dir, 'files', `imp2-${run}`), { recursive: true });
  writeFileSync(join(dir, 'files', `imp2-${run}`, `discharge-${run}.pdf`), pdf);
  const byType = new Map<string, Json[]>();
  for (const r of resources) byType.set(r.resourceType, [...(byType.get(r.resourceType) ?? []), r]);
  for (const [type, list] of byType) writeFileSync(join(dir, `${type}.ndjson`), `${list.map((r) => JSON.stringify(r)).join('\n')}\n`);
  return { dir, family, second, pdf, stranger };
}

/** Patients of the practice whose name holds `q`, as the API finds them. */
async function patientsNamed(page: Page, q: string): Promise<number> {
  const { json } = await apiAs(page, 'GET', `/v1/patients?q=${encodeURIComponent(q)}`);
  return ((json.items ?? []) as unknown[]).length;
}

test('an admin checks a practice export with a dry run, imports it in Settings, is warned before leaving, resumes after a failure, and a second run adds nothing', async ({
  page,
}) => {
  test.setTimeout(480_000);
  const run = Date.now().toString(36);
  const { dir, family, second, pdf, stranger } = exportFolder(run);
  const broken = join(mkdtempSync(join(tmpdir(), 'practice-import-bad-')), 'Patient.ndjson');
  writeFileSync(broken, '{"resourceType":"Patient","id":"x"}\n{not json\n');

  await signIn(page, ADMIN, '/new-settings/data-import');
  await expect(page.getByRole('heading', { name: 'Practice data import (FHIR)' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Data import' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByText('The import runs in this browser tab: keep this page open until it finishes.', { exact: false })).toBeVisible();
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

  // The dry run, by keyboard: what would come in, whose notes match a user, which files are at hand; the practice is only read.
  const sent: string[] = [];
  const record = (req: { method(): string; url(): string }) =>
    void (req.url().includes('/v1/') && sent.push(`${req.method()} ${new URL(req.url()).pathname.replace(/^.*\/v1\//, '/v1/')}`));
  page.on('request', record);
  await page.getByRole('button', { name: 'Check export (dry run)' }).focus();
  await page.keyboard.press('Enter');
  const preview = page.getByRole('region', { name: 'Dry run: nothing was imported' });
  await expect(preview.getByRole('status')).toHaveText(/^Importing would bring in 2 patients and \d+ resources in \d+ requests; the practice was only read\.$/);
  page.off('request', record);
  expect(sent).toContain('GET /v1/practices/users');
  expect(sent.filter((r) => !r.startsWith('GET '))).toEqual([]);
  const byType = preview.getByRole('table', { name: 'Would import, by resource type' });
  await expect(byType.getByRole('row', { name: 'Condition 3' })).toBeVisible();
  await expect(byType.getByRole('row', { name: 'DocumentReference', exact: false })).toHaveText(/^DocumentReference\d+$/);
  const people = preview.getByRole('list', { name: 'Practitioners and the practice’s users' });
  await expect(people.getByRole('listitem').filter({ hasText: ADMIN })).toHaveText(`${ADMIN}: matched to a user by email`);
  await expect(people.getByRole('listitem').filter({ hasText: stranger })).toHaveText(
    new RegExp(`^${stranger.replace(/\./g, '\\.')}: no user with this email`),
  );
  const files = preview.getByRole('table', { name: '2 attached files named by the export; 1 not in the export picked (left out)' });
  await expect(files.getByRole('row', { name: `files/imp2-${run}/discharge-${run}.pdf Present` })).toBeVisible();
  await expect(files.getByRole('row', { name: `files/imp2-${run}/scan-${run}.pdf Missing` })).toBeVisible();
  expect(await patientsNamed(page, second)).toBe(0);
  await expect(page.getByRole('button', { name: 'Import 2 patients' })).toBeVisible();
  await expectAccessibleAtEach(page, 'settings: data import, dry run', {
    screenshot: (v) => `${SHOTS}/practice-import-dry-run-${v.width}.png`,
    fullPage: true,
  });

  // Started by keyboard, held while the first patient is sent: leaving asks first, and the run goes on.
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
  const importing = page.getByRole('status').filter({ hasText: `Importing… 1 of 2 patients: Marisol44 ${family}` });
  await expect(importing).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('progressbar', { name: 'Import progress' })).toBeVisible();
  await expect(page.getByText('Keep this page open: the import runs in this browser tab and stops if you leave or close it.')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Dry run: nothing was imported' })).toHaveCount(0);

  // Another screen of the app: the question, answered by keyboard; staying keeps the run.
  await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Data export' }).click();
  const leave = page.getByRole('alertdialog', { name: 'Leave while importing?' });
  await expect(leave).toContainText('leaving stops it after the patient being sent');
  await expectAccessibleAtEach(page, 'settings: data import, leave while importing');
  await page.keyboard.press('Escape');
  await expect(leave).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Practice data import (FHIR)' })).toBeVisible();
  await expect(importing).toBeVisible();

  // Closing or reloading the tab: the browser's own question first; dismissed, the page stays.
  const asked = page.waitForEvent('dialog');
  await page.close({ runBeforeUnload: true });
  const dialog = await asked;
  expect(dialog.type()).toBe('beforeunload');
  await dialog.dismiss();
  await expect(importing).toBeVisible();

  // Stopped while the first patient is sent: it stops after that patient.
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

  // Not running, leaving asks nothing: a reload keeps the progress, and the same folder resumes from the next patient.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Practice data import (FHIR)' })).toBeVisible();
  await page.getByLabel('Export folder', { exact: true }).setInputFiles(dir);
  await expect(page.getByText('An earlier import brought in 1 of 2 patients: importing carries on from the next patient.')).toBeVisible();

  // The network fails on the next patient: the screen says who failed and why, and offers to resume.
  await page.route('**/v1/practices/fhir-imports/patients', (route) => route.abort('internetdisconnected'), { times: 1 });
  await page.getByRole('button', { name: 'Resume import (1 left)' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Import finished: 0 new charts, 0 items added, .*; 1 patient failed\.$/ })).toBeVisible({
    timeout: 60_000,
  });
  await expect(page.getByRole('heading', { name: '1 patient failed; importing again retries them' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Patients that failed' }).getByRole('listitem')).toHaveText(
    `Ada ${second} (Patient/imp2-${run}): Network response was not ok`,
  );
  await expectAccessibleAtEach(page, 'settings: data import, failed');
  const resume = page.getByRole('button', { name: 'Resume import (1 left)' });
  await resume.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: /^Import finished: 1 new chart, \d+ items added, .*, 1 file\.$/ })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText('1 patient brought in by an earlier import was not sent again.')).toBeVisible();
  await expect(page.getByText('1 attached file named by the export was not among the files picked and is left out.')).toBeVisible();
  await expect(page.getByText(`Notes of ${ADMIN} are theirs again (matched by email).`)).toBeVisible();
  const adaRow = page.getByRole('row', { name: new RegExp(`Ada ${second} .* New chart`) });
  await expect(adaRow).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(`Marisol44 ${family}`) })).toHaveCount(0);

  // The note's PDF is in the imported chart, byte for byte.
  const href = await adaRow.getByRole('link').getAttribute('href');
  const patientId = /patients\/([^/?#]+)/.exec(href ?? '')?.[1];
  expect(patientId).toBeTruthy();
  const { json } = await apiAs(page, 'GET', `/v1/notes?patientId=${encodeURIComponent(patientId!)}`);
  const notes = json.notes as { noteType: string; data: { subject?: string }; files: { key: string; name: string }[] }[];
  const letter = notes.find((n) => n.data.subject === `Discharge letter ${run}`);
  expect(letter?.noteType).toBe('DOCUMENT');
  expect(letter?.files.map((f) => f.name)).toEqual([`discharge-${run}.pdf`]);
  const signed = await apiAs(page, 'GET', `/v1/s3/files?key=${encodeURIComponent(letter!.files[0]!.key)}`);
  const downloaded = await page.request.get(String(signed.json.signedUrl));
  expect(Buffer.compare(await downloaded.body(), pdf)).toBe(0);

  // Imported again: the server finds everything already here and adds nothing.
  await expect(page.getByText('All 2 patients of this export were brought in.', { exact: false })).toBeVisible();
  await page.getByRole('button', { name: 'Import again' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Import finished: 0 new charts, 0 items added, [1-9]\d* already here, / })).toBeVisible({
    timeout: 60_000,
  });
  const rows = page.getByRole('table', { name: 'Patients brought in' }).getByRole('row');
  await expect(rows.filter({ has: page.getByRole('cell', { name: 'Already here', exact: true }) })).toHaveCount(2);
  const again = await apiAs(page, 'GET', `/v1/notes?patientId=${encodeURIComponent(patientId!)}`);
  expect((again.json.notes as { files: unknown[] }[]).flatMap((n) => n.files)).toHaveLength(1);
  await expectAccessibleAtEach(page, 'settings: data import, finished', {
    screenshot: (v) => `${SHOTS}/practice-import-finished-${v.width}.png`,
    fullPage: true,
  });

  // The imported patients are in the practice: found by search, the chart holding what its export held.
  await expect.poll(() => patientsNamed(page, second), { timeout: 30_000 }).toBe(1);
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
