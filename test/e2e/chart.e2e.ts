import { expect, test, type Locator, type Page } from '@playwright/test';
import { drawer, menuAction, section } from './support/chart.js';
import { PROVIDER, signIn } from './support/sign-in.js';

const SHOTS = 'test-results/screenshots';

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

/**
 * Every local server builds into the one web/dist, so another server's rebuild can leave the page
 * without its index or a lazy chunk for a moment; the screen is then loaded again.
 */
async function openScreen(page: Page, hash: string, ready: Locator) {
  await page.goto(hash);
  for (let attempt = 0; attempt < 8; attempt += 1) {
    if (
      await ready.waitFor({ timeout: 10_000 }).then(
        () => true,
        () => false,
      )
    )
      return;
    await page.reload();
  }
  await expect(ready).toBeVisible();
}

test('provider keeps the structured chart of a patient', async ({ page }, testInfo) => {
  // A retry takes a patient of its own, so every attempt starts from an empty chart.
  const patientId = `pat-00${27 + testInfo.retry}`;
  test.setTimeout(240_000);
  await signIn(page, PROVIDER, '/patients');
  await openScreen(page, '/#/patients', page.getByRole('heading', { name: 'Patients', exact: true }));
  // Reach the list and the chart by in-app links, as a user does: Back from the chart is then a
  // router navigation the guard can hold (below). An entry made by typing a URL is not.
  const mainMenu = page.getByRole('navigation', { name: 'Main' });
  await mainMenu.getByRole('link', { name: 'Dashboard' }).click();
  await expect(page).toHaveURL(/#\/home/);
  await mainMenu.getByRole('link', { name: 'Patients' }).click();
  await expect(page.getByRole('heading', { name: 'Patients', exact: true })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search patients' }).fill(patientId === 'pat-0027' ? 'Novak' : patientId === 'pat-0028' ? 'Kowalski' : '');
  await page.locator(`a[href$="/patients/${patientId}"]`).first().click();
  await expect(page.getByRole('heading', { name: 'Health Summary' })).toBeVisible();
  for (const title of ['General', 'Allergies', 'Medications', 'Vaccines', 'Medical Conditions', 'Surgical History', 'Family History', 'Social History']) {
    await expect(section(page, title)).toBeVisible();
  }
  const allergies = section(page, 'Allergies');
  // The practice has the redesigned problem list: Active/Resolved filter, Active by default.
  await expect(allergies.getByRole('radio', { name: 'Active' })).toBeChecked();
  await expect(allergies.getByText('No Active allergies')).toBeVisible();
  await expect(section(page, 'Surgical History').getByText('No surgeries found.')).toBeVisible();
  await shot(page, 'chart-01-empty-summary');

  // Allergy with a severity.
  await allergies.getByRole('button', { name: 'Add allergy' }).click();
  const addAllergy = drawer(page, 'Add Allergy');
  await expect(addAllergy).toBeVisible();
  await addAllergy.getByRole('textbox', { name: 'Name' }).fill('Penicillin');
  await addAllergy.getByRole('button', { name: /Severity/ }).click();
  await page.getByRole('option', { name: 'Severe' }).click();
  await addAllergy.getByRole('textbox', { name: 'Description' }).fill('Hives and wheezing');
  await shot(page, 'chart-02-add-allergy');
  await addAllergy.getByRole('button', { name: 'Save' }).click();
  await expect(addAllergy).toHaveCount(0);
  const penicillin = allergies.getByRole('listitem', { name: 'Penicillin' });
  await expect(penicillin).toBeVisible();
  await expect(penicillin.getByText('Severe')).toBeVisible();

  // Pin it.
  await menuAction(page, penicillin, /Actions for allergy Penicillin/, 'Pin');
  await expect(penicillin.getByText('Pinned')).toBeAttached();
  await expect(penicillin).toHaveAttribute('data-pinned', 'true');

  // Resolve it (double-click opens the edit form) and find it under Resolved.
  await penicillin.dblclick();
  const editAllergy = drawer(page, 'Edit Allergy');
  await expect(editAllergy.getByRole('textbox', { name: 'Name' })).toHaveValue('Penicillin');
  // The checkbox input is visually hidden: a person presses its label.
  await editAllergy.getByText('Active', { exact: true }).click();
  await expect(editAllergy.getByRole('checkbox', { name: 'Active' })).not.toBeChecked();
  await editAllergy.getByRole('button', { name: 'Save' }).click();
  await expect(allergies.getByText('No Active allergies')).toBeVisible();
  await allergies.getByText('Resolved', { exact: true }).click();
  await expect(allergies.getByRole('radio', { name: 'Resolved' })).toBeChecked();
  await expect(penicillin).toBeVisible();
  await expect(penicillin).toHaveAttribute('data-pinned', 'true');
  await shot(page, 'chart-03-allergy-resolved');

  // Medical condition: an end date before the start is refused in the form, values kept.
  const conditions = section(page, 'Medical Conditions');
  await conditions.getByRole('button', { name: 'Add medical condition' }).click();
  const addCondition = drawer(page, 'Add Medical Condition');
  await addCondition.getByRole('textbox', { name: 'Name' }).fill('Essential hypertension');
  await addCondition.getByRole('textbox', { name: 'Start Date' }).fill('03/2024');
  await addCondition.getByRole('textbox', { name: 'End Date' }).fill('01/2023');
  await addCondition.getByRole('button', { name: 'Save' }).click();
  await expect(addCondition.getByText('End Date must come after Start Date')).toBeVisible();
  await expect(addCondition.getByRole('textbox', { name: 'Name' })).toHaveValue('Essential hypertension');
  await shot(page, 'chart-04-condition-date-order');
  await addCondition.getByRole('textbox', { name: 'End Date' }).fill('');
  // ICD-10 search: code and description in each option.
  await addCondition.getByRole('combobox', { name: 'ICD-10 code' }).fill('hypertension');
  await page.getByRole('option', { name: /I10\s*Essential \(primary\) hypertension/ }).click();
  await addCondition.getByRole('button', { name: 'Save' }).click();
  const hypertension = conditions.getByRole('listitem', { name: 'Essential hypertension' });
  await expect(hypertension).toContainText('Since 03/2024');
  await expect(hypertension).toContainText('I10');

  // Picking a code while Name is empty fills the required Name from the code's description.
  await conditions.getByRole('button', { name: 'Add medical condition' }).click();
  const codeFirst = drawer(page, 'Add Medical Condition');
  await codeFirst.getByRole('combobox', { name: 'ICD-10 code' }).fill('asthma');
  await page.getByRole('option', { name: /J45\.909\s*Unspecified asthma, uncomplicated/ }).click();
  await expect(codeFirst.getByRole('textbox', { name: 'Name' })).toHaveValue('Unspecified asthma, uncomplicated');
  await codeFirst.getByRole('button', { name: 'Save' }).click();
  await expect(conditions.getByRole('listitem', { name: 'Unspecified asthma, uncomplicated' })).toContainText('J45.909');

  // Medication found by drug search, then moved to history.
  const medications = section(page, 'Medications');
  await medications.getByRole('button', { name: 'Add medication' }).click();
  const addMedication = drawer(page, 'Add Medication');
  await expect(addMedication.getByRole('textbox', { name: 'NDC' })).toHaveAttribute('placeholder', '0000-0000-00');
  await expect(addMedication.getByText('required to sync with the e-prescribing system')).toBeVisible();
  await addMedication.getByRole('combobox', { name: /Name/ }).fill('lisinopril');
  const option = page.getByRole('option', { name: /lisinopril/i }).first();
  await expect(option).toBeVisible();
  await shot(page, 'chart-05-drug-search');
  await option.click();
  await expect(addMedication.getByRole('textbox', { name: 'Strength' })).not.toHaveValue('');
  await addMedication.getByRole('textbox', { name: 'Sig' }).fill('1 tablet by mouth daily');
  await addMedication.getByRole('button', { name: 'Save' }).click();
  const lisinopril = medications.getByRole('listitem', { name: /lisinopril/i });
  await expect(lisinopril).toBeVisible();
  await menuAction(page, lisinopril, /Actions for medication/i, 'Move to History');
  await expect(medications.getByText('No results found.')).toBeVisible();
  await medications.getByText('Discontinued', { exact: true }).click();
  await expect(lisinopril).toContainText('Discontinued');

  // Two vaccine doses, entered out of order, shown grouped by date then dose.
  const vaccines = section(page, 'Vaccines');
  await vaccines.getByRole('button', { name: 'Add vaccine' }).click();
  let addVaccine = drawer(page, 'Add Vaccine');
  // "influ" offers influenza vaccines first, not Hib (whose long name says Haemophilus influenzae).
  await addVaccine.getByRole('combobox', { name: /Name/ }).fill('influ');
  await expect(page.getByRole('option').first()).toContainText(/^\d+\s*Influenza|Influenza/);
  await expect(page.getByRole('option').first()).not.toContainText('Hib');
  await addVaccine.getByRole('combobox', { name: /Name/ }).fill('Hepatitis B');
  // CVX suggestions are offered; the typed name is kept when none is picked.
  await expect(page.getByRole('option', { name: /Hep B, adult/ })).toBeVisible();
  await page.keyboard.press('Tab');
  await addVaccine.getByRole('textbox', { name: 'Date', exact: true }).fill('03/01/2024');
  await addVaccine.getByRole('textbox', { name: 'Dose number' }).fill('2');
  await addVaccine.getByRole('button', { name: 'Save' }).click();
  await expect(addVaccine).toHaveCount(0);
  const hepB = vaccines.getByRole('region', { name: 'Hepatitis B' });
  await hepB.getByRole('button', { name: 'Add dose' }).click();
  addVaccine = drawer(page, 'Add Vaccine');
  await expect(addVaccine.getByRole('combobox', { name: /Name/ })).toHaveValue('Hepatitis B');
  await addVaccine.getByRole('textbox', { name: 'Date', exact: true }).fill('01/05/2024');
  await addVaccine.getByRole('textbox', { name: 'Dose number' }).fill('1');
  await addVaccine.getByRole('button', { name: 'Save' }).click();
  await expect(hepB).toContainText('2 doses');
  await expect(hepB.getByRole('listitem')).toHaveText([/Dose 1\s*01\/05\/2024/, /Dose 2\s*03\/01\/2024/]);
  await shot(page, 'chart-06-summary-filled');

  // Leaving with a dirty form asks first; staying keeps what was typed.
  await section(page, 'Surgical History').getByRole('button', { name: 'Add surgery' }).click();
  const addSurgery = drawer(page, 'Add Surgery');
  await addSurgery.getByRole('textbox', { name: 'Name' }).fill('Appendectomy');
  // The form has reported itself dirty to the guard before the user leaves.
  await expect(page.locator('#tw-chart-item-form[data-dirty="true"]')).toBeAttached();
  await page.goBack();
  const guard = page.getByRole('alertdialog', { name: 'Leave this page?' });
  await expect(guard.getByText('You have unsaved changes, are you sure you want to leave?')).toBeVisible();
  await shot(page, 'chart-07-unsaved-guard');
  await guard.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(new RegExp(`#/patients/${patientId}$`));
  await expect(addSurgery.getByRole('textbox', { name: 'Name' })).toHaveValue('Appendectomy');
  await page.goBack();
  await page.getByRole('alertdialog', { name: 'Leave this page?' }).getByRole('button', { name: 'Leave' }).click();
  await expect(page).toHaveURL(/#\/patients(\?.*)?$/);
});
