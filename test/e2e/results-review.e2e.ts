import { expect, test, type Page } from '@playwright/test';
import { expectAccessible, namelessImages } from './support/axe.js';
import { apiAs, PROVIDER, signIn } from './support/sign-in.js';

const SHOTS = 'test-results/screenshots';
const run = Date.now().toString(36).slice(-5);
const PRACTICE_PHONE = '+15415550100';
/** Phones no other run uses: the carrier's opt-out list outlives a run. */
const phoneOf = (n: number) =>
  `+1974${String(Date.now() % 1_000_000)
    .padStart(6, '0')
    .slice(0, 3)}${String((Date.now() + n * 7919) % 10_000).padStart(4, '0')}`;

/** A CMP ordered through the API for the patient; the local lab answers in a few seconds. */
async function orderCmp(page: Page, patientId: string): Promise<string> {
  const note = await apiAs(page, 'POST', '/v2/notes', { noteId: 'new', noteType: 'LAB', status: 'DRAFT', data: { text: 'Labs' }, patientId });
  expect(note.status).toBe(201);
  const ordered = await apiAs(page, 'POST', `/v1/notes/${String(note.json.noteId)}/lab-order`, { noteVersion: note.json.noteVersion, tests: ['24323-8'] });
  expect(ordered.status).toBe(200);
  return String(note.json.noteId);
}

