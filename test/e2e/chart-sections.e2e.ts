import { expect, test, type Locator, type Page } from '@playwright/test';
import { drawer, menuAction, openChart, section } from './support/chart.js';
import { PROVIDER, signIn } from './support/sign-in.js';

const SHOTS = 'test-results/screenshots';

/** Chart writes (POST, PUT, DELETE) the page sends, e.g. `PUT diagnoses`. */
function recordWrites(page: Page): string[] {
  const writes: string[] = [];
  page.on('request', (request) => {
    const match = /\/v1\/patients\/[^/]+\/([a-z-]+)/.exec(request.url());
    if (match && request.method() !== 'GET') writes.push(`${request.method()} ${match[1]}`);
  });
  return writes;
}

test('allergy form validates on touch and saves on close only when valid; unchanged conditions are not saved', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const patientId = `pat-00${34 + testInfo.retry}`;
  await signIn(page, PROVIDER, '/home');
  await openChart(page, patientId);
  const writes = recordWrites(page);

  // Leaving the empty name shows its message before any save (spec §5: validation runs on touch).
  const allergies = section(page, 'Allergies');
  await allergies.getByRole('button', { name: 'Add allergy' }).click();
  const add = drawer(page, 'Add Allergy');
  const name = add.getByRole('textbox', { name: 'Name' });
  await expect(name).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(add.getByText('Name is required')).toBeVisible();
  await add.getByRole('textbox', { name: 'Start Date' }).fill('13/45/2020');
  await add.getByRole('textbox', { name: 'Start Date' }).blur();
  await expect(add.getByText('Start Date is not valid')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/chart-sections-01-allergy-touched.png` });
  expect(writes).toEqual([]);
  await name.fill('Peanuts');
  await expect(add.getByText('Name is required')).toHaveCount(0);
  await add.getByRole('textbox', { name: 'Start Date' }).fill('04/02/2019');
  await expect(add.getByText('Start Date is not valid')).toHaveCount(0);

  // Closing the side modal validates and, the form being valid, saves it.
  await page.keyboard.press('Escape');
  await expect(add).toHaveCount(0);
  const peanuts = allergies.getByRole('listitem', { name: 'Peanuts' });
  await expect(peanuts).toContainText('04/02/2019');
  expect(writes).toEqual(['POST allergies']);

  // An invalid form is not saved on close: it stays open with the message.
  await peanuts.dblclick();
  const edit = drawer(page, 'Edit Allergy');
  await edit.getByRole('textbox', { name: 'Name' }).fill('');
  await page.keyboard.press('Escape');
  await expect(edit.getByText('Name is required')).toBeVisible();
  await expect(edit).toBeVisible();
  await edit.getByRole('button', { name: 'Cancel' }).click();
  await expect(edit).toHaveCount(0);
  await expect(peanuts).toBeVisible();
  expect(writes).toEqual(['POST allergies']);

  // A medical condition opened and saved without a change is not sent again (spec §4).
  const conditions = section(page, 'Medical Conditions');
  await conditions.getByRole('button', { name: 'Add medical condition' }).click();
  const addCondition = drawer(page, 'Add Medical Condition');
  await addCondition.getByRole('textbox', { name: 'Name' }).fill('Asthma');
  await addCondition.getByRole('button', { name: 'Save' }).click();
  const asthma = conditions.getByRole('listitem', { name: 'Asthma' });
  await expect(asthma).toBeVisible();
  await asthma.dblclick();
  const editCondition = drawer(page, 'Edit Medical Condition');
  await expect(editCondition.getByRole('textbox', { name: 'Name' })).toHaveValue('Asthma');
  await editCondition.getByRole('button', { name: 'Save' }).click();
  await expect(editCondition).toHaveCount(0);
  expect(writes).toEqual(['POST allergies', 'POST diagnoses']);

  // While the drug list is the built-in one, the form says how to load the FDA directory.
  await section(page, 'Medications').getByRole('button', { name: 'Add medication' }).click();
  const addMedication = drawer(page, 'Add Medication');
  await addMedication.getByRole('combobox', { name: /Name/ }).fill('metformin');
  await expect(page.getByRole('option', { name: /metformin/i }).first()).toBeVisible();
  await expect(addMedication.getByText(/load the FDA NDC directory to search every product with its NDC \(see README\)/)).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/chart-sections-02-drug-starter-notice.png` });
  // The first Escape closes the suggestions, then the form is left without saving.
  await page.keyboard.press('Escape');
  await expect(page.getByRole('listbox')).toHaveCount(0);
  await addMedication.getByRole('button', { name: 'Cancel' }).click();
  await expect(addMedication).toHaveCount(0);
  expect(writes).toEqual(['POST allergies', 'POST diagnoses']);
});

