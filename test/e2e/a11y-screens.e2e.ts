import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { deliverySignature } from '../../functions/lib/http/signed-delivery.js';
import { expectAccessible, expectAccessibleAtEach, resizeTo, screenshotAtEach, VIEWPORTS } from './support/axe.js';
import { openChart, openNewestLabOrder } from './support/chart.js';
import { weeklyNewPatientVisits } from './support/calendar-booking.js';
import { labReportBundle } from './support/lab-bundle.js';
import { apiAs, PROVIDER, signIn, test } from './support/sign-in.js';

// Every screen, at a desktop and a phone size, has no WCAG 2.0/2.1 A or AA violation. Each test signs
// in, makes its data and opens each screen once, then checks it at both sizes in place. A test's time
// limit is what its two per-size runs had together: it makes the same axe scans, which take most of it.

/** Kept for these scans: every health-summary section of this patient is filled once. */
const FULL_CHART_PATIENT = 'pat-0015';

const NOTE_WINDOW_TYPES = ['Note', 'Phone Call', 'Email', 'Document', 'Vitals', 'SMS Log', 'Sticky Note', 'Sales', 'Lab Order'] as const;

async function fillEveryChartSection(page: Page, patientId: string): Promise<void> {
  const base = `/v1/patients/${patientId}`;
  const existing = (await apiAs(page, 'GET', `${base}/allergies`)).json as unknown as unknown[] | { items?: unknown[] };
  const count = Array.isArray(existing) ? existing.length : (existing.items?.length ?? 0);
  if (count > 0) return;
  const writes: [string, unknown][] = [
    ['allergies', { name: 'Penicillin', severity: 'severe', startDate: '01/02/2020', pinned: 1, description: 'Hives' }],
    ['diagnoses', { name: 'Type 2 diabetes', date: '03/2019', pinned: 0, icd10CodeId: 'E119' }],
    ['medications', { productName: 'Lisinopril', strength: '10', strengthUOM: 'mg', start: '2024-01-01' }],
    ['freeform-medications', { name: 'Fish oil' }],
    ['surgeries', { name: 'Appendectomy', date: '05/06/2010', description: 'Laparoscopic' }],
    ['family-history', { diagnosis: 'Hypertension', family: ['FTH', 'MTH'], pinned: 1, icd10CodeId: 'I10' }],
    ['social-history', { question: 'Tobacco use', answer: 'Never' }],
    ['general-groups', { name: 'Lifestyle', items: [{ name: 'Runs 3x/week', pinned: 1 }] }],
    ['vaccines/groups', { group: { name: 'Hepatitis B series' }, create: [{ name: 'Hep B', cvxCode: '43', date: '2024-01-01', doseNumber: 1 }] }],
  ];
  const note = await apiAs(page, 'POST', '/v2/notes', {
    noteType: 'NOTE',
    patientId,
    status: 'DRAFT',
    data: { text: 'Follow-up in two weeks' },
    eventTimestamp: new Date().toISOString(),
  });
  expect(note.status, 'seeding a note').toBeLessThan(300);
  // The allergy goes last: it marks the chart as filled for the next run.
  for (const [path, body] of [...writes.slice(1), writes[0]]) {
    const { status } = await apiAs(page, 'POST', `${base}/${path}`, body);
    expect(status, `seeding ${path}`).toBeLessThan(300);
  }
}

async function visit(page: Page, path: string, heading: string | RegExp): Promise<void> {
  await page.goto(`/#${path}`);
  await expect(page.getByRole('heading', { level: 1, name: heading }).first()).toBeVisible();
}

test(`every screen has no WCAG 2.1 A/AA violation at 1280×800 and 390×844`, async ({ page }) => {
  // 40 axe scans: over 7 minutes on a busy machine.
  test.setTimeout(600_000);
  await page.goto('/#/home');
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible({ timeout: 45_000 });
  await expectAccessibleAtEach(page, 'sign-in');

  await signIn(page, PROVIDER, '/home');
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await expectAccessibleAtEach(page, 'dashboard /home');

  await page.getByRole('button', { name: /^Search/ }).click();
  const palette = page.getByRole('dialog');
  await expect(palette.getByRole('searchbox').or(palette.getByRole('combobox')).first()).toBeVisible();
  await page.keyboard.type('Mar');
  await expect(palette.getByRole('menuitem').first()).toBeVisible();
  await expectAccessibleAtEach(page, 'command palette open');
  // The first Escape clears the search (a search box's own Escape), the next closes the palette.
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await expect(palette).toHaveCount(0);

  await visit(page, '/patients', 'Patients');
  await expectAccessibleAtEach(page, 'patients list');
  await visit(page, '/patients/new', /patient/i);
  await expectAccessibleAtEach(page, 'new patient form');

  await fillEveryChartSection(page, FULL_CHART_PATIENT);
  await openChart(page, FULL_CHART_PATIENT);
  await expect(page.getByText('Penicillin').first()).toBeVisible();
  await expect(page.getByText('Hepatitis B series').first()).toBeVisible();
  await expectAccessibleAtEach(page, 'chart with every section filled');

  for (const type of NOTE_WINDOW_TYPES) {
    await page.getByRole('button', { name: 'New interaction' }).click();
    await page.getByRole('menuitem', { name: type, exact: true }).click();
    const win = page.locator('.tw-note-window').last();
    await expect(win.getByRole('heading', { name: new RegExp(`^${type} · `) })).toBeVisible();
    await expectAccessibleAtEach(page, `${type} note window`);
    await win.getByRole('button', { name: 'Close note' }).click();
    const confirm = page.getByRole('alertdialog');
    if (await confirm.isVisible()) await confirm.getByRole('button', { name: 'Close without saving' }).click();
    await expect(page.locator('.tw-note-window')).toHaveCount(0);
  }

  await visit(page, '/tasks', /Tasks/);
  await expectAccessibleAtEach(page, 'my tasks');
  await visit(page, '/tasks/all', /Tasks/);
  await expectAccessibleAtEach(page, 'all tasks');
  const task = await apiAs(page, 'POST', '/v1/tasks', {
    text: 'Call back about the lab panel',
    dueOn: '2030-01-15',
    urgent: true,
    patientId: FULL_CHART_PATIENT,
  });
  expect(task.status).toBe(201);
  await visit(page, `/tasks/${String(task.json.ident)}`, /.+/);
  await expect(page.getByText('Call back about the lab panel').first()).toBeVisible();
  await expectAccessibleAtEach(page, 'task');

  await visit(page, '/new-settings/practice-metadata', /.+/);
  await expectAccessibleAtEach(page, 'settings: practice');
  await visit(page, '/new-settings/team', /.+/);
  await expectAccessibleAtEach(page, 'settings: team');
  await page.getByRole('link', { name: 'Hannah Cole' }).click();
  await expect(page.getByRole('textbox', { name: 'NPI' })).toBeVisible();
  await expectAccessibleAtEach(page, 'settings: team member');
  await visit(page, '/new-settings/templates', /.+/);
  await expectAccessibleAtEach(page, 'settings: templates');
  await visit(page, '/new-settings/templates/new', /.+/);
  await expectAccessibleAtEach(page, 'settings: new template');

  await page.goto('/#/patients/no-such-patient');
  await expect(page.getByText('Sorry, we were unable to find what you were looking for.')).toBeVisible();
  await expectAccessibleAtEach(page, '404');
});