test('a provider reviews a critical lab result from the dashboard by keyboard, with a follow-up task and a text to the patient in one step; a text to a phone that replied STOP is kept with its reason; the screens pass axe at desktop and phone width', async ({
  page,
}) => {
  test.setTimeout(600_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, PROVIDER, '/home');
  const coraPhone = phoneOf(1);
  const piaPhone = phoneOf(2);
  const critical = await apiAs(page, 'POST', '/v1/patients', {
    firstName: 'Cora',
    lastName: `Critical${run}`,
    gender: 'female',
    dob: '1958-04-12',
    phones: [{ type: 'mobile', number: coraPhone }],
    primaryPhoneNumber: coraPhone,
  });
  const plain = await apiAs(page, 'POST', '/v1/patients', {
    firstName: 'Pia',
    lastName: `Plain${run}`,
    gender: 'female',
    dob: '1982-11-30',
    phones: [{ type: 'mobile', number: piaPhone }],
    primaryPhoneNumber: piaPhone,
  });
  // Pia's phone replied STOP: the carrier refuses texts to it.
  const stop = await page.request.post('/local/carrier/sms', { data: { from: piaPhone, to: PRACTICE_PHONE, text: 'STOP' } });
  expect(stop.status()).toBe(202);
  const criticalName = `Cora Critical${run}`;
  const plainName = `Pia Plain${run}`;
  await orderCmp(page, String(plain.json.id));
  const noteId = await orderCmp(page, String(critical.json.id));

  // The results arrive live: the toast names the patient and the test, the widget lists it without a reload.
  await expect(page.getByRole('alertdialog', { name: 'New lab results' }).filter({ hasText: criticalName }).first()).toContainText(
    'Comprehensive metabolic panel (CMP)',
    { timeout: 60_000 },
  );
  const widget = page.getByRole('region', { name: 'Results to Review' });
  const criticalLink = widget.getByRole('link', { name: new RegExp(`^${criticalName}, Comprehensive metabolic panel \\(CMP\\), critical$`) });
  await expect(criticalLink).toBeVisible({ timeout: 30_000 });
  await expect(widget.getByRole('link', { name: new RegExp(`^${plainName}, .*abnormal$`) })).toBeVisible({ timeout: 30_000 });
  // Critical before abnormal.
  const names = await widget.getByRole('link').allTextContents();
  expect(names.findIndex((n) => n.includes(criticalName))).toBeLessThan(names.findIndex((n) => n.includes(plainName)));
  await expectAccessible(page, 'dashboard with Results to Review, 1280 px');
  await page.screenshot({ path: `${SHOTS}/results-review-01-widget.png` });

  // Opened from the widget by keyboard.
  await criticalLink.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: `Result for ${criticalName}` })).toBeVisible();
  await expect(page.getByText('Critical', { exact: true }).first()).toBeVisible();
  // The lab note's own view: its result table and a trend of the values.
  const cmp = page.getByRole('table', { name: 'Comprehensive metabolic panel (CMP)' });
  await expect(cmp).toBeVisible({ timeout: 30_000 });
  await expectAccessible(page, 'result to review, 1280 px');
  await page.screenshot({ path: `${SHOTS}/results-review-02-result.png` });

  // Signed off by keyboard: a comment, a follow-up task with its due date, a text to the patient, Reviewed.
  await page.getByLabel('Comment (optional)').focus();
  await page.keyboard.type('Repeat potassium today');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Space');
  await expect(page.getByRole('textbox', { name: 'Follow-up task' })).toHaveValue(`Follow up on Comprehensive metabolic panel (CMP) for ${criticalName}`);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  // Assigned to the reviewer unless changed.
  await expect(page.getByRole('button', { name: /Daniel Okafor.*Assign to|Assign to.*Daniel Okafor/ })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Due date')).toBeFocused();
  await page.keyboard.type('03042031');
  const textPatient = page.getByRole('checkbox', { name: 'Text the patient' });
  for (let i = 0; i < 4 && !(await textPatient.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(textPatient).toBeFocused();
  await page.keyboard.press('Space');
  await expect(page.getByText(/^To \(\d{3}\) \d{3}-\d{4}, from the practice’s number$/)).toBeVisible();
  const message = page.getByRole('textbox', { name: 'Message to the patient' });
  await page.keyboard.press('Tab');
  await expect(message).toBeFocused();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(`Cora, please call us today about your potassium ${run}.`);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Reviewed' })).toBeFocused();
  await expectAccessible(page, 'sign-off with its follow-up task and text, 1280 px');
  await page.screenshot({ path: `${SHOTS}/results-review-02b-follow-up.png` });
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alertdialog', { name: 'Result reviewed' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Results to review' })).toBeVisible();
  const table = page.getByRole('table', { name: /Results to review/ });
  await expect(table.getByRole('link', { name: plainName })).toBeVisible();
  await expect(table.getByRole('link', { name: criticalName })).toHaveCount(0);
  // The Reviewed button that was read out as it worked has gone; nothing it said is left without a name.
  expect(await namelessImages(page)).toEqual([]);

  // Who and when are recorded; the follow-up task is on the provider's list.
  const review = await apiAs(page, 'GET', `/v1/notes/labs/reviews/${noteId}`);
  expect(review.json).toMatchObject({ status: 'REVIEWED', comment: 'Repeat potassium today', reviewedBy: { name: 'Daniel Okafor' } });
  expect(review.json.followUpMessage).toMatchObject({ status: 'SENT', to: coraPhone, text: `Cora, please call us today about your potassium ${run}.` });
  const task = await apiAs(page, 'GET', `/v1/tasks/${String(review.json.followUpTaskId)}`);
  expect(task.json).toMatchObject({
    text: `Follow up on Comprehensive metabolic panel (CMP) for ${criticalName}`,
    patientId: critical.json.id,
    dueOn: '2031-03-04',
  });
  // The success toast goes by itself (3 s); the screen is checked as it then stays.
  await expect(page.getByRole('alertdialog', { name: 'Result reviewed' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Reviewed', exact: true }).click();
  await expect(
    page
      .getByRole('table', { name: /Reviewed results/ })
      .getByRole('row')
      .filter({ hasText: criticalName }),
  ).toContainText('Daniel Okafor');
  // Right after the sign-off, without a reload: nothing the pending Reviewed button said is left unnamed.
  await expectAccessible(page, 'reviewed results, 1280 px');

  // Phone width: the list, one result and the widget.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('link', { name: 'To review', exact: true }).click();
  await expect(page.getByRole('table', { name: /Results to review/ }).getByRole('link', { name: plainName })).toBeVisible();
  await expectAccessible(page, 'results to review, 390 px');
  await page.screenshot({ path: `${SHOTS}/results-review-03-phone-list.png` });
  await page.goto('/#/home');
  await expect(page.getByRole('region', { name: 'Results to Review' }).getByRole('link', { name: new RegExp(`^${plainName}`) })).toBeVisible();
  await expectAccessible(page, 'dashboard with Results to Review, 390 px');
  await page.screenshot({ path: `${SHOTS}/results-review-04-phone-widget.png` });

  await page
    .getByRole('region', { name: 'Results to Review' })
    .getByRole('link', { name: new RegExp(`^${plainName}`) })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: `Result for ${plainName}` })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Comprehensive metabolic panel (CMP)' })).toBeVisible({ timeout: 30_000 });
  await expectAccessible(page, 'result to review, 390 px');
  // A text to the phone that replied STOP: the sign-off stands, the reason and the words stay on screen.
  const piaText = `Pia, your results are in; please call us ${run}.`;
  await page.getByRole('checkbox', { name: 'Text the patient' }).focus();
  await page.keyboard.press('Space');
  await page.getByRole('textbox', { name: 'Message to the patient' }).fill(piaText);
  await page.getByRole('button', { name: 'Reviewed' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: 'The result is reviewed, but the text to the patient was not sent.' })).toContainText('opted out');
  await expect(page.getByRole('textbox', { name: /^Message not sent to/ })).toHaveValue(piaText);
  await expect(page.getByText(/^Reviewed by Daniel Okafor/)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Open the conversation' })).toBeVisible();
  await expectAccessible(page, 'reviewed result with a text not sent, 390 px');
  await page.screenshot({ path: `${SHOTS}/results-review-05-phone-unsent.png` });
});
