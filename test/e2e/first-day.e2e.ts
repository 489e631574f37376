import { expect, type Page } from '@playwright/test';
import { expectAccessible } from './support/axe.js';
import { openChart } from './support/chart.js';
import { apiAs, PROVIDER, signIn, test } from './support/sign-in.js';

/** What a first day in the product found rough: each case as the user meets it. */
const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

/** The palette option the search box points at now (DOM focus stays in the search box). */
async function activePaletteItem(page: Page): Promise<string> {
  return page.evaluate(() => {
    const id = document.activeElement?.getAttribute('aria-activedescendant');
    return id ? (document.getElementById(id)?.textContent ?? '') : '';
  });
}

test('the palette result list scrolls by keyboard, passes axe at both widths, and finds Copilot at the top level', async ({ page }) => {
  test.setTimeout(420_000);
  await signIn(page, PROVIDER, '/home');
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    const search = palette.getByRole('searchbox');
    await expect(search).toBeFocused();
    // With nothing typed the whole action list is there: longer than the box, so it scrolls.
    await expect(palette.getByRole('menuitem', { name: 'Create new template' })).toBeAttached();
    const results = palette.getByRole('region', { name: 'Search results' });
    expect(await results.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
    await expectAccessible(page, `command palette, whole list (${viewport.width}px)`);

    // Arrow keys still move through the options from the search box; Tab reaches the list to scroll it.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await activePaletteItem(page)).not.toBe('');
    await page.keyboard.press('Tab');
    await expect(results).toBeFocused();
    await page.keyboard.press('End');
    await expect.poll(() => results.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
    await page.keyboard.press('Shift+Tab');
    await expect(search).toBeFocused();

    await page.keyboard.type('copilot');
    const copilot = palette.getByRole('menuitem', { name: 'New Interaction: Copilot' });
    await expect(copilot).toBeVisible();
    // Typing forward points the search box at the first match once the list has settled (a screen
    // reader hears the letter first, then the option); axe judges the settled list.
    await expect(search).toHaveAttribute('aria-activedescendant', (await copilot.getAttribute('id')) ?? 'missing');
    await expectAccessible(page, `command palette, "copilot" (${viewport.width}px)`);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await expect(palette).toHaveCount(0);
  }
});

test('a signed note is faxed from its own menu; a draft offers no Fax', async ({ page }) => {
  test.setTimeout(420_000);
  const stamp = Date.now().toString(36);
  await signIn(page, PROVIDER, '/home');
  const patient = await apiAs(page, 'POST', '/v1/patients', { firstName: 'Faith', lastName: `Menu${stamp}`, gender: 'female', dob: '1969-04-05' });
  expect(patient.status).toBe(201);
  const patientId = String(patient.json.id);
  const note = await apiAs(page, 'POST', '/v2/notes', { noteId: 'new', noteType: 'NOTE', status: 'DRAFT', data: { text: `Referral ${stamp}` }, patientId });
  const draft = await apiAs(page, 'POST', '/v2/notes', { noteId: 'new', noteType: 'NOTE', status: 'DRAFT', data: { text: `Draft ${stamp}` }, patientId });
  expect(draft.status).toBeLessThan(300);
  const signed = await apiAs(page, 'POST', `/v1/notes/${String(note.json.noteId)}/sign`, {
    noteVersion: note.json.noteVersion,
    data: { text: `Referral ${stamp}`, formattedText: `<p>Referral ${stamp}</p>` },
  });
  expect(signed.status).toBe(200);

  await openChart(page, patientId);
  await page.getByRole('button', { name: / Status$/ }).click();
  await page.getByRole('option', { name: 'All statuses' }).click();
  // The note filters stay after a reload (kept for the browser tab).
  await page.reload();
  await expect(page.getByRole('button', { name: / Status$/ })).toContainText('All statuses', { timeout: 60_000 });
  const notes = page.getByRole('list', { name: 'Notes' });

  await notes
    .getByRole('button')
    .filter({ hasText: `Draft ${stamp}` })
    .click();
  const draftWindow = page.locator('.tw-note-window').last();
  await draftWindow.getByRole('button', { name: 'Note menu' }).click();
  await expect(page.getByRole('menuitem', { name: 'Hide Menu' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Fax', exact: true })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await draftWindow.getByRole('button', { name: 'Close note' }).click();
  await expect(page.locator('.tw-note-window')).toHaveCount(0);

  await notes
    .getByRole('button')
    .filter({ hasText: `Referral ${stamp}` })
    .click();
  const win = page.locator('.tw-note-window').last();
  // A signed note's window opens with focus on its heading; from there, by keyboard, the menu
  // opens from its button and Fax is picked with Enter.
  await expect(win.getByRole('heading', { level: 2 })).toBeFocused();
  await win.getByRole('button', { name: 'Note menu' }).focus();
  await page.keyboard.press('Enter');
  const fax = page.getByRole('menuitem', { name: 'Fax', exact: true });
  await expect(fax).toBeVisible();
  await fax.focus();
  await page.keyboard.press('Enter');

  await expect(page.getByRole('heading', { level: 1, name: 'New fax' })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`noteId=${String(note.json.noteId)}`));
  await expect(page.getByText('The signed note is sent as a letter on the practice letterhead.')).toBeVisible();
  // The note's window stays open over every screen until closed; the fax page is checked on its own.
  await win.getByRole('button', { name: 'Close note' }).click();
  await expect(page.locator('.tw-note-window')).toHaveCount(0);
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await expectAccessible(page, `new fax of a signed note (${viewport.width}px)`);
  }
  await page.getByLabel('Fax number', { exact: true }).fill('(541) 555-7712');
  await page.getByRole('button', { name: 'Send fax' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Faxes' })).toBeVisible();
  const sent = await apiAs(page, 'GET', `/v1/faxes?query=Menu${stamp}`);
  expect((sent.json.faxes as { noteId?: string }[]).length).toBe(1);
});

const ADMIN = 'admin@demo.tidewell.local';
/** The command palette's search box, typed into once it has focus (a reloaded page may still be loading its chunk). */
const palette = (page: Page) => page.getByPlaceholder('Search for patients, templates, user, interactions, etc...');
const LOCAL_LABEL = 'Local rule-based assistant (no language model)';

test('Copilot on the local runtime is labelled before anyone types and answers from the chart; with no model the window says so', async ({ sessions }) => {
  test.setTimeout(420_000);
  const admin = await sessions.open(ADMIN, '/home');
  expect((await apiAs(admin, 'PUT', '/v1/practices/feature-gates', { flags: { tidewell_copilot: true, ai_streaming: true } })).status).toBe(200);
  const stamp = Date.now().toString(36);
  const patient = await apiAs(admin, 'POST', '/v1/patients', { firstName: 'Cora', lastName: `Pilot${stamp}`, gender: 'female', dob: '1962-08-09' });
  const patientId = String(patient.json.id);
  expect((await apiAs(admin, 'POST', `/v1/patients/${patientId}/allergies`, { name: 'Penicillin', severity: 'severe' })).status).toBe(201);
  expect(
    (await apiAs(admin, 'POST', `/v1/patients/${patientId}/diagnoses`, { name: 'Essential hypertension', date: '03/2019', pinned: 0, icd10CodeId: 'I10' }))
      .status,
  ).toBe(201);

  const page = await sessions.open(PROVIDER, '/home');
  const visit = await apiAs(page, 'POST', '/v2/notes', { noteId: 'new', noteType: 'NOTE', status: 'DRAFT', data: { text: `BP recheck ${stamp}` }, patientId });
  expect(
    (
      await apiAs(page, 'POST', `/v1/notes/${String(visit.json.noteId)}/sign`, {
        noteVersion: visit.json.noteVersion,
        data: { text: `BP recheck ${stamp}`, formattedText: `<p>BP recheck ${stamp}</p>` },
      })
    ).status,
  ).toBe(200);
  await openChart(page, patientId);
  await page.keyboard.press('Control+k');
  await expect(palette(page)).toBeFocused();
  await palette(page).fill('copilot');
  await page.getByRole('menuitem', { name: 'New Interaction: Copilot' }).click();
  const win = page.getByRole('dialog', { name: /^Copilot Chat - Cora Pilot/ });
  await expect(win).toBeVisible();
  // Labelled as local before anything is sent.
  await expect(win.getByText(LOCAL_LABEL)).toBeVisible();
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await expectAccessible(page, `Copilot window, local assistant (${viewport.width}px)`);
  }
  await page.setViewportSize(VIEWPORTS[0]);
  const input = win.getByRole('textbox', { name: 'Message Copilot' });
  await input.fill('When was she last seen, and what are her allergies?');
  await input.press('Enter');
  const reply = win.locator('.tw-copilot__message--assistant').last();
  await expect(reply).toContainText(`Last visit:`, { timeout: 30_000 });
  await expect(reply).toContainText(`BP recheck ${stamp}`);
  await expect(reply).toContainText('Penicillin');
  await expect(page.getByText('ECS AI endpoint not configured')).toHaveCount(0);

  // A stack with no model: the window says so in plain words, and nothing can be sent.
  await page.route('**/config.json', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...((await response.json()) as Record<string, unknown>), copilotModel: '' } });
  });
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Health Summary' })).toBeVisible({ timeout: 45_000 });
  await page.keyboard.press('Control+k');
  await expect(palette(page)).toBeFocused();
  await palette(page).fill('copilot');
  await page.getByRole('menuitem', { name: 'New Interaction: Copilot' }).click();
  await expect(win.getByRole('note')).toHaveText(/^Copilot has no AI model set up for this practice, so it cannot answer yet\./);
  await expect(win.getByRole('textbox', { name: 'Message Copilot' })).toBeDisabled();
  await expect(win.getByRole('button', { name: 'Send' })).toBeDisabled();
  await expect(win.getByText(LOCAL_LABEL)).toHaveCount(0);
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await expectAccessible(page, `Copilot window, no model (${viewport.width}px)`);
  }
});