test(`an admin's patient access history has no WCAG 2.1 A/AA violation at 1280×800 and 390×844`, async ({ page }) => {
  await signIn(page, 'admin@demo.tidewell.local', `/patients/${FULL_CHART_PATIENT}/access-history`);
  await expect(page.getByRole('heading', { level: 1, name: 'Access history' })).toBeVisible();
  // The admin's own read of the chart is the newest entry.
  await expect(page.getByRole('table').or(page.getByRole('list')).first()).toBeVisible();
  await expectAccessibleAtEach(page, 'patient access history');
});

test(`Settings > Data export has no WCAG 2.1 A/AA violation at 1280×800 and 390×844`, async ({ page }) => {
  await signIn(page, 'admin@demo.tidewell.local', '/new-settings/data-export');
  await expect(page.getByRole('heading', { name: 'Practice data export (FHIR)' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Export all practice data' })).toBeVisible();
  // Running, stopped and ready states are checked where they are made: test/e2e/fhir-bulk.e2e.ts.
  await expectAccessibleAtEach(page, 'settings: data export');
});

test(`the chart's record transfer and the FHIR import preview have no WCAG 2.1 A/AA violation at 1280×800 and 390×844`, async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, PROVIDER);
  await fillEveryChartSection(page, FULL_CHART_PATIENT);
  const exported = await apiAs(page, 'GET', `/v1/patients/${FULL_CHART_PATIENT}/fhir-export`);
  expect(exported.status).toBe(200);
  const zip = Buffer.from(await (await page.request.get(String(exported.json.url))).body());
  const dir = mkdtempSync(join(tmpdir(), 'fhir-'));
  writeFileSync(join(dir, 'chart.zip'), zip);
  await openChart(page, FULL_CHART_PATIENT);
  const transfer = page.getByRole('region', { name: 'Record transfer' });
  await transfer.scrollIntoViewIfNeeded();
  await expect(transfer.getByRole('button', { name: 'Export chart (FHIR)' })).toBeVisible();
  await expectAccessibleAtEach(page, 'chart record transfer');
  await transfer.getByRole('button', { name: 'Import FHIR bundle' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import FHIR bundle' });
  await dialog.getByLabel('Choose a FHIR export (.zip or .json)').setInputFiles(join(dir, 'chart.zip'));
  await expect(dialog.getByRole('table')).toBeVisible();
  await expectAccessibleAtEach(page, 'FHIR import preview');
  await page.keyboard.press('Escape');
});

test(`an imported lab report's note window has no WCAG 2.1 A/AA violation at 1280×800 and 390×844`, async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, PROVIDER);
  const run = Date.now().toString(36);
  const created = await apiAs(page, 'POST', '/v1/patients', { firstName: 'Lena', lastName: `Labaxe${run}`, gender: 'female', dob: '1968-09-12' });
  const patientId = String(created.json.id);
  const imported = await apiAs(page, 'POST', `/v1/patients/${patientId}/fhir-import`, { bundle: await labReportBundle(run) });
  expect(imported.json.added).toBe(1);
  await openChart(page, patientId);
  // The chart's notes list shows signed notes of one type: lab orders.
  await openNewestLabOrder(page);
  const win = page.getByRole('dialog', { name: /^Lab Order · Lena Labaxe/ });
  await expect(win.getByRole('table', { name: 'Basic metabolic panel' })).toBeVisible();
  await expect(win.locator('[data-viewer="pdf"] canvas[aria-label="bmp-report.pdf, page 1 of 1"]')).toBeVisible({ timeout: 30_000 });
  await expectAccessibleAtEach(page, 'imported lab note', {
    screenshot: (v) => `test-results/screenshots/fhir/lab-imported-note-${v.name}.png`,
    fullPage: true,
  });
});

/** The Garcia family's shared home phone (four demo patients) and the demo practice's number. */
const SHARED_PHONE = '+13055550142';
const PRACTICE_PHONE = '+15415550100';

test(`the Communication screens have no WCAG 2.1 A/AA violation at 1280×800 and 390×844`, async ({ page }) => {
  test.setTimeout(480_000);
  await signIn(page, PROVIDER, '/home');

  const opened = await apiAs(page, 'POST', '/v1/messaging/conversations', { patientPhoneNumber: SHARED_PHONE, practicePhoneNumber: PRACTICE_PHONE });
  expect(opened.status, 'opening the conversation').toBeLessThan(300);
  const conversationId = String((opened.json.conversation as { conversationId: string }).conversationId);
  const sent = await apiAs(page, 'POST', `/v1/messaging/conversations/${conversationId}/messages`, { text: 'Your flu shots are due this month.' });
  expect(sent.status, 'sending a text').toBeLessThan(300);
  const event = await apiAs(page, 'POST', '/v1/scheduled-events', {
    when: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    eventType: 'createScheduledNote',
    service: 'notes',
    operationId: 'createNote',
    operationVersion: 'v2',
    invocations: 1,
    request: { noteType: 'SMS', patientId: 'pat-0007', data: { from: PRACTICE_PHONE, to: SHARED_PHONE, text: 'Reminder: clinic closed Friday.' } },
  });
  expect(event.status, 'scheduling a text').toBeLessThan(300);

  await visit(page, '/messages?view=read', 'Communication');
  await expect(page.getByTestId('conversation').first()).toBeVisible();
  await expectAccessibleAtEach(page, 'messages hub', { screenshot: (v) => `test-results/screenshots/messages/a11y-hub-${v.width}.png` });

  await visit(page, `/messages/sms/${encodeURIComponent(SHARED_PHONE)}/${encodeURIComponent(PRACTICE_PHONE)}`, /Garcia/);
  await expect(page.getByTestId('sms-message').first()).toBeVisible();
  await page.getByTestId('sms-message').first().getByRole('button').click();
  await page.getByRole('button', { name: /scheduled message/ }).click();
  await page.getByRole('button', { name: 'Message tools' }).click();
  await page.getByRole('button', { name: 'Select Messages' }).click();
  await expectAccessibleAtEach(page, 'SMS chat with toolbar, select mode and scheduled row', {
    screenshot: (v) => `test-results/screenshots/messages/a11y-chat-${v.width}.png`,
    fullPage: true,
  });

  await visit(page, '/messages/sms', 'New message');
  await expectAccessibleAtEach(page, 'new SMS message', { screenshot: (v) => `test-results/screenshots/messages/a11y-new-${v.width}.png` });

  await visit(page, `/messages/scheduled/new?noteType=SMS&patientId=pat-0007&from=${encodeURIComponent(PRACTICE_PHONE)}&text=Hello`, 'Send Later');
  await expectAccessibleAtEach(page, 'Send Later');

  await visit(page, `/messages/scheduled/${String(event.json.eventId)}`, 'Scheduled message');
  await expectAccessibleAtEach(page, 'scheduled message', { screenshot: (v) => `test-results/screenshots/messages/a11y-scheduled-${v.width}.png` });

  await visit(page, `/messages/legacy/sms/${encodeURIComponent(SHARED_PHONE)}/${encodeURIComponent(PRACTICE_PHONE)}`, /SMS history/);
  await expect(page.getByTestId('sms-message').first()).toBeVisible();
  await expectAccessibleAtEach(page, 'legacy SMS view');
});

test(`the ePHI waiver banner and an SMS note in the chart have no WCAG 2.1 A/AA violation at 1280×800 and 390×844`, async ({ page }) => {
  test.setTimeout(240_000);
  await signIn(page, PROVIDER, '/home');
  // Noah Feldman (pat-0012) has not signed the waiver.
  await visit(page, `/messages/sms/${encodeURIComponent('+12125550112')}/${encodeURIComponent(PRACTICE_PHONE)}`, /Noah Feldman/);
  const accept = page.getByRole('button', { name: "Accept on patient's behalf" });
  await expect(accept).toBeDisabled();
  await page.getByRole('button', { name: 'Read to Accept' }).click();
  await expect(page.getByRole('button', { name: 'Read to Accept' })).toHaveAttribute('aria-expanded', 'true');
  await expect(accept).toBeEnabled();
  await expectAccessibleAtEach(page, 'ePHI waiver banner expanded');

  // Each run's own text, so the note found is the one this run made.
  const text = `Is the clinic open on Saturday? (${Date.now().toString(36)})`;
  const note = await apiAs(page, 'POST', '/v2/notes', {
    noteType: 'SMS',
    status: 'DELIVERED',
    patientId: FULL_CHART_PATIENT,
    eventTimestamp: new Date().toISOString(),
    data: { from: '+15125550115', to: PRACTICE_PHONE, text },
  });
  expect(note.status).toBeLessThan(300);
  await openChart(page, FULL_CHART_PATIENT);
  await page.getByRole('button', { name: / Type$/ }).click();
  await page.getByRole('option', { name: 'SMS', exact: true }).click();
  await page.getByRole('button', { name: / Status$/ }).click();
  await page.getByRole('option', { name: 'Delivered', exact: true }).click();
  await page
    .getByRole('button', { name: new RegExp(text.replace(/[?()]/g, '\\$&')) })
    .first()
    .click();
  const win = page.locator('.tw-note-window').last();
  await expect(win.getByText(text)).toBeVisible();
  await win.getByRole('button', { name: 'Select Messages' }).click();
  await expect(win.getByRole('checkbox', { name: new RegExp(text.replace(/[?()]/g, '\\$&')) })).toBeVisible();
  await expectAccessibleAtEach(page, 'SMS note window in select mode', { screenshot: (v) => `test-results/screenshots/messages/a11y-sms-note-${v.width}.png` });
});

test(`the Copilot window has no WCAG 2.1 A/AA violation at 1280×800 and 390×844`, async ({ page }) => {
  test.setTimeout(240_000);
  await signIn(page, 'admin@demo.tidewell.local', '/home');
  expect((await apiAs(page, 'PUT', '/v1/practices/feature-gates', { flags: { tidewell_copilot: true, ai_streaming: true } })).status).toBe(200);
  await page.reload();
  await openChart(page, FULL_CHART_PATIENT);
  await page.keyboard.press('Control+K');
  await page.keyboard.type('New Interaction');
  await page.getByRole('menuitem', { name: 'New Interaction', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Copilot', exact: true }).click();
  const win = page.getByRole('dialog', { name: /^Copilot Chat - / });
  await expect(win.getByText('How can I help you?')).toBeVisible();
  await expectAccessibleAtEach(page, 'Copilot window');
  const input = win.getByRole('textbox', { name: 'Message Copilot' });
  await input.fill('Which allergies?');
  await input.press('Enter');
  await expect(win.locator('.tw-copilot__message--assistant').last()).toContainText('You asked: "Which allergies?"');
  await win.getByRole('button', { name: 'Chat history' }).click();
  await expect(win.getByRole('button', { name: 'Which allergies?' }).first()).toBeVisible();
  await expectAccessibleAtEach(page, 'Copilot window with its history and a reply', {
    screenshot: (v) => `test-results/screenshots/copilot/a11y-${v.width}.png`,
  });
});

test.describe('on a touch screen', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('chart cards offer an Edit button instead of the double-click hint', async ({ page }) => {
    await signIn(page, PROVIDER, '/home');
    await fillEveryChartSection(page, FULL_CHART_PATIENT);
    await openChart(page, FULL_CHART_PATIENT);
    await expect(page.getByText('Double-click a card to edit it.')).toHaveCount(0);
    const penicillin = page.getByRole('region', { name: 'Allergies', exact: true }).getByRole('listitem', { name: 'Penicillin' });
    await penicillin.getByRole('button', { name: 'Edit Penicillin' }).tap();
    await expect(page.getByRole('dialog', { name: 'Edit Allergy' }).getByRole('textbox', { name: 'Name' })).toHaveValue('Penicillin');
    await page.screenshot({ path: 'test-results/screenshots/a11y/07-touch-edit-allergy.png' });
  });
});

/** Signs a Veradigm or Thea delivery as the outside system does (README "Partner apps"). */
async function importExternalNote(page: Page, source: 'veradigm' | 'thea', body: Record<string, unknown>): Promise<void> {
  const secrets = JSON.parse(readFileSync(join(process.env.TIDEWELL_E2E_DATA_DIR!, 'partner-secrets.json'), 'utf8')) as Record<string, string>;
  const raw = JSON.stringify(body);
  const timestamp = String(Math.floor(Date.now() / 1000));
  const res = await page.request.post(`/api/v1/partner-deliveries/${source}/notes`, {
    headers: {
      'content-type': 'application/json',
      'x-tidewell-timestamp': timestamp,
      'x-tidewell-signature': deliverySignature(secrets[source]!, timestamp, raw),
    },
    data: raw,
  });
  expect(res.status(), `importing a ${source} note`).toBeLessThan(300);
}

test(`partner windows, outside notes and partner app settings have no WCAG 2.1 A/AA violation at 1280×800 and 390×844`, async ({ page }) => {
  test.setTimeout(360_000);
  await signIn(page, 'admin@demo.tidewell.local', '/home');
  const run = String(Date.now());
  await importExternalNote(page, 'veradigm', {
    deliveryId: `a11y-rx-${run}`,
    patientId: FULL_CHART_PATIENT,
    status: 'SENT',
    eventTimestamp: new Date().toISOString(),
    prescription: {
      id: `rx-${run}`,
      medicationName: 'Amoxicillin 500 mg capsule',
      strength: '500 mg',
      instructions: 'One capsule three times a day',
      quantityPrescribed: 30,
      numberOfRefills: 0,
      providerName: 'Dr. Remote',
      pharmacy: { name: 'Main St Pharmacy', address: { city: 'Eugene', state: 'OR' } },
    },
  });
  await importExternalNote(page, 'thea', {
    deliveryId: `a11y-ec-${run}`,
    patientId: FULL_CHART_PATIENT,
    status: 'DELIVERED',
    eventTimestamp: new Date().toISOString(),
    econsult: {
      id: `ec-${run}`,
      specialty: 'Dermatology',
      question: 'Rash on both forearms for two weeks?',
      answer: 'Contact dermatitis; try a mild steroid cream.',
    },
  });
  await openChart(page, FULL_CHART_PATIENT);

  await page.getByRole('button', { name: 'New interaction' }).click();
  await page.getByRole('menuitem', { name: 'Care Plan Builder (local partner)' }).click();
  const partner = page.locator('.tw-note-window').last();
  await expect(page.frameLocator('.tw-partner-frame').getByRole('button', { name: 'Save care plan' })).toBeVisible();
  await expectAccessibleAtEach(page, 'partner app note window');
  await partner.getByRole('button', { name: 'Close note' }).click();
  await expect(page.locator('.tw-note-window')).toHaveCount(0);

  for (const [type, status, text] of [
    ['Prescription (Veradigm)', 'Sent', 'Amoxicillin 500 mg capsule'],
    ['eConsult', 'Delivered', 'Contact dermatitis; try a mild steroid cream.'],
  ] as const) {
    await page.getByRole('button', { name: / Type$/ }).click();
    await page.getByRole('option', { name: type, exact: true }).click();
    await page.getByRole('button', { name: / Status$/ }).click();
    await page.getByRole('option', { name: status, exact: true }).click();
    await page.getByRole('list', { name: 'Notes' }).getByRole('button').first().click();
    const win = page.locator('.tw-note-window').last();
    await expect(win.getByText(text)).toBeVisible();
    await expectAccessibleAtEach(page, `${type} note window`, {
      screenshot: (v) => `test-results/screenshots/partners-external-${type.replace(/\W+/g, '-')}-${v.width}.png`,
    });
    await win.getByRole('button', { name: 'Close note' }).click();
    await expect(page.locator('.tw-note-window')).toHaveCount(0);
  }

  await visit(page, '/new-settings/partner-apps', /.+/);
  await expect(page.getByRole('table', { name: 'Partner apps' })).toBeVisible();
  await expectAccessibleAtEach(page, 'settings: partner apps');
  await page.getByRole('button', { name: 'Add partner app' }).click();
  await expect(page.getByRole('textbox', { name: 'App id' })).toBeVisible();
  await expectAccessibleAtEach(page, 'settings: new partner app', { screenshot: (v) => `test-results/screenshots/partners-settings-${v.width}.png` });
});

test(`the chart's membership menu and windows (framed local membership stand-in) have no WCAG 2.1 A/AA violation at 1280×800 and 390×844`, async ({ page }) => {
  test.setTimeout(240_000);
  await signIn(page, PROVIDER, '/home');
  await openChart(page, FULL_CHART_PATIENT);
  // The chart's layout differs between the sizes: the menu is walked by keyboard at each.
  for (const viewport of VIEWPORTS) {
    await resizeTo(page, viewport);
    const at = (screen: string) => `${screen} (${viewport.name} ${viewport.width}px)`;
    for (const [item, button] of [
      ['Open membership', 'Open membership'],
      ['Create charges', 'Create charge'],
      ['Create user', 'Create user'],
    ] as const) {
      // By keyboard: the menu button, the item, then Close.
      await page.getByRole('button', { name: 'Membership', exact: true }).focus();
      await page.keyboard.press('Enter');
      const menuItem = page.getByRole('menuitem', { name: item });
      await expect(menuItem).toBeVisible();
      if (item === 'Open membership') await expectAccessible(page, at('membership menu'));
      while (!(await menuItem.evaluate((el) => el === document.activeElement))) await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      const win = page.getByRole('dialog', { name: `${item} (local membership stand-in)` });
      await expect(page.frameLocator('.tw-membership-window__frame').getByRole('button', { name: button })).toBeVisible();
      await expectAccessible(page, at(`membership window: ${item}`));
      await page.screenshot({ path: `test-results/screenshots/a11y/membership-${item.replace(/\W+/g, '-').toLowerCase()}-${viewport.width}.png` });
      await win.getByRole('button', { name: 'Close', exact: true }).press('Enter');
      await expect(win).toHaveCount(0);
    }
  }
});

/** Spoken by flite for the scribe's panels; a file with a .wav name that holds no audio fails the run. */
function scribeAudio(): { visit: string; corrupt: string } {
  const dir = mkdtempSync(join(tmpdir(), 'tidewell-a11y-scribe-'));
  const visit = join(dir, 'visit.wav');
  execFileSync('flite', [
    '-voice',
    'slt',
    '-t',
    'The patient reports a cough for two days. Start ibuprofen four hundred milligrams. Follow up in one week.',
    '-o',
    visit,
  ]);
  const corrupt = join(dir, 'corrupt.wav');
  writeFileSync(corrupt, 'RIFF this is not audio');
  return { visit, corrupt };
}

test(`the AI scribe's panels have no WCAG 2.1 A/AA violation at 1280×800 and 390×844`, async ({ page, sessions }) => {
  test.setTimeout(480_000);
  const audio = scribeAudio();
  const admin = await sessions.open('admin@demo.tidewell.local');
  const flags = await apiAs(admin, 'GET', '/v1/practices/feature-gates');
  const previous = (flags.json.flags as Record<string, boolean>).tidewell_copilot === true;
  expect((await apiAs(admin, 'PUT', '/v1/practices/feature-gates', { flags: { tidewell_copilot: true } })).status).toBe(200);
  try {
    await signIn(page, PROVIDER, `/patients/pat-0036`);
    await openChart(page, 'pat-0036');
    const newNote = async () => {
      await page.getByRole('button', { name: 'New interaction' }).click();
      await page.getByRole('menuitem', { name: 'Note', exact: true }).click();
      const noteId = await page.locator('.tw-note-window').last().getAttribute('data-note-id');
      const win = page.locator(`.tw-note-window[data-note-id="${noteId}"]`);
      await win.getByRole('button', { name: 'AI Copilot' }).click();
      await expect(win.getByRole('region', { name: 'Recording' })).toBeVisible();
      return win;
    };

    const failing = await newNote();
    await expectAccessibleAtEach(page, 'recording panel');
    await failing.getByRole('button', { name: 'Upload audio instead' }).click();
    const input = failing.getByLabel(/^Audio file/);
    await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not audio') });
    await expect(input).toHaveAttribute('aria-invalid', 'true');
    await expectAccessibleAtEach(page, 'audio upload, invalid file');
    await input.setInputFiles(audio.corrupt);
    await failing.getByRole('button', { name: 'Next' }).click();
    await expect(failing.getByRole('region', { name: 'Choose templates' })).toBeVisible();
    await expectAccessibleAtEach(page, 'template choice');
    await failing.getByRole('button', { name: 'Generate' }).click();
    await expect(failing.getByRole('heading', { name: 'AI Note Creation Unsuccessful' })).toBeVisible({ timeout: 120_000 });
    await expectAccessibleAtEach(page, 'transcription failed');
    await failing.getByRole('button', { name: 'Dismiss' }).click();
    await failing.getByRole('button', { name: 'Close note' }).click();
    const confirm = page.getByRole('alertdialog');
    if (await confirm.isVisible()) await confirm.getByRole('button', { name: 'Close without saving' }).click();

    const win = await newNote();
    await win.getByRole('button', { name: 'Upload audio instead' }).click();
    await win.getByLabel(/^Audio file/).setInputFiles(audio.visit);
    await win.getByRole('button', { name: 'Next' }).click();
    await win.getByRole('button', { name: 'Generate' }).click();
    await expect(win.getByRole('region', { name: 'Creating the note' })).toBeVisible();
    await expectAccessibleAtEach(page, 'transcription progress');
    const evidence = win.getByRole('region', { name: 'Evidence from the visit' });
    await expect(evidence).toBeVisible({ timeout: 180_000 });
    await evidence
      .getByRole('button', { name: /ibuprofen/i })
      .first()
      .click();
    await expect(evidence.getByRole('region', { name: 'Transcript lines' })).toBeVisible();
    await expectAccessibleAtEach(page, 'note evidence and chart updates');
  } finally {
    await apiAs(admin, 'PUT', '/v1/practices/feature-gates', { flags: { tidewell_copilot: previous } });
  }
});

test(`the Medications screens and the In-house Prescription window have no WCAG 2.1 A/AA violation at 1280×800 and 390×844`, async ({ page }) => {
  test.setTimeout(360_000);
  await signIn(page, PROVIDER, '/inventory/list');
  await expect(page.getByRole('table', { name: 'Inventory' })).toBeVisible({ timeout: 45_000 });
  await expectAccessibleAtEach(page, 'inventory list');
  await visit(page, '/inventory/inv-prednisone-10', 'Medications');
  await expect(page.getByRole('table', { name: 'Stock history' }).or(page.getByText('No stock changes yet.'))).toBeVisible();
  await expectAccessibleAtEach(page, 'inventory item');
  await visit(page, '/inventory/new', 'Medications');
  await expect(page.getByRole('heading', { name: 'New inventory item' })).toBeVisible();
  await expectAccessibleAtEach(page, 'new inventory item', { screenshot: (v) => `test-results/screenshots/rx-inventory-new-${v.width}.png`, fullPage: true });

  await openChart(page, 'pat-0007');
  await page.getByRole('button', { name: 'New interaction' }).click();
  await page.getByRole('menuitem', { name: 'In-house Prescription', exact: true }).click();
  const win = page.locator('.tw-note-window').last();
  await expect(win.getByRole('button', { name: /Medication/ })).toBeVisible();
  await expectAccessibleAtEach(page, 'In-house Prescription note window', { screenshot: (v) => `test-results/screenshots/rx-window-${v.width}.png` });
});

/** The chat attachment viewer: a picture's 250 px thumbnail, another file's download card, and the picture opened. */
test(`the SMS chat's attachments have no WCAG 2.1 A/AA violation at 1280×800 and 390×844`, async ({ page }) => {
  test.setTimeout(240_000);
  const stamp = Date.now().toString(36);
  await signIn(page, PROVIDER, `/messages/sms/${encodeURIComponent('+14045550113')}/${encodeURIComponent(PRACTICE_PHONE)}`);
  await expect(page.getByRole('heading', { level: 1, name: /Imani Johnson/ })).toBeVisible();
  const plus = page.getByRole('button', { name: 'Message tools' });
  if ((await plus.getAttribute('aria-expanded')) !== 'true') await plus.click();
  // The practice drive as the composer's picker, opened by keyboard.
  await page.getByText('Select Practice Files in the Cloud').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Double click a file to add it')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Refresh' })).toBeVisible();
  await expectAccessibleAtEach(page, 'SMS composer with the practice files picker');
  await page.keyboard.press('Enter');
  await expect(page.getByText('Double click a file to add it')).toBeHidden();
  await page
    .locator('input[type=file]')
    .setInputFiles([join(process.cwd(), 'test/fixtures/files/wound-photo.jpg'), join(process.cwd(), 'test/fixtures/files/follow-up.ics')]);
  await page.getByPlaceholder('Type message...').fill(`Photo and visit ${stamp}`);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  const attachments = page
    .getByTestId('sms-message')
    .filter({ hasText: `Photo and visit ${stamp}` })
    .getByRole('list', { name: 'Attachments' });
  const thumbnail = attachments.getByRole('button', { name: 'wound-photo.jpg' });
  await thumbnail.scrollIntoViewIfNeeded();
  await expect(thumbnail).toHaveAttribute('data-state', 'ready');
  await expect(attachments.getByRole('button', { name: 'Download follow-up.ics' })).toBeVisible();
  await expectAccessibleAtEach(page, 'SMS chat attachments', { screenshot: (v) => `test-results/screenshots/messages/a11y-attachments-${v.width}.png` });
  await thumbnail.focus();
  await page.keyboard.press('Enter');
  const viewer = page.getByRole('dialog', { name: 'wound-photo.jpg' });
  await expect(viewer.getByRole('img', { name: 'wound-photo.jpg' })).toBeVisible();
  await expectAccessibleAtEach(page, 'SMS chat attachment opened');
  await page.keyboard.press('Escape');
  await expect(viewer).toBeHidden();
});

