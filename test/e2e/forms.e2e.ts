import { expect, test } from '@playwright/test';
import { openChart, section } from './support/chart.js';
import { apiAs, PROVIDER, signIn } from './support/sign-in.js';

const SHOTS = 'test-results/screenshots';
const PATIENT = 'pat-0019';

test('a provider sends an intake form, the patient fills it on the local page, the FORM notification arrives, and two answers go into the health summary with their source', async ({
  page,
  context,
}, testInfo) => {
  test.setTimeout(180_000);
  const run = `${Date.now().toString(36)}${testInfo.retry}`;
  await signIn(page, PROVIDER, '/home');
  await openChart(page, PATIENT);

  await page.getByRole('button', { name: 'New interaction' }).click();
  await page.getByRole('menuitem', { name: 'Form', exact: true }).click();
  const win = page.locator('.tw-note-window').last();
  await expect(win.getByRole('heading', { name: /^Form · / })).toBeVisible();
  // Spec notes §5: nothing chosen, nothing is sent.
  await win.getByRole('button', { name: 'Send form' }).click();
  await expect(win.getByRole('alert')).toHaveText('Please select a form');
  await win.getByRole('button', { name: /Form$/ }).click();
  await page.getByRole('option', { name: 'New Patient Intake' }).click();
  await win.getByRole('textbox', { name: 'Email' }).fill(`intake.${run}@example.com`);
  await page.screenshot({ path: `${SHOTS}/forms-01-send.png` });
  await win.getByRole('button', { name: 'Send form' }).click();
  await expect(win.getByText(`intake.${run}@example.com`)).toBeVisible();
  await expect(win.getByText('sent', { exact: true })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/forms-02-sent.png` });

  // The patient's page of IntakeQ's local stand-in.
  const link = win.getByRole('link', { name: "Open the patient's form (IntakeQ local stand-in)" });
  const patientPage = await context.newPage();
  await patientPage.goto((await link.getAttribute('href'))!);
  await expect(patientPage.getByRole('heading', { level: 1, name: /IntakeQ \(local stand-in\)/ })).toBeVisible();
  await patientPage.getByRole('textbox', { name: /What brings you in today/ }).fill('Yearly check-up');
  await patientPage.getByRole('textbox', { name: /Which medications/ }).fill('Lisinopril 10 mg daily');
  await patientPage.getByRole('textbox', { name: /allergic/ }).fill(`Sulfa ${run}\nLatex`);
  await patientPage.getByRole('textbox', { name: /medical conditions/ }).fill('Hypertension');
  await patientPage.getByRole('textbox', { name: /family/ }).fill('Diabetes (mother)');
  await patientPage.getByRole('radio', { name: 'Former' }).check();
  await patientPage.getByRole('textbox', { name: /occupation/ }).fill('Nurse');
  await patientPage.screenshot({ path: `${SHOTS}/forms-03-patient-page.png`, fullPage: true });
  await patientPage.getByRole('button', { name: 'Submit form' }).click();
  await expect(patientPage.getByRole('status')).toHaveText('Thank you. Your answers were sent to the practice.');
  await patientPage.close();

  // The sender is told (FORM notification), and the open form note shows the answers.
  await expect(page.getByText('New Patient Intake submitted').first()).toBeVisible({ timeout: 30_000 });
  await expect(win.getByText('submitted', { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(win.getByText(`Sulfa ${run}`)).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/forms-04-submitted.png` });

  // Add to Health Summary: each question starts in the section its wording names (none for the visit's reason).
  await win.getByRole('button', { name: 'Add to Health Summary' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add to Health Summary' });
  const confirm = dialog.getByRole('button', { name: 'Confirm' });
  await expect(confirm).toBeDisabled();
  const sectionOf = (question: RegExp) => dialog.getByRole('button', { name: question });
  await expect(sectionOf(/Section for Which medications/)).toContainText('Medications');
  await expect(sectionOf(/Section for Are you allergic/)).toContainText('Allergies');
  await expect(sectionOf(/Section for Which medical conditions/)).toContainText('Medical Conditions');
  await expect(sectionOf(/Section for Which surgeries/)).toContainText('Surgeries');
  await expect(sectionOf(/Section for Which conditions run in your family/)).toContainText('Family History');
  await expect(sectionOf(/Section for Do you smoke/)).toContainText('Social');
  await expect(sectionOf(/Section for What brings you in/)).not.toContainText(
    /Medications|Allergies|Medical Conditions|Surgeries|Family History|Social|General/,
  );
  // The allergies answer into Allergies as preselected, the tobacco answer into Social with a title.
  await dialog.getByText(/^Add Are you allergic/).click();
  await expect(dialog.getByRole('checkbox', { name: /^Add Are you allergic/ })).toBeChecked();
  await dialog.getByText('Add Do you smoke or use tobacco?').click();
  // An enabled Social question needs its title: Confirm waits for it.
  await expect(confirm).toBeDisabled();
  await dialog.getByRole('textbox', { name: 'Title for Do you smoke or use tobacco?' }).fill('Tobacco use');
  await expect(confirm).toBeEnabled();
  await page.screenshot({ path: `${SHOTS}/forms-05-mapping.png` });
  await confirm.click();
  await expect(dialog).toHaveCount(0);
  await expect(win.getByText('fulfilled', { exact: true })).toBeVisible();
  await win.getByRole('button', { name: 'Close note' }).click();

  const allergies = section(page, 'Allergies');
  await expect(allergies.getByText(`Sulfa ${run}`)).toBeVisible();
  await expect(allergies.getByText('From New Patient Intake').first()).toBeVisible();
  const social = section(page, 'Social History');
  await expect(social.getByText('Tobacco use')).toBeVisible();
  await expect(social.getByText(/From New Patient Intake/).first()).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/forms-06-health-summary.png`, fullPage: true });

  // The Forms screen lists the questionnaires and opens IntakeQ.
  await page.goto('/#/forms');
  await expect(page.getByRole('heading', { level: 1, name: 'Forms' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Forms' }).getByText('New Patient Intake')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Open IntakeQ (local stand-in)' })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/forms-07-screen.png` });
});

