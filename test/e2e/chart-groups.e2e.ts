import { expect, test } from '@playwright/test';
import { apiSessionOf, callApi } from './support/api-as.js';
import { drawer, menuAction, openChart, section } from './support/chart.js';
import { PROVIDER, signIn } from './support/sign-in.js';

const SHOTS = 'test-results/screenshots';

test('groups are renamed and deleted, freeform medications kept, deleted items said so', async ({ page, request }, testInfo) => {
  test.setTimeout(240_000);
  const patientId = `pat-00${31 + testInfo.retry}`;
  await signIn(page, PROVIDER, '/home');
  await openChart(page, patientId);

  // ---- General information group: two items filed under "Lifestyle".
  const general = section(page, 'General');
  for (const name of ['Runs 3x/week', 'Never smoked']) {
    await general.getByRole('button', { name: 'Add general item' }).click();
    const form = drawer(page, 'Add General Information');
    await form.getByRole('textbox', { name: 'Name' }).fill(name);
    await form.getByRole('textbox', { name: 'Group' }).fill('Lifestyle');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form).toHaveCount(0);
  }
  const lifestyle = general.getByRole('region', { name: 'Lifestyle' });
  await expect(lifestyle).toContainText('2 items');
  await expect(lifestyle.getByRole('listitem')).toHaveCount(2);

  // Rename: an empty name is refused with the spec's words, then the new name sticks.
  await menuAction(page, lifestyle, 'Actions for group Lifestyle', 'Rename group');
  const rename = page.getByRole('dialog', { name: 'Rename group' });
  await rename.getByRole('textbox', { name: 'Group Name' }).fill('');
  await rename.getByRole('button', { name: 'Save' }).click();
  await expect(rename.getByText('Group Name is not valid')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/chart-groups-01-rename-invalid.png` });
  await rename.getByRole('textbox', { name: 'Group Name' }).fill('Habits');
  await rename.getByRole('button', { name: 'Save' }).click();
  await expect(rename).toHaveCount(0);
  const habits = general.getByRole('region', { name: 'Habits' });
  await expect(habits.getByRole('listitem')).toHaveText([/Runs 3x\/week|Never smoked/, /Runs 3x\/week|Never smoked/]);
  await expect(general.getByRole('region', { name: 'Lifestyle' })).toHaveCount(0);
  // Its items open with the new group name.
  await habits.getByRole('listitem', { name: 'Never smoked' }).dblclick();
  const edit = drawer(page, 'Edit General Information');
  await expect(edit.getByRole('textbox', { name: 'Group' })).toHaveValue('Habits');
  await edit.getByRole('button', { name: 'Cancel' }).click();

  // Delete the group: the question names what goes, and its items go with it.
  await menuAction(page, habits, 'Actions for group Habits', 'Delete group');
  const confirmGroup = page.getByRole('alertdialog', { name: 'Delete group?' });
  await expect(confirmGroup).toContainText('"Habits" and its 2 items will be removed from the chart.');
  await page.screenshot({ path: `${SHOTS}/chart-groups-02-delete-group.png` });
  await confirmGroup.getByRole('button', { name: 'Delete' }).click();
  await expect(habits).toHaveCount(0);
  await expect(general.getByText('No results found.')).toBeVisible();

  // ---- Vaccine series: renamed, then deleted with its doses.
  const vaccines = section(page, 'Vaccines');
  await vaccines.getByRole('button', { name: 'Add vaccine' }).click();
  const addVaccine = drawer(page, 'Add Vaccine');
  await addVaccine.getByRole('combobox', { name: /Name/ }).fill('Influenza');
  await page.keyboard.press('Tab');
  await addVaccine.getByRole('textbox', { name: 'Date', exact: true }).fill('10/01/2024');
  await addVaccine.getByRole('textbox', { name: 'Dose number' }).fill('1');
  await addVaccine.getByRole('button', { name: 'Save' }).click();
  await expect(addVaccine).toHaveCount(0);
  const influenza = vaccines.getByRole('region', { name: 'Influenza' });
  await expect(influenza).toContainText('1 dose');
  await menuAction(page, influenza, 'Actions for group Influenza', 'Rename group');
  await rename.getByRole('textbox', { name: 'Group Name' }).fill('Seasonal flu');
  await rename.getByRole('button', { name: 'Save' }).click();
  const flu = vaccines.getByRole('region', { name: 'Seasonal flu' });
  await expect(flu.getByRole('listitem')).toHaveText([/Dose 1\s*10\/01\/2024/]);
  await page.screenshot({ path: `${SHOTS}/chart-groups-03-series-renamed.png` });
  await menuAction(page, flu, 'Actions for group Seasonal flu', 'Delete group');
  await expect(confirmGroup).toContainText('"Seasonal flu" and its 1 dose will be removed from the chart.');
  await confirmGroup.getByRole('button', { name: 'Delete' }).click();
  await expect(flu).toHaveCount(0);
  await expect(vaccines.getByText('No results found.')).toBeVisible();

  // ---- Freeform medications under the coded ones.
  const medications = section(page, 'Medications');
  await medications.getByRole('button', { name: 'Add freeform medication' }).click();
  const addFreeform = drawer(page, 'Add Freeform Medication');
  await addFreeform.getByRole('textbox', { name: 'Name' }).fill(' ');
  await addFreeform.getByRole('button', { name: 'Save' }).click();
  await expect(addFreeform.getByText('Name is required')).toBeVisible();
  await addFreeform.getByRole('textbox', { name: 'Name' }).fill('Fish oil');
  await addFreeform.getByRole('button', { name: 'Save' }).click();
  await expect(addFreeform).toHaveCount(0);
  const freeform = medications.getByRole('region', { name: 'Freeform medications' });
  await expect(freeform.getByRole('listitem', { name: 'Fish oil' })).toBeVisible();
  await freeform.getByRole('listitem', { name: 'Fish oil' }).dblclick();
  const editFreeform = drawer(page, 'Edit Freeform Medication');
  await editFreeform.getByRole('textbox', { name: 'Name' }).fill('Fish oil 1000 mg');
  await editFreeform.getByRole('button', { name: 'Save' }).click();
  await expect(freeform.getByRole('listitem', { name: 'Fish oil 1000 mg' })).toBeVisible();
  await expect(medications.getByText('No results found.')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/chart-groups-04-freeform.png` });
  await menuAction(page, freeform, 'Actions for freeform medication Fish oil 1000 mg', 'Delete');
  const confirmFreeform = page.getByRole('alertdialog', { name: 'Delete freeform medication?' });
  await expect(confirmFreeform).toContainText('"Fish oil 1000 mg" will be removed from the chart.');
  await confirmFreeform.getByRole('button', { name: 'Delete' }).click();
  await expect(freeform).toHaveCount(0);
  await expect(medications.getByRole('button', { name: 'Add freeform medication' })).toBeVisible();

  // ---- "This {type} has been deleted".
  const session = await apiSessionOf(page);
  const base = `/v1/patients/${patientId}`;
  // An allergy a note links to, deleted from the health summary.
  const linked = await callApi(request, session, 'POST', `${base}/allergies`, {
    name: 'Shellfish',
    noteDataLinks: [{ dataType: 'allergy', dataId: 'pending', linkId: 'link-e2e-1', noteId: 'note-e2e-1' }],
  });
  expect(linked.status).toBe(201);
  // A condition opened for editing, then deleted by someone else before it is saved.
  const condition = await callApi(request, session, 'POST', `${base}/diagnoses`, { name: 'Gout', pinned: 0, date: '01/2023' });
  expect(condition.status).toBe(201);
  await page.reload();
  const allergies = section(page, 'Allergies');
  const shellfish = allergies.getByRole('listitem', { name: 'Shellfish' });
  await menuAction(page, shellfish, 'Actions for allergy Shellfish', 'Delete');
  await page.getByRole('alertdialog', { name: 'Delete allergy?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('This allergy has been deleted')).toBeVisible();
  await expect(shellfish).toHaveCount(0);

  const conditions = section(page, 'Medical Conditions');
  await conditions.getByRole('listitem', { name: 'Gout' }).dblclick();
  const editCondition = drawer(page, 'Edit Medical Condition');
  await expect(editCondition.getByRole('textbox', { name: 'Name' })).toHaveValue('Gout');
  const ident = (condition.json as { ident: string }).ident;
  expect((await callApi(request, session, 'DELETE', `${base}/diagnoses/${ident}`)).status).toBe(204);
  await editCondition.getByRole('textbox', { name: 'Name' }).fill('Gout, left foot');
  await editCondition.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('This diagnosis has been deleted')).toBeVisible();
  await expect(editCondition).toHaveCount(0);
  await expect(conditions.getByRole('listitem', { name: /Gout/ })).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/chart-groups-05-deleted-message.png` });
});