/** The File Drive, its viewer window with each viewer, the delete confirmation and the new-folder form. */
test(`the File Drive and its viewers have no WCAG 2.1 A/AA violation at 1280×800 and 390×844`, async ({ page }) => {
  test.setTimeout(480_000);
  const fixtures = [
    'lab-report.pdf',
    'glucose-log.csv',
    'vitals.xlsx',
    'referral.docx',
    'wound-photo.jpg',
    'phone-photo.heic',
    'exam-room-360.jpg',
    'heart-sounds.wav',
    'gait-video.webm',
    'follow-up.ics',
    'continuity-of-care.xml',
    'broken-ccd.xml',
    'visit-notes.txt',
  ];
  const folder = `A11y ${Date.now().toString(36)}`;
  await signIn(page, PROVIDER, '/files');
  await expect(page.getByRole('heading', { level: 1, name: 'File Drive' })).toBeVisible();
  await page.getByRole('button', { name: 'New folder' }).click();
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText('Folder name is required')).toBeVisible();
  await expectAccessibleAtEach(page, 'drive, new folder');
  await page.getByLabel('Folder name').fill(folder);
  await page.getByRole('button', { name: 'Create' }).click();
  await page.getByRole('button', { name: folder, exact: true }).click();
  await page.getByLabel('Files to upload').setInputFiles(fixtures.map((f) => join(process.cwd(), 'test/fixtures/files', f)));
  for (const name of fixtures) await expect(page.getByRole('button', { name, exact: true })).toBeVisible({ timeout: 30_000 });
  await expectAccessibleAtEach(page, 'drive folder', { screenshot: (v) => `test-results/screenshots/files/a11y-drive-${v.width}.png` });

  for (const name of fixtures) {
    await page.getByRole('button', { name, exact: true }).click();
    const dialog = page.getByRole('dialog', { name });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('status', { name: 'Loading file' })).toHaveCount(0);
    await expect(dialog.locator('[data-state=loading]')).toHaveCount(0);
    const kept = name.endsWith('.xml') || name.endsWith('.xlsx') || name.endsWith('.pdf');
    await expectAccessibleAtEach(page, `viewer ${name}`, kept ? { screenshot: (v) => `test-results/screenshots/files/a11y-${name}-${v.width}.png` } : {});
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
  }

  await page.getByRole('checkbox', { name: 'Select visit-notes.txt' }).check();
  await page.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('alertdialog')).toBeVisible();
  await expectAccessibleAtEach(page, 'delete file confirmation');
});

