import type { Locator, Page } from '@playwright/test';

export const GRACE = { search: 'Grace', option: /^Grace Nakamura \(\d+\)$/ };
export const MARIA = { search: 'Maria', option: /^Maria Lopez/ };

/** Opens the Book appointment dialog from the calendar's toolbar. */
export async function openBooking(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Book appointment' }).click();
  return page.getByRole('dialog', { name: 'Book appointment' });
}

/** Fills the patient, a follow-up visit at the Main office and, when given, the time. */
export async function fillBooking(page: Page, dialog: Locator, patient: { search: string; option: RegExp }, time?: string): Promise<void> {
  await dialog.getByRole('combobox', { name: 'Patient' }).fill(patient.search);
  await page.getByRole('option', { name: patient.option }).first().click();
  await dialog.getByRole('button', { name: /Appointment type/ }).click();
  await page.getByRole('option', { name: 'Follow-up visit' }).click();
  await dialog.getByRole('button', { name: /Booking location/ }).click();
  await page.getByRole('option', { name: 'Main office' }).click();
  if (time) await dialog.getByLabel('Time').fill(time);
}

/** Books Grace Nakamura's follow-up at the Main office at `time` on the day shown, and presses Book. */
export async function bookGraceAt(page: Page, time: string): Promise<Locator> {
  const dialog = await openBooking(page);
  await fillBooking(page, dialog, GRACE, time);
  await dialog.getByRole('button', { name: 'Book', exact: true }).click();
  return dialog;
}

/** Books three weekly new-patient visits for Grace Nakamura (pat-0003) at the North office through the API. */
export function weeklyNewPatientVisits(providerId: string, start: string, durationMinutes: number) {
  return {
    patientId: 'pat-0003',
    appointmentTypeId: 'apt-demo-new-patient',
    providerId,
    bookingLocationId: 'loc-demo-north',
    visitType: 'in_person',
    start,
    durationMinutes,
    recurrence: { frequency: 'Weekly', end: 'COUNT', count: 3 },
  };
}
