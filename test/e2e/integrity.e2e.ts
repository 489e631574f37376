import { expect, test } from '@playwright/test';
import { CHART_MESSAGES } from '../../shared/chart/constants.js';
import { drawer, openChart, section } from './support/chart.js';
import { apiAs, EMPLOYEE, PROVIDER, Sessions, signIn } from './support/sign-in.js';

const SHOTS = 'test-results/screenshots';
const ADMIN = 'admin@demo.tidewell.local';

test('a stale chart edit keeps the input and offers Reload / Keep mine', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const patientId = 'pat-0038';
  const sessions = new Sessions(browser);
  try {
    await signIn(page, PROVIDER, '/home');
    const created = await apiAs(page, 'POST', `/v1/patients/${patientId}/allergies`, { name: 'Shellfish', description: 'hives' });
    expect(created.status).toBe(201);
    const id = created.json.ident as string;
    await openChart(page, patientId);
    const allergies = section(page, 'Allergies');
    const card = allergies.getByRole('listitem', { name: 'Shellfish' });

    // The provider opens the allergy and types; meanwhile a colleague saves the same allergy.
    await card.dblclick();
    const edit = drawer(page, 'Edit Allergy');
    const description = edit.getByRole('textbox', { name: 'Description' });
    await description.fill('anaphylaxis, carries epinephrine');
    const colleague = await sessions.open(EMPLOYEE);
    const theirs = await apiAs(colleague, 'PUT', `/v1/patients/${patientId}/allergies/${id}`, { description: 'rash only', version: 1 });
    expect(theirs.status).toBe(200);

    // Saving now is refused: the form stays open with the message, both choices, and the typed text.
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit.getByText(CHART_MESSAGES.staleVersion)).toBeVisible();
    await expect(edit.getByRole('button', { name: 'Reload' })).toBeVisible();
    await expect(edit.getByRole('button', { name: 'Keep mine' })).toBeVisible();
    await expect(description).toHaveValue('anaphylaxis, carries epinephrine');
    await page.screenshot({ path: `${SHOTS}/integrity-01-stale-chart-edit.png` });

    // Reload shows the colleague's version in the form.
    await edit.getByRole('button', { name: 'Reload' }).click();
    await expect(description).toHaveValue('rash only');
    await expect(edit.getByText(CHART_MESSAGES.staleVersion)).toHaveCount(0);

    // Typing again and saving over a newer change: Keep mine saves the user's text.
    await description.fill('anaphylaxis');
    const again = await apiAs(colleague, 'PUT', `/v1/patients/${patientId}/allergies/${id}`, { description: 'itching', version: 2 });
    expect(again.status).toBe(200);
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit.getByRole('button', { name: 'Keep mine' })).toBeVisible();
    await expect(description).toHaveValue('anaphylaxis');
    await edit.getByRole('button', { name: 'Keep mine' }).click();
    await expect(edit).toHaveCount(0);
    await expect(card).toContainText('anaphylaxis');
    const stored = await apiAs(page, 'GET', `/v1/patients/${patientId}/allergies`);
    expect((stored.json.items as { ident: string; description: string; version: number }[]).find((i) => i.ident === id)).toMatchObject({
      description: 'anaphylaxis',
      version: 4,
    });
  } finally {
    await sessions.closeAll();
  }
});

test("an admin opens a patient's access history from the profile; others do not see it", async ({ page, browser }) => {
  test.setTimeout(180_000);
  const patientId = 'pat-0039';
  const sessions = new Sessions(browser);
  try {
    // The provider reads the patient's chart: that access is what the admin then sees.
    const provider = await sessions.open(PROVIDER);
    await openChart(provider, patientId);
    await expect(provider.getByRole('link', { name: 'Access history' })).toHaveCount(0);

    await signIn(page, ADMIN, '/home');
    await page.goto(`/#/patients/${patientId}`);
    await page.getByRole('link', { name: 'Access history' }).click();
    await expect(page.getByRole('heading', { name: 'Access history' })).toBeVisible();
    const table = page.getByRole('table', { name: 'Access history' });
    const providerRead = table.getByRole('row').filter({ hasText: 'provider@demo.tidewell.local' }).filter({ hasText: 'Viewed patient' }).first();
    await expect(providerRead).toBeVisible();
    // From where: the caller's address and browser.
    await expect(providerRead).toContainText(/127\.0\.0\.1|::1/);
    await expect(providerRead).toContainText('Mozilla');
    await page.screenshot({ path: `${SHOTS}/integrity-02-access-history.png` });
  } finally {
    await sessions.closeAll();
  }
});
