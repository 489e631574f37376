import { expect, test, type Page } from '@playwright/test';
import { DEMO_PASSWORD } from '../../infra/local/seed/demo-users.js';

const PROVIDER = 'provider@demo.tidewell.local';
const SHOTS = 'test-results/screenshots';

async function signIn(page: Page, email = PROVIDER) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

function field(page: Page, name: string) {
  return page.getByRole('textbox', { name, exact: true });
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

/** A name the e-prescribing character rule accepts and no seeded patient has. */
function uniqueLastName(): string {
  const letters = Array.from({ length: 6 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');
  return `Quill${letters}`;
}

test('provider finds, opens and registers patients', async ({ page }) => {
  // A deep link before sign-in is where the app lands after it (spec shell §2.4).
  await page.goto('/#/patients');
  await expect(page.getByText('Tidewell', { exact: true })).toBeVisible();
  await shot(page, '01-sign-in');
  await signIn(page);

  await expect(page).toHaveURL(/#\/patients$/);
  await expect(page.getByRole('heading', { name: 'Patients', exact: true })).toBeVisible();
  await expect(page.getByTestId('practice-name')).toHaveText('Tidewell Demo Clinic');
  await expect(page.getByRole('link', { name: 'Daniel Okafor' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Patients' })).toBeVisible();
  await shot(page, '02-patient-list');

  // Part of Grace Nakamura's mobile number (+1 415 555 0111), typed as a person would.
  await page.getByRole('searchbox', { name: 'Search patients' }).fill('(415) 555');
  const grace = page.getByRole('link', { name: /^Grace Nakamura \(\d+\)$/ });
  // The list narrows to numbers with those digits: other area codes drop out.
  await expect(page.getByRole('link', { name: /^Maria Lopez/ })).toHaveCount(0);
  await expect(grace).toBeVisible();
  await expect(page.getByRole('row', { name: /Grace Nakamura/ })).toContainText('(415) 555-0111');
  await expect(page.getByRole('row', { name: /Grace Nakamura/ })).toContainText('Phone number match');
  await shot(page, '03-search-by-phone');

  await grace.click();
  await expect(page).toHaveURL(/#\/patients\/pat-0011$/);
  await expect(page.getByRole('heading', { level: 1, name: /^Grace Nakamura \(\d+\)$/ })).toBeVisible();
  await expect(page.getByText('DOB 10/05/1943')).toBeVisible();
  await expect(page.getByText('2500 Clement St')).toBeVisible();
  await expect(page.getByText('Medicare', { exact: true })).toBeVisible();
  await shot(page, '04-patient-profile');

  // Create a patient: a date of birth in the future is refused with the spec's message.
  await page.getByRole('link', { name: 'Patients', exact: true }).first().click();
  await page.getByRole('link', { name: 'New patient' }).click();
  await expect(page).toHaveURL(/#\/patients\/new$/);
  const lastName = uniqueLastName();
  await field(page, 'First Name').fill('Marisol');
  await field(page, 'Last Name').fill(lastName);
  await field(page, 'Date of Birth').fill('01/15/2090');
  await page.getByRole('button', { name: /Gender/ }).click();
  await page.getByRole('option', { name: 'Female' }).click();
  await field(page, 'Mobile Phone').fill('512 555 0177');
  await field(page, 'Address Line 1').fill('77 Riverside Dr');
  await field(page, 'City').fill('Austin');
  await field(page, 'State').fill('TX');
  await field(page, 'Zip Code').fill('78704');
  await field(page, 'Payer').fill('Aetna');
  await page.getByRole('button', { name: 'Create patient' }).click();

  await expect(page.getByText('Date of birth cannot be after today')).toBeVisible();
  await expect(page).toHaveURL(/#\/patients\/new$/);
  // What was typed is kept.
  await expect(field(page, 'First Name')).toHaveValue('Marisol');
  await expect(field(page, 'Mobile Phone')).toHaveValue('(512) 555-0177');
  await shot(page, '05-validation-message');

  await field(page, 'Date of Birth').fill('01/15/1990');
  await page.getByRole('button', { name: 'Create patient' }).click();

  const heading = page.getByRole('heading', { level: 1, name: new RegExp(`^Marisol ${lastName} \\(\\d+\\)$`) });
  await expect(heading).toBeVisible();
  await expect(page).toHaveURL(/#\/patients\/[^/]+$/);
  await expect(page.getByText('DOB 01/15/1990')).toBeVisible();
  await expect(page.getByText('(512) 555-0177')).toBeVisible();
  await shot(page, '06-created-profile');

  // The new patient is found by search, by name and by part of the phone number.
  await page.getByRole('link', { name: 'Patients', exact: true }).first().click();
  await page.getByRole('searchbox', { name: 'Search patients' }).fill(lastName);
  await expect(page.getByRole('link', { name: new RegExp(`^Marisol ${lastName}`) })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Patients' }).getByRole('row')).toHaveCount(2);
  await page.getByRole('searchbox', { name: 'Search patients' }).fill('555-0177');
  await expect(page.getByRole('link', { name: new RegExp(`^Marisol ${lastName}`) })).toBeVisible();
  await shot(page, '07-search-new-patient');

  // Archiving asks first (the dialog's code comes with the first press); the chart then says so.
  await page.getByRole('link', { name: new RegExp(`^Marisol ${lastName}`) }).click();
  await expect(heading).toBeVisible();
  await page.getByRole('button', { name: 'Archive', exact: true }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Archive patient?' });
  await expect(confirm).toContainText(`Marisol ${lastName} will be moved to the archived patients.`);
  await shot(page, '08-archive-confirm');
  await confirm.getByRole('button', { name: 'Archive', exact: true }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText('Patient archived', { exact: true })).toBeVisible();
  await expect(page.getByText('Archived', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Archive', exact: true })).toHaveCount(0);
});

test('unknown routes, unknown patients, coming-soon screens and logout', async ({ page }) => {
  await page.goto('/#/home');
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Edit Dashboard' })).toBeVisible();
  const menu = page.getByRole('navigation', { name: 'Main' });
  // Communication and Tasks carry their unread badge ('1'…'9+') when earlier tests left unread items.
  await expect(menu.getByRole('link')).toHaveText([
    'Dashboard',
    'Patients',
    'Calendar',
    /^(\d|9\+)?Communication$/,
    /^(\d|9\+)?Tasks$/,
    'Forms',
    'Contacts',
    'Medications',
    'File Drive',
    'Reports',
    'Settings',
    'Edit Dashboard',
  ]);
  await shot(page, '08-dashboard');

  // The mini rail (60 px) widens to 270 px after a 300 ms hover.
  expect((await menu.boundingBox())?.width).toBe(60);
  await menu.hover();
  await expect.poll(async () => (await menu.boundingBox())?.width).toBe(270);
  await expect(menu.getByText('Communication')).toBeVisible();
  await shot(page, '08b-menu-expanded');
  await page.mouse.move(900, 500);
  await expect.poll(async () => (await menu.boundingBox())?.width).toBe(60);

  await page.goto('/#/no-such-place');
  await expect(page).toHaveURL(/#\/home$/);

  await page.goto('/#/reports');
  await expect(page.getByText('The Reports screen is coming soon.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Edit Dashboard' })).toHaveCount(0);

  await page.goto('/#/patients/pat-9999');
  await expect(page.getByText('Sorry, we were unable to find what you were looking for.')).toBeVisible();
  await shot(page, '09-not-found');

  // The user's name links to their team settings.
  await page.getByRole('link', { name: 'Daniel Okafor' }).click();
  await expect(page).toHaveURL(/#\/new-settings\/team\/[^/]+$/);

  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByLabel('Email')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
  await shot(page, '10-logged-out');
});

test('logout in one tab signs out the other tabs', async ({ page, context }) => {
  await page.goto('/#/patients');
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Patients', exact: true })).toBeVisible();

  const other = await context.newPage();
  await other.goto('/#/home');
  await expect(other.getByRole('heading', { name: 'Dashboard' })).toBeVisible();

  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByLabel('Email')).toBeVisible();
  await expect(other.getByLabel('Email')).toBeVisible();
});

test('on a phone the side menu is an overlay', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto('/#/patients');
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Patients', exact: true })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
  await shot(page, '11a-mobile-list');

  await page.getByRole('button', { name: 'Open menu' }).click();
  const menu = page.getByRole('navigation', { name: 'Main' });
  await expect.poll(async () => (await menu.boundingBox())?.width).toBe(270);
  await shot(page, '11b-mobile-menu');

  await menu.getByRole('link', { name: 'Calendar' }).click();
  await expect(page).toHaveURL(/#\/calendar$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Calendar' })).toBeVisible();
  await expect(menu).toHaveCount(0);
});