test('diagnosis search covers the shipped ICD-10-CM release, its alphabetic index and the words clinicians use', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, PROVIDER, '/home');
  const search = async (keyword: string) =>
    (await apiAs(page, 'GET', `/v1/icd-10-codes?keyword=${encodeURIComponent(keyword)}&limit=10&offset=0`)).json as {
      items: { code: string }[];
      source: { kind: string; count: number };
    };
  const soreThroat = await search('sore throat');
  expect(soreThroat.source).toMatchObject({ kind: 'official', count: 74_879 });
  expect(soreThroat.items.map((i) => i.code).slice(0, 2)).toEqual(['J02.9', 'R07.0']);
  expect((await search('strep')).items[0]?.code).toBe('J02.0');
  // Every word, any order, beginnings and plurals of the descriptions' words.
  expect((await search('pharyngitis streptococcal')).items.map((i) => i.code)).toContain('J02.0');
  expect((await search('throats pain')).items.map((i) => i.code)).toContain('R07.0');
  // The shipped alphabetic index: "Sore, throat, streptococcal J02.0"; "Abasia (-astasia) (hysterical) F44.4".
  expect((await search('sore throat streptococcal')).items[0]?.code).toBe('J02.0');
  expect((await search('abasia')).items[0]?.code).toBe('F44.4');
  for (const path of ['/v1/vaccine-codes?keyword=influenza', '/v1/vaccine-manufacturers?keyword=pfizer']) {
    expect((await apiAs(page, 'GET', path)).json.source, path).toMatchObject({ kind: 'official' });
  }
});
