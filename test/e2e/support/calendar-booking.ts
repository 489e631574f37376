import type { Page } from '@playwright/test';

/** Books Grace Nakamura's follow-up at the Main office at `time` on the day shown, and presses Book. */
export async function bookGraceAt(page: Page, time: string) {
  await page.getByRole('button', { name: 'Book appointment' }).click();
  const dialog = page.getByRole('dialog', { name: 'Book appointment' });
  await dialog.getByRole('combobox', { name: 'Patient' }).fill('Grace');
  await page.getByRole('option', { name: /^Grace Nakamura \(\d+\)$/ }).click();
  await dialog.getByRole('button', { name: /Appointment type/ }).click();
  await page.getByRole('option', { name: 'Follow-up visit' }).click();
  await dialog.getByRole('button', { name: /Booking location/ }).click();
  await page.getByRole('option', { name: 'Main office' }).click();
  await dialog.getByLabel('Time').fill(time);
  await dialog.getByRole('button', { name: 'Book', exact: true }).click();
  return dialog;
}