test("the Forms screen edits a form's mapping by the spec rules: a General or Social question needs its title, nothing changed saves nothing", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, PROVIDER, '/home');
  // A submission of the form tells the practice its questions.
  const sent = await apiAs(page, 'POST', '/v2/practices/forms/send', {
    patientId: 'pat-0022',
    formId: '5f1a2b3c4d5e6f7081920a1b',
    sendMethod: 'Email',
    email: 'mapping.editor@example.com',
  });
  expect(sent.status).toBe(200);
  const { ssoUrl } = (await apiAs(page, 'GET', '/v2/practices/sso/intakeq')).json as { ssoUrl: string };
  const filled = await page.request.post(`${ssoUrl.replace(/\/#\/.*$/, '')}/fill/${(sent.json as { data: { intakeId: string } }).data.intakeId}`, {
    form: { concern: 'Check-up', tobacco: 'Never', occupation: 'Carpenter' },
  });
  expect(filled.status()).toBe(200);

  await page.goto('/#/forms');
  await expect(page.getByRole('heading', { level: 1, name: 'Forms' })).toBeVisible();
  // A form nobody has submitted has no questions to map yet.
  await page.getByRole('button', { name: 'Edit mapping of Annual Health Update' }).click();
  let dialog = page.getByRole('dialog', { name: 'Form mapping: Annual Health Update' });
  await expect(dialog.getByText(/No questions yet/)).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Save mapping' })).toBeDisabled();
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('button', { name: 'Edit mapping of New Patient Intake' }).click();
  dialog = page.getByRole('dialog', { name: 'Form mapping: New Patient Intake' });
  const save = dialog.getByRole('button', { name: 'Save mapping' });
  const table = dialog.getByRole('table', { name: 'Mapping of New Patient Intake' });
  await expect(table.getByRole('row')).toHaveCount(11);
  await expect(save).toBeDisabled();
  await dialog.getByText('Add What is your occupation?').click();
  await dialog.getByRole('button', { name: /Section for What is your occupation/ }).click();
  await page.getByRole('option', { name: 'Medications' }).click();
  // Only General and Social take a title.
  await expect(dialog.getByRole('textbox', { name: 'Title for What is your occupation?' })).toBeDisabled();
  await dialog.getByRole('button', { name: /Section for What is your occupation/ }).click();
  await page.getByRole('option', { name: 'General' }).click();
  await expect(dialog.getByText('A title is required for a health history question.')).toBeVisible();
  await expect(save).toBeDisabled();
  await dialog.getByRole('textbox', { name: 'Title for What is your occupation?' }).fill('Occupation');
  await expect(save).toBeEnabled();
  await page.screenshot({ path: `${SHOTS}/forms-08-mapping-editor.png` });
  await save.click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText('Form mapping saved')).toBeVisible();

  // Read back from the server: the question is mapped, and unchanged it cannot be saved again.
  await page.reload();
  await page.getByRole('button', { name: 'Edit mapping of New Patient Intake' }).click();
  dialog = page.getByRole('dialog', { name: 'Form mapping: New Patient Intake' });
  await expect(dialog.getByRole('checkbox', { name: 'Add What is your occupation?' })).toBeChecked();
  await expect(dialog.getByRole('textbox', { name: 'Title for What is your occupation?' })).toHaveValue('Occupation');
  await expect(dialog.getByRole('button', { name: 'Save mapping' })).toBeDisabled();
  // By keyboard: Escape closes it.
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
});