test(`the lab order window, the lab results and the trend have no WCAG 2.1 A/AA violation at 1280×800 and 390×844, and a lab is ordered by keyboard alone`, async ({
  page,
  sessions,
}) => {
  test.setTimeout(360_000);
  const admin = await sessions.open('admin@demo.tidewell.local');
  const flags = (await apiAs(admin, 'GET', '/v1/practices/feature-gates')).json.flags as Record<string, boolean>;
  expect((await apiAs(admin, 'PUT', '/v1/practices/feature-gates', { flags: { trending_labs: true } })).status).toBe(200);
  try {
    await signIn(page, PROVIDER, '/home');
    await openChart(page, 'pat-0004');
    await page.getByRole('button', { name: 'New interaction' }).click();
    await page.getByRole('menuitem', { name: 'Lab Order', exact: true }).click();
    const win = page.getByRole('dialog', { name: /^Lab Order · / });
    await expect(win.getByRole('button', { name: 'Order lab' })).toBeVisible();
    await expectAccessibleAtEach(page, 'lab order window');
    // By keyboard: the first test's checkbox, Space, then Tab to Order lab and Enter. Ordering is
    // done once (each order adds a lab note); both sizes' screens are checked on its results.
    await win.getByRole('checkbox', { name: 'Comprehensive metabolic panel (CMP)' }).focus();
    await page.keyboard.press('Space');
    await expect(win.getByRole('checkbox', { name: 'Comprehensive metabolic panel (CMP)' })).toBeChecked();
    await win.getByRole('button', { name: 'Order lab' }).focus();
    await page.keyboard.press('Enter');
    await expect(win.frameLocator('iframe').getByRole('heading', { name: 'Order submitted!' })).toBeVisible();
    await expect(win).toHaveCount(0, { timeout: 10_000 });
    await expect(page.getByRole('alertdialog', { name: 'New lab results' })).toBeVisible({ timeout: 30_000 });
    await openNewestLabOrder(page, { delivered: true });
    const lab = page.getByRole('dialog', { name: /^Lab Order · / });
    await expect(lab.getByRole('table', { name: 'Comprehensive metabolic panel (CMP)' })).toBeVisible({ timeout: 30_000 });
    await expectAccessibleAtEach(page, 'lab results');
    await lab.getByRole('button', { name: 'Trend of Glucose' }).focus();
    await page.keyboard.press('Enter');
    const trend = page.getByRole('dialog', { name: 'Glucose over time' });
    await expect(trend.getByRole('table')).toBeVisible();
    await expectAccessibleAtEach(page, 'lab trend');
    await page.keyboard.press('Escape');
    await expect(trend).toHaveCount(0);
  } finally {
    await apiAs(admin, 'PUT', '/v1/practices/feature-gates', { flags: { trending_labs: flags.trending_labs === true } });
  }
});

