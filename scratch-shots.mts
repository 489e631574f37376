import { chromium } from '@playwright/test';
const base = process.env.BASE ?? 'http://localhost:4622';
const paths = (process.env.PATHS ?? '/messages').split(',');
const widths = [[1280, 800], [390, 844]];
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox'] });
const context = await browser.newContext({ timezoneId: 'America/Chicago' });
const page = await context.newPage();
await page.goto(`${base}/#/home`);
await page.getByLabel('Email').fill(process.env.LOGIN ?? 'provider@demo.tidewell.local');
await page.getByLabel('Password', { exact: true }).fill('Tidewell-Demo-1!');
await page.getByRole('button', { name: 'Sign in', exact: true }).click();
await page.getByTestId('practice-name').waitFor({ timeout: 45000 });
for (const p of paths) {
  for (const [w, h] of widths) {
    await page.setViewportSize({ width: w, height: h });
    await page.goto(`${base}/#${p}`);
    await page.waitForTimeout(2500);
    if (process.env.CLICK) { for (const name of process.env.CLICK.split('|')) { await page.getByRole('button', { name }).first().click().catch(() => {}); await page.waitForTimeout(500); } }
    const file = `/tmp/shots/${p.replace(/[^a-z0-9]+/gi, '_')}-${w}.png`;
    await page.screenshot({ path: file, fullPage: false });
    console.log(file);
  }
}
await browser.close();