test("a form sent by text goes from the practice's number through its carrier, with the form's link, into the patient's conversation", async ({ page }) => {
  test.setTimeout(120_000);
  const patient = 'pat-0022';
  await signIn(page, PROVIDER, '/home');
  const phone = String((await apiAs(page, 'GET', `/v1/patients/${patient}`)).json.primaryPhoneNumber);
  const e164 = `+1${phone.replace(/\D/g, '').slice(-10)}`;
  await openChart(page, patient);
  await page.getByRole('button', { name: 'New interaction' }).click();
  await page.getByRole('menuitem', { name: 'Form', exact: true }).click();
  const win = page.locator('.tw-note-window').last();
  await win.getByRole('button', { name: /Form$/ }).click();
  await page.getByRole('option', { name: 'Annual Health Update' }).click();
  await win.getByRole('button', { name: /Send by$/ }).click();
  await page.getByRole('option', { name: 'SMS' }).click();
  // Empty: the patient's own phone.
  await expect(win.getByRole('textbox', { name: 'Phone number' })).toHaveValue('');
  await win.getByRole('button', { name: 'Send form' }).click();
  await expect(win.getByText('sent', { exact: true })).toBeVisible();
  await expect(win.getByText(`(${e164.slice(2, 5)}) ${e164.slice(5, 8)}-${e164.slice(8)}`)).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/forms-09-sent-by-sms.png` });

  // The patient's conversation has the text, from the practice's number, with the patient's page.
  await page.goto(`/#/messages/sms/${encodeURIComponent(e164)}/${encodeURIComponent('+15415550100')}`);
  const text = page.getByTestId('sms-message').filter({ hasText: 'please fill in Annual Health Update before your visit:' }).last();
  await expect(text).toBeVisible({ timeout: 30_000 });
  await expect(text).toContainText('/local/intakeq/fill/');
  await page.screenshot({ path: `${SHOTS}/forms-10-sms-conversation.png` });

  // The local sandbox carrier took it (no real text leaves the machine).
  await page.goto('/local/carrier');
  await expect(page.getByText(/please fill in Annual Health Update before your visit/).first()).toBeVisible();
});
