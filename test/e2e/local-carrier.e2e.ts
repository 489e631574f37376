import { expect, test } from '@playwright/test';
import { expectAccessible } from './support/axe.js';

/** The sandbox carrier's page (npm start only): labelled as local, accessible at both widths, usable by keyboard alone. */
test('the local sandbox carrier page passes axe at 1280×800 and 390×844 and takes a reply by keyboard', async ({ page }) => {
  for (const size of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size);
    await page.goto('/local/carrier');
    await expect(page.getByRole('heading', { level: 1, name: 'Local sandbox carrier' })).toBeVisible();
    await expectAccessible(page, `local sandbox carrier ${size.width}×${size.height}`);
  }
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Patient phone (from)')).toBeFocused();
  await page.keyboard.type('+15035550177');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Practice number (to)')).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.type('Running late, be there at 3');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Send reply' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status')).toHaveText('Reply delivered to the practice.');
  await expectAccessible(page, 'local sandbox carrier after a reply');
  await page.screenshot({ path: 'test-results/screenshots/local-carrier.png' });
});
