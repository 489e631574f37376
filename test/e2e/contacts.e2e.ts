import { expect, type Page } from '@playwright/test';
import { apiAs, PROVIDER, signIn, test } from './support/sign-in.js';

/** The demo practice's number (infra/local/seed/seed-practice.ts). */
const PRACTICE = '+15415550100';
const SHOTS = 'test-results/screenshots/contacts';

/** A number no demo patient has: 458 area code, four digits from the run. */
function freshNumber(): { e164: string; typed: string } {
  const four = String(Math.floor(Math.random() * 9000) + 1000);
  return { e164: `+1458555${four}`, typed: `(458) 555-${four}` };
}

async function textFromCarrierPage(page: Page, from: string, text: string): Promise<void> {
  await page.goto('/local/carrier');
  await page.locator('form [name=from]').fill(from);
  const to = page.locator('form [name=to]');
  if ((await to.evaluate((el) => el.tagName)) === 'SELECT') await to.selectOption(PRACTICE);
  else await to.fill(PRACTICE);
  await page.locator('form [name=text]').fill(text);
  await page.getByRole('button', { name: 'Send reply' }).click();
  await expect(page.getByRole('status')).toHaveText('Reply delivered to the practice.');
}

test("a contact added on the contacts screen is found by search and the dial pad, and names their number's SMS conversation", async ({ page, sessions }) => {
  test.setTimeout(180_000);
  const stamp = Date.now().toString(36);
  const phone = freshNumber();
  const lastName = `Ortega${stamp}`;

  await signIn(page, PROVIDER, '/contacts/list');
  await expect(page.getByRole('heading', { level: 1, name: 'Contacts' })).toBeVisible();
  await page.getByRole('link', { name: 'Add contact' }).click();
  await expect(page.getByRole('heading', { name: 'New contact' })).toBeVisible();

  // Refused before it is sent: a contact needs a name.
  await page.getByLabel('Phone number').fill(phone.typed);
  await page.getByRole('button', { name: 'Add contact' }).click();
  await expect(page.getByText('Name is required')).toBeVisible();

  await page.getByRole('textbox', { name: /^Name/ }).fill('Marisol');
  await page.getByLabel('Last name').fill(lastName);
  await page.getByLabel('Fax number').fill('(458) 555-0199');
  await page.getByLabel('Email').fill(`front-${stamp}@ortega-cardiology.example`);
  await page.getByLabel('Groups').fill('Specialists');
  await page.getByRole('button', { name: 'Add contact' }).click();
  await expect(page.getByRole('heading', { name: `Marisol ${lastName}` })).toBeVisible();
  await expect(page).toHaveURL(/#\/contacts\/list\/[0-9a-f-]{36}$/);
  await page.screenshot({ path: `${SHOTS}/01-contact.png`, fullPage: true });

  // Search: a name match ranks above an email match (email weighs 0.5).
  const byEmail = await apiAs(page, 'POST', '/v2/practices/contacts', { name: 'Aardvark Labs', email: `${lastName.toLowerCase()}@labs.example` });
  expect(byEmail.status).toBe(201);
  await page.getByRole('link', { name: 'All contacts' }).click();
  await page.getByRole('searchbox', { name: 'Search contacts' }).fill(lastName);
  const rows = page.getByRole('table', { name: 'Contacts' }).getByRole('row');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1)).toContainText(`Marisol ${lastName}`);
  await expect(rows.nth(1)).toContainText(phone.typed);
  await expect(rows.nth(2)).toContainText('Aardvark Labs');
  await page.screenshot({ path: `${SHOTS}/02-list-search.png`, fullPage: true });

  // The dial pad names the number's contact.
  await page.getByRole('link', { name: 'Dial pad' }).click();
  const pad = page.getByRole('group', { name: 'Dial pad' });
  for (const key of phone.e164.slice(2)) await pad.getByRole('button', { name: key, exact: true }).click();
  await expect(page.getByText(`${phone.typed} is`)).toBeVisible();
  await expect(page.getByRole('link', { name: `Marisol ${lastName}` })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/03-dial-pad.png`, fullPage: true });

  // A text from the contact's number: its conversation's header shows their name, not the number.
  const carrier = await sessions.open(PROVIDER, '/home');
  await textFromCarrierPage(carrier, phone.e164, `Referral letter received ${stamp}`);
  await page.goto(`/#/messages/sms/${encodeURIComponent(phone.e164)}/${encodeURIComponent(PRACTICE)}`);
  await expect(page.getByRole('heading', { level: 1, name: `Marisol ${lastName}` })).toBeVisible();
  await expect(page.getByTestId('sms-message').filter({ hasText: `Referral letter received ${stamp}` })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/04-sms-header.png` });

  // Deleted, the number is a number again.
  const list = await apiAs(page, 'GET', `/v2/practices/contacts?phoneNumber=${encodeURIComponent(phone.e164)}`);
  const [contact] = list.json.contacts as { contactId: string }[];
  await page.goto(`/#/contacts/list/${contact!.contactId}`);
  await page.getByRole('button', { name: 'Delete contact' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(/#\/contacts\/list$/);
  await expect(page.getByRole('link', { name: `Marisol ${lastName}` })).toHaveCount(0);
  await apiAs(page, 'DELETE', `/v2/practices/contacts/${String(byEmail.json.contactId)}`);
});

test('a large contact book loads a page at a time, and a search past the first page loads more', async ({ page }) => {
  test.setTimeout(180_000);
  const stamp = Date.now().toString(36);
  await signIn(page, PROVIDER, '/contacts/list');
  const ids: string[] = [];
  for (let i = 0; i < 55; i++) {
    const saved = await apiAs(page, 'POST', '/v2/practices/contacts', {
      name: `Paged${stamp}`,
      lastName: `N${String(i).padStart(2, '0')}`,
      email: `paged-${i}-${stamp}@book.example`,
    });
    expect(saved.status).toBe(201);
    ids.push(String(saved.json.contactId));
  }
  await page.reload();
  const rows = page.getByRole('table', { name: 'Contacts' }).getByRole('row');
  await expect(rows).toHaveCount(51);
  await page.getByRole('button', { name: 'Load more contacts' }).click();
  await expect(rows).not.toHaveCount(51);

  await page.getByRole('searchbox', { name: 'Search contacts' }).fill(`Paged${stamp}`);
  await expect(rows).toHaveCount(51);
  await expect(rows.nth(1)).toContainText(`Paged${stamp} N00`);
  await page.getByRole('button', { name: 'Search more contacts' }).click();
  await expect(rows).toHaveCount(56);
  await expect(rows.nth(55)).toContainText(`Paged${stamp} N54`);
  await expect(page.getByRole('button', { name: 'Search more contacts' })).toHaveCount(0);
  for (const id of ids) await apiAs(page, 'DELETE', `/v2/practices/contacts/${id}`);
});