test('every section: add, double-click edit, pin from the menu (pinned first), delete after confirming, empty text', async ({ page }, testInfo) => {
  test.setTimeout(300_000);
  const patientId = `pat-00${36 + testInfo.retry}`;
  await signIn(page, PROVIDER, '/home');
  await openChart(page, patientId);

  // `name` sorts before "Placeholder entry", so vaccine series (listed by name) start in the same order.
  const cases = [
    { title: 'General', noun: 'general item', form: 'General Information', field: 'Name', name: 'Exercise', empty: 'No results found.' },
    { title: 'Allergies', noun: 'allergy', form: 'Allergy', field: 'Name', name: 'Latex', empty: 'No Active allergies' },
    { title: 'Medications', noun: 'medication', form: 'Medication', field: 'Name', combobox: true, name: 'Custom compound cream', empty: 'No results found.' },
    { title: 'Vaccines', noun: 'vaccine', form: 'Vaccine', field: 'Name', combobox: true, name: 'Hepatitis A', empty: 'No results found.' },
    { title: 'Medical Conditions', noun: 'medical condition', form: 'Medical Condition', field: 'Name', name: 'Migraine', empty: 'No results found.' },
    { title: 'Surgical History', noun: 'surgery', form: 'Surgery', field: 'Name', name: 'Appendectomy', empty: 'No surgeries found.' },
    { title: 'Family History', noun: 'family history item', form: 'Family History', field: 'Diagnosis', name: 'Type 2 diabetes', empty: 'No results found.' },
    { title: 'Social History', noun: 'social history item', form: 'Social History', field: 'Question', name: 'Tobacco use', empty: 'No results found.' },
  ];
  for (const c of cases) {
    const card = section(page, c.title);
    const field = (form: Locator) => (c.combobox ? form.getByRole('combobox', { name: new RegExp(c.field) }) : form.getByRole('textbox', { name: c.field }));
    await expect(card.getByText(c.empty, { exact: true })).toBeVisible();
    for (const name of ['Placeholder entry', c.name]) {
      await card.getByRole('button', { name: `Add ${c.noun}` }).click();
      const add = drawer(page, `Add ${c.form}`);
      await field(add).fill(name);
      // Code suggestions close; the typed name is kept.
      if (c.combobox) await page.keyboard.press('Tab');
      if (c.title === 'Social History') await add.getByRole('textbox', { name: 'Answer' }).fill('Never');
      await add.getByRole('button', { name: 'Save' }).click();
      await expect(add).toHaveCount(0);
    }
    // Newest first (vaccine series by name) until the other item is pinned.
    await expect(card.getByRole('listitem').first()).toHaveAccessibleName(new RegExp(`^${c.name}`));
    const other = card.getByRole('listitem', { name: 'Placeholder entry' });
    await menuAction(page, other, new RegExp(`Actions for ${c.noun} Placeholder entry`), 'Pin');
    await expect(other).toHaveAttribute('data-pinned', 'true');
    await expect(card.getByRole('listitem').first()).toHaveAccessibleName(/^Placeholder entry/);

    // Double-click opens the edit form with the item's values.
    const item = card.getByRole('listitem', { name: c.name });
    await item.dblclick();
    const edit = drawer(page, `Edit ${c.form}`);
    await expect(field(edit)).toHaveValue(c.name);
    if (c.title === 'Social History') {
      // A changed answer is added in front; the earlier one stays listed under it.
      await edit.getByRole('textbox', { name: 'Answer' }).fill('Former smoker');
      await edit.getByRole('button', { name: 'Save' }).click();
      await expect(edit).toHaveCount(0);
      await expect(item.getByRole('list', { name: 'Earlier answers' })).toContainText('Never');
      await expect(item).toContainText(/Former smoker.*Never/s);
    } else {
      await edit.getByRole('button', { name: 'Cancel' }).click();
      await expect(edit).toHaveCount(0);
    }

    // Deleting asks first; cancelling keeps the item.
    for (const [name, confirm] of [
      [c.name, false],
      [c.name, true],
      ['Placeholder entry', true],
    ] as const) {
      await menuAction(page, card.getByRole('listitem', { name }), new RegExp(`Actions for ${c.noun} ${name}`), 'Delete');
      const question = page.getByRole('alertdialog', { name: `Delete ${c.noun}?` });
      await expect(question).toContainText(`"${name}" will be removed from the chart.`);
      await question.getByRole('button', { name: confirm ? 'Delete' : 'Cancel' }).click();
      await expect(question).toHaveCount(0);
      await expect(card.getByRole('listitem', { name })).toHaveCount(confirm ? 0 : 1);
    }
    await expect(card.getByText(c.empty, { exact: true })).toBeVisible();
  }
  await page.screenshot({ path: `${SHOTS}/chart-sections-03-emptied.png` });
});
