import { expect, type Page } from '@playwright/test';
import { drawer, openChart, section } from './support/chart.js';
import { EMPLOYEE, PROVIDER, signIn, test } from './support/sign-in.js';

/** Only for this test: nothing is saved to this patient. */
const PATIENT = 'pat-0029';

/** Every place a page can keep data past its own life: both storages, IndexedDB and the Cache API. */
async function browserStorage(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const dump = (s: Storage) =>
      Object.keys(s)
        .map((k) => `${k}=${s.getItem(k)}`)
        .join('\n');
    const databases = 'databases' in indexedDB ? (await indexedDB.databases()).map((d) => d.name ?? '').join(',') : '';
    const caches = 'caches' in window ? (await window.caches.keys()).join(',') : '';
    const workers = navigator.serviceWorker ? (await navigator.serviceWorker.getRegistrations()).length : 0;
    return [dump(localStorage), dump(sessionStorage), `idb:${databases}`, `caches:${caches}`, `workers:${workers}`].join('\n');
  });
}

test('typed chart text stays in the tab only, goes at logout, and the next user never sees it', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, PROVIDER, '/home');
  await openChart(page, PATIENT);
  const patientName = (await page.getByRole('heading', { level: 1 }).first().innerText()).replace(/\s*\(\d+\)$/, '').trim();
  expect(patientName).toMatch(/^\S+ \S+/);
  const typed = `Unsaved allergy ${Date.now() % 100000}`;

  await section(page, 'Allergies').getByRole('button', { name: 'Add allergy' }).click();
  const form = drawer(page, 'Add Allergy');
  await form.getByRole('textbox', { name: 'Name' }).fill(typed);
  await form.getByRole('textbox', { name: 'Description' }).fill('Hives after the first dose');

  // While signed in, only this tab's session storage holds the typed text (so a typed URL cannot lose it).
  const signedIn = await browserStorage(page);
  expect(signedIn).toContain(typed);
  expect(await page.evaluate(() => Object.keys(localStorage).join('\n'))).not.toContain('tw-form-draft');
  expect(signedIn).toContain('workers:0');

  // Leave without saving (the router asks), then log out.
  await page.goto('/#/home');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByLabel('Email')).toBeVisible();
  const afterLogout = await browserStorage(page);
  for (const phi of [typed, 'Hives after the first dose', patientName, PATIENT]) expect(afterLogout).not.toContain(phi);
  expect(afterLogout).toMatch(/idb:\ncaches:\nworkers:0$/);

  // Another user in the same tab opens the same chart form: it starts empty.
  await signIn(page, EMPLOYEE, '/home');
  await openChart(page, PATIENT);
  await section(page, 'Allergies').getByRole('button', { name: 'Add allergy' }).click();
  await expect(drawer(page, 'Add Allergy').getByRole('textbox', { name: 'Name' })).toHaveValue('');
  await page.screenshot({ path: 'test-results/screenshots/browser-storage-next-user.png' });
});