test(`DoseSpot's local stand-in window has no WCAG 2.1 A/AA violation at 1280×800 and 390×844`, async ({ page }) => {
  await signIn(page, PROVIDER, '/home');
  const { ssoUrl } = (await apiAs(page, 'GET', '/v2/practices/sso/dosespot?patientId=pat-0021')).json as { ssoUrl: string };
  await page.goto(ssoUrl);
  await expect(page.getByRole('heading', { level: 1, name: /DoseSpot \(local stand-in\)/ })).toBeVisible();
  await expectAccessibleAtEach(page, 'DoseSpot stand-in window', {
    screenshot: (v) => `test-results/screenshots/dosespot-window-${v.width}.png`,
    fullPage: true,
  });
  const refused = new URL(ssoUrl);
  refused.searchParams.set('SingleSignOnClinicId', '1');
  await page.goto(refused.href);
  await expect(page.getByRole('alert')).toBeVisible();
  await expectAccessibleAtEach(page, 'DoseSpot stand-in refusal');
});

/** The calendar's five views and its booking dialog, with a weekly appointment on them. */
test(`the Calendar views, the booking dialog and the calendar settings have no WCAG 2.1 A/AA violation at 1280×800 and 390×844`, async ({ page, sessions }) => {
  test.setTimeout(360_000);
  await signIn(page, PROVIDER, '/calendar?date=2027-05-06&view=week');
  const me = (await apiAs(page, 'GET', '/v1/practices/users/me')).json;
  const booked = await apiAs(page, 'POST', '/v1/appointments', weeklyNewPatientVisits(String(me.userId), '2027-05-06T15:00:00.000Z', 60));
  expect(booked.status, 'booking the appointment the views show').toBe(201);
  // The week was read before the booking: read it again.
  await page.reload();
  for (const view of ['week', 'day', 'work_week', 'month', 'agenda'] as const) {
    await page.goto(`/#/calendar?date=2027-05-06&view=${view}`);
    await expect(page.getByRole('button', { name: /New patient visit with/ }).first()).toBeVisible();
    await expectAccessibleAtEach(page, `calendar ${view}`, { screenshot: (v) => `test-results/screenshots/calendar/a11y-${view}-${v.width}.png` });
  }
  // Moving a recurring appointment by keyboard asks whether for this one or the whole series.
  await page.goto('/#/calendar?date=2027-05-06&view=day');
  await page
    .getByRole('button', { name: /New patient visit with .+, repeats$/ })
    .first()
    .focus();
  await page.keyboard.press('Alt+ArrowDown');
  await expect(page.getByRole('alertdialog', { name: 'Recurring appointment' })).toBeVisible();
  await expectAccessibleAtEach(page, 'this one or the whole series', { screenshot: (v) => `test-results/screenshots/calendar/a11y-scope-${v.width}.png` });
  await page.keyboard.press('Escape');

  // Booking after working hours asks first (before the server is asked, so before its refusal below).
  await page.getByRole('button', { name: 'Book appointment' }).click();
  const dialog = page.getByRole('dialog', { name: 'Book appointment' });
  await dialog.getByLabel('Time').fill('18:30');
  await dialog.getByRole('button', { name: 'Book', exact: true }).click();
  await expect(page.getByRole('alertdialog', { name: 'Outside working hours' })).toBeVisible();
  await expectAccessibleAtEach(page, 'outside working hours');
  await page.keyboard.press('Escape');
  await dialog.getByLabel('Time').fill('09:00');
  await dialog.getByRole('button', { name: 'Book', exact: true }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Please select a patient');
  await expectAccessibleAtEach(page, 'booking dialog', { screenshot: (v) => `test-results/screenshots/calendar/a11y-booking-${v.width}.png` });
  await page.keyboard.press('Escape');

  const admin = await sessions.open('admin@demo.tidewell.local', '/new-settings/calendar');
  await expect(admin.getByRole('table', { name: 'Appointment types' })).toBeVisible();
  await admin.getByRole('button', { name: 'Add appointment type' }).click();
  await admin.getByRole('button', { name: 'Add blocked time' }).click();
  await admin.getByRole('button', { name: 'Add days off' }).click();
  await expect(admin.getByLabel('Days off 1 from')).toBeVisible();
  await expect(admin.getByRole('heading', { level: 2, name: 'Calendar feed' })).toBeVisible();
  await expect(admin.getByRole('button', { name: /Send the reminder/ })).toBeVisible();
  await expectAccessibleAtEach(admin, 'calendar settings', {
    screenshot: (v) => `test-results/screenshots/calendar/a11y-settings-${v.width}.png`,
    fullPage: true,
  });
});

/** The Google Calendar link on Settings > Calendar and the local Google stand-in's consent page. */
test(`the Google Calendar link and the local Google consent page have no WCAG 2.1 A/AA violation at 1280×800 and 390×844`, async ({ page }) => {
  test.setTimeout(240_000);
  await signIn(page, PROVIDER, '/new-settings/calendar');
  const card = page.locator('.tw-card', { has: page.getByRole('heading', { level: 2, name: 'Google Calendar' }) });
  await expect(card.getByText('Google Calendar is not linked.')).toBeVisible();
  await expectAccessibleAtEach(page, 'Google Calendar link, not linked');
  await card.getByRole('button', { name: 'Link Google Calendar' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Allow' })).toBeVisible();
  await expectAccessibleAtEach(page, 'local Google consent page', {
    screenshot: (v) => `test-results/screenshots/google-calendar/a11y-consent-${v.width}.png`,
    fullPage: true,
  });
  await page.getByRole('button', { name: 'Allow' }).click();
  await expect(card.getByRole('list', { name: 'Your Google calendars' }).getByRole('listitem')).toHaveCount(3);
  await expect(card.getByRole('button', { name: /Calendar for your appointments/ })).toBeVisible();
  await expectAccessibleAtEach(page, 'Google Calendar link, linked');
  await card.getByRole('button', { name: /Calendar for your appointments/ }).click();
  await expect(page.getByRole('option', { name: 'Clinic on-call' })).toBeVisible();
  await expectAccessibleAtEach(page, 'Google Calendar link, choosing the calendar');
  await page.keyboard.press('Escape');
  await screenshotAtEach(page, (v) => `test-results/screenshots/google-calendar/a11y-linked-${v.width}.png`, true);
  await page.goto('/local/google/calendar');
  await expect(page.getByRole('heading', { level: 1, name: /Google Calendar events/ })).toBeVisible();
  await expectAccessibleAtEach(page, 'local Google calendar events page');
  await page.goBack();
  await expect(card.getByRole('button', { name: /Calendar for your appointments/ })).toBeVisible();
  await card.getByRole('button', { name: 'Unlink Google Calendar' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Unlink Google Calendar?' });
  await expect(confirm).toBeVisible();
  await expectAccessibleAtEach(page, 'unlink Google Calendar dialog');
  await confirm.getByRole('button', { name: 'Unlink' }).click();
  await expect(card.getByText('Google Calendar is not linked.')).toBeVisible();
});

test(`the Forms screen, the form-send note and IntakeQ's local stand-in pages have no WCAG 2.1 A/AA violation at 1280×800 and 390×844`, async ({ page }) => {
  test.setTimeout(360_000);
  await signIn(page, PROVIDER, '/home');
  await visit(page, '/forms', 'Forms');
  // The first request of a fresh server loads the forms code: slow on a busy machine.
  await expect(page.getByRole('list', { name: 'Forms' })).toBeVisible({ timeout: 60_000 });
  await expectAccessibleAtEach(page, 'Forms screen');

  await openChart(page, 'pat-0020');
  await page.getByRole('button', { name: 'New interaction' }).click();
  await page.getByRole('menuitem', { name: 'Form', exact: true }).click();
  const win = page.locator('.tw-note-window').last();
  await expect(win.getByRole('button', { name: 'Send form' })).toBeVisible();
  await win.getByRole('button', { name: 'Send form' }).click();
  await expect(win.getByRole('alert')).toHaveText('Please select a form');
  await expectAccessibleAtEach(page, 'form-send note');
  await win.getByRole('button', { name: 'Close note' }).click();
  const confirm = page.getByRole('alertdialog');
  if (await confirm.isVisible()) await confirm.getByRole('button', { name: 'Close without saving' }).click();

  const sent = await apiAs(page, 'POST', '/v2/practices/forms/send', {
    patientId: 'pat-0020',
    formId: '5f1a2b3c4d5e6f7081920a1b',
    sendMethod: 'Email',
    email: 'a11y@example.com',
  });
  expect(sent.status).toBe(200);
  const { ssoUrl } = (await apiAs(page, 'GET', '/v2/practices/sso/intakeq')).json as { ssoUrl: string };
  const standIn = ssoUrl.replace(/\/#\/.*$/, '');
  await page.goto(`${standIn}/`);
  await expect(page.getByRole('heading', { level: 1, name: /IntakeQ \(local stand-in\)/ })).toBeVisible();
  await expectAccessibleAtEach(page, 'IntakeQ stand-in outbox');
  await page.goto(`${standIn}/fill/${(sent.json as { data: { intakeId: string } }).data.intakeId}`);
  await expectAccessibleAtEach(page, "IntakeQ stand-in patient's form");
  await page.getByRole('button', { name: 'Submit form' }).click();
  await expect(page.getByRole('alert').first()).toHaveText('This question is required.');
  await expectAccessibleAtEach(page, "IntakeQ stand-in patient's form with errors", {
    screenshot: (v) => `test-results/screenshots/intakeq-form-${v.width}.png`,
    fullPage: true,
  });

  // The submitted form note and its Add to Health Summary dialog.
  await signIn(page, PROVIDER, '/home');
  await openChart(page, 'pat-0020');
  await page.getByRole('button', { name: 'New interaction' }).click();
  await page.getByRole('menuitem', { name: 'Form', exact: true }).click();
  const formWin = page.locator('.tw-note-window').last();
  await formWin.getByRole('button', { name: /Form$/ }).click();
  await page.getByRole('option', { name: 'New Patient Intake' }).click();
  await formWin.getByRole('textbox', { name: 'Email' }).fill('a11y.intake@example.com');
  await formWin.getByRole('button', { name: 'Send form' }).click();
  const link = formWin.getByRole('link', { name: "Open the patient's form (IntakeQ local stand-in)" });
  const patientPage = await page.context().newPage();
  await patientPage.goto((await link.getAttribute('href'))!);
  await patientPage.getByRole('textbox', { name: /What brings you in today/ }).fill('Check-up');
  await patientPage.getByRole('textbox', { name: /allergic/ }).fill('Latex');
  await patientPage.getByRole('radio', { name: 'Never' }).check();
  await patientPage.getByRole('button', { name: 'Submit form' }).click();
  await expect(patientPage.getByRole('status')).toHaveText('Thank you. Your answers were sent to the practice.');
  await patientPage.close();
  await expect(formWin.getByText('submitted', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expectAccessibleAtEach(page, 'submitted form note');
  await formWin.getByRole('button', { name: 'Add to Health Summary' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add to Health Summary' });
  await expect(dialog.getByRole('table')).toBeVisible();
  await expectAccessibleAtEach(page, 'Add to Health Summary dialog', {
    screenshot: (v) => `test-results/screenshots/form-mapping-dialog-${v.width}.png`,
    fullPage: true,
  });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await formWin.getByRole('button', { name: 'Close note' }).click();
  await expect(formWin).toHaveCount(0);

  // The Forms screen's mapping editor, with the questions the submission asked.
  await visit(page, '/forms', 'Forms');
  await page.getByRole('button', { name: 'Edit mapping of New Patient Intake' }).click();
  const editor = page.getByRole('dialog', { name: 'Form mapping: New Patient Intake' });
  await expect(editor.getByRole('table', { name: 'Mapping of New Patient Intake' })).toBeVisible();
  await editor.getByRole('button', { name: /Section for Do you smoke/ }).click();
  await page.getByRole('option', { name: 'Social' }).click();
  await editor.getByText('Add Do you smoke or use tobacco?').click();
  await expect(editor.getByText('A title is required for a health history question.')).toBeVisible();
  await expectAccessibleAtEach(page, 'Forms mapping editor', {
    screenshot: (v) => `test-results/screenshots/form-mapping-editor-${v.width}.png`,
    fullPage: true,
  });
});

test(`the contact screens have no WCAG 2.1 A/AA violation at 1280×800 and 390×844`, async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, PROVIDER, '/home');
  const lastName = `Check ${Date.now().toString(36)}`;
  const saved = await apiAs(page, 'POST', '/v2/practices/contacts', { name: 'Axe', lastName, phoneNumber: '(458) 555-0142', email: 'axe@check.example' });
  expect(saved.status).toBe(201);
  await visit(page, '/contacts/list', 'Contacts');
  await expect(page.getByRole('table', { name: 'Contacts' })).toBeVisible();
  await expectAccessibleAtEach(page, 'contact list');
  await visit(page, `/contacts/list/${String(saved.json.contactId)}`, 'Contacts');
  await expect(page.getByRole('heading', { name: `Axe ${lastName}` })).toBeVisible();
  await expectAccessibleAtEach(page, 'contact');
  await page.getByRole('button', { name: 'Delete contact' }).click();
  await expectAccessibleAtEach(page, 'delete contact dialog');
  await page.keyboard.press('Escape');
  await visit(page, '/contacts/list/new', 'Contacts');
  await expectAccessibleAtEach(page, 'new contact');
  await visit(page, '/contacts/dial-pad', 'Contacts');
  await page.getByRole('button', { name: '4', exact: true }).click();
  await expectAccessibleAtEach(page, 'dial pad', { screenshot: (v) => `test-results/screenshots/contacts-dial-pad-${v.width}.png`, fullPage: true });
  await apiAs(page, 'DELETE', `/v2/practices/contacts/${String(saved.json.contactId)}`);
});

test(`the fax screens have no WCAG 2.1 A/AA violation at 1280×800 and 390×844`, async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, PROVIDER, '/home');
  await visit(page, '/messages/fax/new?patientId=pat-0007', 'New fax');
  await expectAccessibleAtEach(page, 'new fax', { screenshot: (v) => `test-results/screenshots/fax-new-${v.width}.png`, fullPage: true });
  await visit(page, '/messages/fax', 'Faxes');
  await expect(page.getByRole('table')).toBeVisible();
  await expectAccessibleAtEach(page, 'fax list', { screenshot: (v) => `test-results/screenshots/fax-list-${v.width}.png`, fullPage: true });
});

test(`the DoseSpot sync runs on the team settings have no WCAG 2.1 A/AA violation at 1280×800 and 390×844`, async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, PROVIDER, '/home');
  expect((await apiAs(page, 'POST', '/v1/practices/users/me/dosespot-sync?patientId=pat-0021')).status).toBe(200);
  const bare = await apiAs(page, 'POST', '/v1/patients', {
    firstName: 'Axe',
    lastName: `Bare ${Date.now().toString(36)}`,
    gender: 'female',
    dob: '1981-02-03',
  });
  expect((await apiAs(page, 'POST', `/v1/practices/users/me/dosespot-sync?patientId=${String(bare.json.id)}`)).status).toBe(400);
  await visit(page, '/new-settings/team', /.+/);
  const card = page.getByRole('region', { name: 'DoseSpot prescription sync' });
  await expect(card.getByTestId('dosespot-sync-run').filter({ hasText: 'Failed' }).first()).toBeVisible({ timeout: 30_000 });
  await expect(card.getByTestId('dosespot-sync-run').filter({ hasText: 'Completed' }).first()).toBeVisible();
  await expectAccessibleAtEach(page, 'settings: team with the DoseSpot sync runs', {
    screenshot: (v) => `test-results/screenshots/dosespot-sync-runs-${v.width}.png`,
    fullPage: true,
  });
});

test(`the phone call screens have no WCAG 2.1 A/AA violation at 1280×800 and 390×844`, async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, PROVIDER, '/home');
  const inbound = await page.request.post('/local/telephony/inbound', { data: { from: '+15035550143' } });
  expect(inbound.ok()).toBe(true);
  await page.goto('/#/messages/calls');
  // The first visit loads the calls screen's chunk.
  await expect(page.getByRole('heading', { level: 1, name: 'Phone calls' })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('heading', { name: 'Local telephony stand-in' })).toBeVisible();
  const row = page.getByTestId('call-row').filter({ hasText: '(503) 555-0143' }).first();
  await row.getByRole('button', { name: /^Play voicemail from/ }).click();
  await expect(row.locator('audio')).toBeVisible();
  await expectAccessibleAtEach(page, 'call list with a voicemail open', {
    screenshot: (v) => `test-results/screenshots/call-list-${v.width}.png`,
    fullPage: true,
  });
  await page.getByRole('link', { name: 'New call' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'New phone call' })).toBeVisible();
  await page.getByLabel('Number to call').fill('(503) 555-0142');
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText('User missing phone number');
  await expectAccessibleAtEach(page, 'new phone call with its error', {
    screenshot: (v) => `test-results/screenshots/call-new-${v.width}.png`,
    fullPage: true,
  });
});
