import { expect, test, type Locator, type Page } from '@playwright/test';
import { PARTNER_CLOSE_DELAY_MS } from '../../shared/partners/partner-constants.js';
import { holdsFor } from '../support/eventually.js';
import { expectAccessible } from './support/axe.js';
import { PROVIDER, signIn } from './support/sign-in.js';

const SHOTS = 'test-results/screenshots';
const PARTNER_LABEL = 'Care Plan Builder (local partner)';

async function openChart(page: Page, patientId: string) {
  await signIn(page, PROVIDER, `/patients/${patientId}`);
  await expect(page.getByRole('heading', { name: 'Notes', exact: true })).toBeVisible({ timeout: 45_000 });
}

/**
 * A closeNote that was wrongly obeyed closes the window PARTNER_CLOSE_DELAY_MS after it arrived, and a
 * wrongly obeyed success shows its alert at once: watch the window from `since` (before the messages
 * were posted) until that delay and a render later, failing the moment it closes or alerts.
 */
async function staysOpenWithoutAlert(win: Locator, since: number) {
  await holdsFor(
    'the window open with no alert after foreign messages',
    since + PARTNER_CLOSE_DELAY_MS + 250 - Date.now(),
    async () => (await win.isVisible()) && (await win.getByRole('alert').count()) === 0,
    Boolean,
  );
}

async function openPartnerFromPalette(page: Page) {
  await page.keyboard.press('Control+K');
  await page.keyboard.type('New Interaction');
  await page.getByRole('menuitem', { name: 'New Interaction', exact: true }).click();
  await page.getByRole('menuitem', { name: PARTNER_LABEL }).click();
  const win = page.getByRole('dialog', { name: /^Partner App · Aisha Rahman/ });
  await expect(win).toBeVisible();
  return win;
}

test('the local partner app opens from the palette, writes its result, shows the success alert and closes after its delay', async ({ page }) => {
  const warnings: string[] = [];
  page.on('console', (m) => void (m.type() === 'warning' && warnings.push(m.text())));
  const cspViolations: string[] = [];
  page.on('console', (m) => void (/Content Security Policy/.test(m.text()) && cspViolations.push(m.text())));
  await openChart(page, 'pat-0003');
  const win = await openPartnerFromPalette(page);
  const frameEl = win.locator('iframe.tw-partner-frame');
  await expect(frameEl).toHaveAttribute('sandbox', 'allow-scripts allow-forms allow-same-origin');
  const src = await frameEl.getAttribute('src');
  const partnerOrigin = new URL(src!).origin;
  expect(partnerOrigin).not.toBe(new URL(page.url()).origin);
  const frame = page.frameLocator('iframe.tw-partner-frame');
  await expect(frame.getByRole('heading', { name: /Care plan builder/ })).toBeVisible();
  await expect(frame.getByText('Local partner', { exact: true })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/partners-01-window.png` });

  // A message from any origin but the partner's changes nothing: no alert, the window stays.
  const posted = Date.now();
  await page.evaluate(() => {
    window.postMessage({ type: 'success' }, '*');
    window.postMessage({ type: 'closeNote' }, '*');
  });
  await staysOpenWithoutAlert(win, posted);
  await expect(win).toBeVisible();
  await expect(win.getByRole('alert')).toHaveCount(0);
  expect(warnings.some((w) => w.includes('ignored a message not from the partner origin'))).toBe(true);

  await frame.getByLabel('Goal').fill('Walk 30 minutes a day');
  await frame.getByRole('button', { name: 'Save care plan' }).click();
  const closedBy = Date.now();
  await expect(win.getByRole('alert')).toHaveText('Success!');
  // What the partner wrote back is the note's data, shown in the window until it closes.
  await expect(win.getByText('Goal')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/partners-02-success.png` });
  await expect(win).toHaveCount(0, { timeout: 10_000 });
  // closeNote closes after the 2000 ms delay, not at once.
  expect(Date.now() - closedBy).toBeGreaterThanOrEqual(1_900);
  expect(cspViolations).toEqual([]);

  // The chart lists the delivered partner note; it opens with the result, read-only.
  await page.getByRole('button', { name: 'Type' }).click();
  await page.getByRole('option', { name: 'Partner App' }).click();
  await page.getByRole('button', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Delivered' }).click();
  await page.getByRole('list', { name: 'Notes' }).getByRole('button').first().click();
  const reopened = page.getByRole('dialog', { name: /^Partner App · Aisha Rahman/ });
  await expect(reopened.getByText('Walk 30 minutes a day')).toBeVisible();
  await expect(reopened.locator('iframe')).toHaveCount(0);
  await expect(reopened.getByRole('button', { name: 'Sign', exact: true })).toHaveCount(0);
});

test('a window of another origin cannot alert or close a partner window, and no other origin can be framed', async ({ page, context }) => {
  await openChart(page, 'pat-0003');
  const win = await openPartnerFromPalette(page);
  await expect(page.frameLocator('iframe.tw-partner-frame').getByRole('button', { name: 'Save care plan' })).toBeVisible();
  // 127.0.0.1 is another origin than localhost: a page there posts exactly what the partner would.
  const other = 'http://127.0.0.1:3319';
  await context.route(`${other}/**`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><title>Other origin</title><script>opener.postMessage({ type: 'success' }, '*'); opener.postMessage({ type: 'closeNote' }, '*');</script>`,
    }),
  );
  const popup = context.waitForEvent('page');
  const posted = Date.now();
  await page.evaluate((url) => void window.open(url, 'other'), `${other}/poster.html`);
  await (await popup).waitForLoadState();
  await staysOpenWithoutAlert(win, posted);
  await expect(win).toBeVisible();
  await expect(win.getByRole('alert')).toHaveCount(0);

  // The CSP's frame-src names the partner origins only: a frame of any other origin is refused.
  const violation = await page.evaluate(
    (url) =>
      new Promise<string>((resolve) => {
        document.addEventListener('securitypolicyviolation', (e) => resolve(`${e.violatedDirective} ${e.blockedURI}`), { once: true });
        const frame = document.createElement('iframe');
        frame.src = url;
        document.body.append(frame);
        // eslint-disable-next-line tidewell/no-fixed-sleep -- a time limit on the awaited violation event, which resolves at once when it comes
        setTimeout(() => resolve('none'), 5_000);
      }),
    `${other}/framed.html`,
  );
  expect(violation).toMatch(/^frame-src http:\/\/127\.0\.0\.1:3319/);
});

test('an admin turns a partner app off in settings and New Interaction stops offering it, then turns it back on', async ({ page }) => {
  await signIn(page, 'admin@demo.tidewell.local', '/new-settings/partner-apps');
  const table = page.getByRole('table', { name: 'Partner apps' });
  await expect(table).toContainText(PARTNER_LABEL);
  const setActive = async (active: boolean) => {
    await page.getByRole('button', { name: 'Edit Care Plan Builder' }).click();
    const toggle = page.getByRole('switch', { name: 'Active' });
    if ((await toggle.isChecked()) !== active) await toggle.click({ force: true });
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(table.getByRole('row', { name: new RegExp(PARTNER_LABEL.replace(/[()]/g, '\\$&')) })).toContainText(active ? 'Active' : 'Inactive');
  };
  await setActive(false);
  await page.screenshot({ path: `${SHOTS}/partners-03-settings-inactive.png` });
  await page.keyboard.press('Control+K');
  await page.keyboard.type('New Interaction');
  await page.getByRole('menuitem', { name: 'New Interaction', exact: true }).click();
  await expect(page.getByRole('menuitem', { name: 'Note', exact: true })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: PARTNER_LABEL })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await setActive(true);

  // An app added by mistake is removed after the confirmation; the others stay.
  const name = `Intake helper ${Date.now().toString(36)}`;
  await page.getByRole('button', { name: 'Add partner app' }).click();
  await page.getByRole('textbox', { name: 'App id' }).fill(`intake-${Date.now().toString(36)}`);
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await page.getByRole('button', { name: /Origin/ }).click();
  await page.getByRole('option').first().click();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(table).toContainText(name);
  await page.getByRole('button', { name: `Remove ${name}` }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Remove this partner app?' });
  await expect(confirm).toContainText(`${name} will no longer be offered under New Interaction.`);
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await expect(table).not.toContainText(name);
  await expect(table).toContainText(PARTNER_LABEL);
});

test("the chart's membership windows frame the core product's pages from its origin only: another origin's messages change nothing, the page's success alerts and closes the window after its delay", async ({
  page,
  context,
}) => {
  const warnings: string[] = [];
  page.on('console', (m) => void (m.type() === 'warning' && warnings.push(m.text())));
  const cspViolations: string[] = [];
  page.on('console', (m) => void (/Content Security Policy/.test(m.text()) && cspViolations.push(m.text())));
  await openChart(page, 'pat-0003');
  await page.getByRole('button', { name: 'Membership', exact: true }).click();
  await expect(page.getByRole('menuitem')).toHaveText(['Open membership', 'Create charges', 'Create user']);
  await page.getByRole('menuitem', { name: 'Create charges' }).click();
  const win = page.getByRole('dialog', { name: 'Create charges (local membership stand-in)' });
  await expect(win).toBeVisible();
  const frameEl = win.locator('iframe');
  await expect(frameEl).toHaveAttribute('sandbox', 'allow-scripts allow-forms allow-same-origin');
  const src = new URL((await frameEl.getAttribute('src'))!);
  expect(src.origin).not.toBe(new URL(page.url()).origin);
  expect(src.pathname).toBe('/membership/charges');
  expect(src.searchParams.get('patientId')).toBe('pat-0003');
  const frame = page.frameLocator('.tw-membership-window__frame');
  await expect(frame.getByRole('heading', { name: 'Create charges Local membership stand-in' })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/membership-01-window.png` });

  // The app's own window and a page of another origin post what the core product would: nothing happens.
  const posted = Date.now();
  await page.evaluate(() => {
    window.postMessage({ type: 'success' }, '*');
    window.postMessage({ type: 'closeNote' }, '*');
  });
  const other = 'http://127.0.0.1:3319';
  await context.route(`${other}/**`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><title>Other origin</title><script>opener.postMessage({ type: 'success' }, '*'); opener.postMessage({ type: 'closeNote' }, '*');</script>`,
    }),
  );
  const popup = context.waitForEvent('page');
  await page.evaluate((url) => void window.open(url, 'other'), `${other}/poster.html`);
  await (await popup).waitForLoadState();
  await staysOpenWithoutAlert(win, posted);
  await expect(win).toBeVisible();
  await expect(win.getByRole('alert')).toHaveCount(0);
  expect(warnings.filter((w) => w.includes('Membership window: ignored a message not from the membership origin')).length).toBeGreaterThanOrEqual(2);

  const description = `Lab draw ${Date.now().toString(36)}`;
  await frame.getByLabel('Description').fill(description);
  await frame.getByRole('button', { name: 'Create charge' }).click();
  const closedBy = Date.now();
  await expect(win.getByRole('alert')).toHaveText('Success!');
  await page.screenshot({ path: `${SHOTS}/membership-02-success.png` });
  await expect(win).toHaveCount(0, { timeout: 10_000 });
  expect(Date.now() - closedBy).toBeGreaterThanOrEqual(1_900);
  expect(cspViolations).toEqual([]);
  const records = (await (await page.request.get(`${src.origin}/membership/records`)).json()) as {
    records: { action: string; patientId: string; fields: Record<string, string> }[];
  };
  expect(records.records).toContainEqual(
    expect.objectContaining({ action: 'charges', patientId: 'pat-0003', fields: expect.objectContaining({ description }) }),
  );

  // Closed by id: the same window opens again, and Close removes it at once.
  await page.getByRole('button', { name: 'Membership', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Open membership' }).click();
  const open = page.getByRole('dialog', { name: 'Open membership (local membership stand-in)' });
  await expect(page.frameLocator('.tw-membership-window__frame').getByRole('button', { name: 'Open membership' })).toBeVisible();
  await open.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test("the core product's patient card (local membership stand-in) shows a charge made through Create charges once View Invoice is pressed", async ({
  page,
}) => {
  await openChart(page, 'pat-0004');
  await page.getByRole('button', { name: 'Membership', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Create charges' }).click();
  const win = page.getByRole('dialog', { name: 'Create charges (local membership stand-in)' });
  const origin = new URL((await win.locator('iframe').getAttribute('src'))!).origin;
  const frame = page.frameLocator('.tw-membership-window__frame');
  const description = `Lab draw ${Date.now().toString(36)}`;
  await frame.getByLabel('Description').fill(description);
  await frame.getByLabel('Amount (USD)').fill('42.50');
  await frame.getByRole('button', { name: 'Create charge' }).click();
  await expect(win.getByRole('alert')).toHaveText('Success!');
  await expect(win).toHaveCount(0, { timeout: 10_000 });

  // Where the lab result screen's hint points: the patient's card, then View Invoice.
  await page.goto(`${origin}/membership/card?patientId=pat-0004`);
  await expect(page.getByRole('heading', { name: 'Patient card Local membership stand-in' })).toBeVisible();
  const invoice = page.getByRole('region', { name: 'Upcoming invoice' });
  const view = page.getByRole('button', { name: 'View Invoice' });
  await expect(view).toHaveAttribute('aria-expanded', 'false');
  await expect(invoice).toBeHidden();
  await expect(page.getByText(description)).toBeHidden();
  await view.focus();
  await page.keyboard.press('Enter');
  await expect(view).toHaveAttribute('aria-expanded', 'true');
  await expect(invoice.getByRole('row', { name: new RegExp(`${description} \\$42\\.50`) })).toBeVisible();
  // The total is the sum of the card's charges (other runs may have added some to this patient).
  const amounts = await invoice.locator('tbody td.num').allTextContents();
  const cents = amounts.reduce((sum, a) => sum + Math.round(Number(a.replace(/[$,]/g, '')) * 100), 0);
  await expect(invoice.locator('tfoot td.num')).toHaveText(`$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`);
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    await expectAccessible(page, `local membership stand-in: patient card with its invoice (${viewport.width}px)`);
    await page.screenshot({ path: `${SHOTS}/membership-03-card-${viewport.width}.png` });
  }
  await page.keyboard.press('Enter');
  await expect(invoice).toBeHidden();
});
