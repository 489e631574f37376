import { expect, type Page } from '@playwright/test';
import { EMPLOYEE, PROVIDER, test, apiAs } from './support/sign-in.js';
import { expectAccessibleAtEach } from './support/axe.js';
import { tomorrowAt } from './support/practice-day.js';

const SHOTS = 'test-results/screenshots/workspace';

// Two signed-in browsers on a shared machine: a cold server can take a while to answer first.
test.describe.configure({ timeout: 240_000 });

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

test('a task assigned by the provider reaches the employee live, and the employee completes it', async ({ sessions }) => {
  const employee = await sessions.open(EMPLOYEE, '/tasks');
  await expect(employee.getByRole('heading', { name: 'My Tasks' })).toBeVisible();
  const tasksLink = employee.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Tasks/ });
  const badge = employee.getByTestId('menu-badge-tasks');
  // Waits for the first count so a badge that is about to appear is not read as none.
  await expect(employee.getByText(/^\d+ tasks?$/)).toBeVisible();
  await employee.waitForLoadState('networkidle');
  const before = (await badge.count()) ? Number(await badge.textContent()) : 0;

  const provider = await sessions.open(PROVIDER, '/tasks/new');
  await expect(provider.getByRole('heading', { name: 'New Task' })).toBeVisible();
  const text = `Call Grace Nakamura about her INR result ${Date.now().toString(36)}`;

  // Task text is required.
  await provider.getByRole('button', { name: 'Create Task' }).click();
  await expect(provider.getByText('Task text is required')).toBeVisible();

  await provider.getByRole('combobox', { name: 'Patient' }).fill('Grace');
  await provider.getByRole('option', { name: /^Grace Nakamura \(\d+\)$/ }).click();
  await provider.getByRole('button', { name: /Assign To/ }).click();
  await provider.getByRole('option', { name: 'Jordan Ellis' }).click();
  await provider.getByText('High Priority', { exact: true }).click();
  await expect(provider.getByRole('checkbox', { name: 'High Priority' })).toBeChecked();
  await provider.getByRole('textbox', { name: 'Task' }).fill(text);
  await shot(provider, '01-new-task-form');
  await provider.getByRole('button', { name: 'Create Task' }).click();
  await expect(provider).toHaveURL(/#\/tasks\/(?!new)[^/]+$/);
  await expect(provider.getByText('Unread', { exact: true })).toBeVisible();

  // The employee's badge and list change without a reload.
  await expect(badge).toHaveText(String(before + 1));
  await expect(tasksLink).toHaveAccessibleName(`Tasks, ${before + 1} unread`);
  const row = employee.getByRole('row', { name: new RegExp(text) });
  await expect(row).toBeVisible();
  await expect(row).toContainText('Grace Nakamura');
  await expect(row).toContainText('High');
  await expect(row).toContainText('Unread');
  await expect(employee.getByText('New task', { exact: true })).toBeVisible();
  await shot(employee, '02-employee-task-arrived-live');

  // Search narrows the list and survives a reload through the query string.
  await employee.getByRole('searchbox', { name: 'Search tasks' }).fill('INR result');
  await expect(employee).toHaveURL(/keyword=INR\+result/);
  await employee.reload();
  await expect(employee.getByRole('searchbox', { name: 'Search tasks' })).toHaveValue('INR result');
  await expect(employee.getByRole('row', { name: new RegExp(text) })).toBeVisible();

  await employee.getByRole('link', { name: text }).click();
  await expect(employee.getByRole('heading', { name: 'Task', exact: true })).toBeVisible();
  await expect(employee.getByRole('textbox', { name: 'Task' })).toHaveValue(text);
  // Opening it marks it read, which clears the badge.
  if (before === 0) await expect(badge).toHaveCount(0);
  else await expect(badge).toHaveText(String(before));
  await employee.getByRole('button', { name: 'Mark Complete' }).click();
  await expect(employee.getByText('This task is completed and can no longer be edited.')).toBeVisible();
  await expect(employee.getByRole('textbox', { name: 'Task' })).toHaveAttribute('readonly', '');
  await expect(employee.getByRole('button', { name: 'Save' })).toHaveCount(0);
  await expect(employee.getByRole('button', { name: 'Mark Complete' })).toHaveCount(0);
  await shot(employee, '03-completed-read-only');

  // The provider's practice view shows it completed.
  await provider.goto('/#/tasks/all?status=COMPLETED');
  await expect(provider.getByRole('row', { name: new RegExp(text) })).toContainText('Completed');
  await shot(provider, '04-practice-tasks-completed');

  // A task that cannot be loaded says so.
  await provider.goto('/#/tasks/no-such-task');
  await expect(provider.getByText('There was a problem loading this task')).toBeVisible();
});

test('Ctrl+K finds a patient and opens the chart', async ({ sessions }) => {
  const provider = await sessions.open(PROVIDER, '/home');
  await expect(provider.getByRole('button', { name: /Search/ })).toContainText(/Ctrl K|⌘K/);
  await provider.keyboard.press('Control+K');
  const input = provider.getByPlaceholder('Search for patients, templates, user, interactions, etc...');
  await expect(input).toBeFocused();
  await shot(provider, '05-palette-open');
  await input.fill('Nakamura');
  const patient = provider.getByRole('menuitem', { name: /^Grace Nakamura \(\d+\)$/ });
  await expect(patient).toBeVisible();
  await shot(provider, '06-palette-patient');
  await provider.keyboard.press('Enter');
  await expect(provider).toHaveURL(/#\/patients\/pat-0011$/);
  await expect(provider.getByRole('heading', { level: 1, name: /^Grace Nakamura \(\d+\)$/ })).toBeVisible();

  // Keyboard-first actions: the task list is two words away.
  await provider.keyboard.press('Control+K');
  await provider.keyboard.type('view tasks');
  await expect(provider.getByRole('menuitem', { name: 'View Tasks' })).toBeVisible();
  await provider.keyboard.press('Enter');
  await expect(provider).toHaveURL(/#\/tasks$/);

  // Settings from the palette: the team, readable by a provider, editable only by admins.
  await provider.keyboard.press('Control+K');
  await provider.keyboard.type('user management');
  await provider.keyboard.press('Enter');
  await expect(provider).toHaveURL(/#\/new-settings\/team$/);
  await expect(provider.getByRole('row', { name: /Jordan Ellis/ })).toContainText('Employee');
  await provider.getByRole('link', { name: 'Jordan Ellis' }).click();
  await expect(provider.getByText('Only practice admins can change team members.')).toBeVisible();
  await expect(provider.getByRole('button', { name: 'Save' })).toHaveCount(0);
  await shot(provider, '08-team-member-read-only');

  // Sections come in the spec's order: Navigation, Settings, Patients, Templates, Users.
  await provider.keyboard.press('Control+K');
  await provider.keyboard.type('ma');
  await expect(provider.getByRole('menuitem', { name: /^Maria Lopez \(\d+\)$/ })).toBeVisible();
  const titles = await provider.locator('.tw-palette__section-title').allTextContents();
  expect(titles).toEqual(expect.arrayContaining(['Settings', 'Patients']));
  expect(titles).toEqual(['Navigation', 'Settings', 'Patients', 'Templates', 'Users'].filter((t) => titles.includes(t)));
  await shot(provider, '08b-palette-sections');
  await provider.keyboard.press('Escape');
});

test('the dashboard shows the day and can be rearranged', async ({ sessions }) => {
  const provider = await sessions.open(PROVIDER, '/home');
  await expect(provider.getByRole('heading', { name: 'My Open Tasks' })).toBeVisible();
  await expect(provider.getByRole('heading', { name: 'Unread Messages' })).toBeVisible();
  await expect(provider.getByRole('heading', { name: 'My Drafts' })).toBeVisible();
  await expect(provider.getByRole('heading', { name: 'Reminders Due Today' })).toBeVisible();
  await shot(provider, '09-dashboard');
  // 'Edit Dashboard' lives in the side menu on /home only.
  await provider.getByRole('link', { name: 'Edit Dashboard' }).click();
  await expect(provider.getByRole('list', { name: 'Dashboard widgets' })).toBeVisible();
  await shot(provider, '10-edit-dashboard');
  await provider.goto('/#/tasks');
  await expect(provider.getByRole('link', { name: 'Edit Dashboard' })).toHaveCount(0);
});

test('a reminder due in a few seconds arrives as a notification', async ({ sessions }) => {
  const employee = await sessions.open(EMPLOYEE, '/home');
  const created = await apiAs(employee, 'POST', '/v1/reminders', {
    text: 'Fax the referral to cardiology',
    dueAt: new Date(Date.now() + 8_000).toISOString(),
  });
  expect(created.status).toBe(201);
  const toast = employee.getByRole('alertdialog').or(employee.getByRole('status')).filter({ hasText: 'Fax the referral to cardiology' });
  await expect(toast.first()).toBeVisible({ timeout: 30_000 });
  await expect(employee.getByText('Reminder', { exact: true })).toBeVisible();
  await shot(employee, '07-reminder-notification');
});

test('a task assigned while the employee is offline shows up when the page is back online, without a reload', async ({ sessions }) => {
  const employee = await sessions.open(EMPLOYEE, '/tasks');
  await expect(employee.getByRole('heading', { name: 'My Tasks' })).toBeVisible();
  await expect(employee.getByText(/^\d+ tasks?$/)).toBeVisible();
  // The live feed is up once it has made its first catch-up on connect; offline before that, the
  // test would be about loading the feed's code, not about what it missed.
  await expect
    .poll(() => employee.evaluate(() => performance.getEntriesByType('resource').some((entry) => entry.name.includes('/v1/notifications?since='))), {
      timeout: 30_000,
    })
    .toBe(true);
  const badge = employee.getByTestId('menu-badge-tasks');
  const before = (await badge.count()) ? Number(await badge.textContent()) : 0;
  const employeeId = ((await apiAs(employee, 'GET', '/v1/practices/users/me')).json as { userId: string }).userId;
  // A full document load would show the task whatever the live feed did; count them.
  let loads = 0;
  employee.on('load', () => (loads += 1));

  await employee.context().setOffline(true);
  const provider = await sessions.open(PROVIDER, '/home');
  const text = `Review the faxed discharge summary ${Date.now().toString(36)}`;
  const created = await apiAs(provider, 'POST', '/v1/tasks', { text, assigned: employeeId, patientId: 'pat-0011', urgent: false });
  expect(created.status).toBe(201);
  // Long enough for a live event to have arrived had the page been online.
  // eslint-disable-next-line tidewell/no-fixed-sleep -- what is proved is that nothing arrives while offline, so there is no event to wait for
  await employee.waitForTimeout(3_000);
  const row = employee.getByRole('row', { name: new RegExp(text) });
  await expect(row).toHaveCount(0);
  await shot(employee, '11-employee-offline');

  // Back online, the live feed asks for what it missed (GET /v1/notifications?since=) and gets the task.
  const catchUp = employee.waitForResponse((r) => r.url().includes('/v1/notifications?since='), { timeout: 20_000 });
  await employee.context().setOffline(false);
  const missed = ((await (await catchUp).json()) as { notifications: { notificationType: string; text: string | null; assigned: string | null }[] })
    .notifications;
  expect(missed.filter((n) => n.notificationType === 'TASK' && n.text === text)).toEqual([expect.objectContaining({ assigned: employeeId })]);
  await expect(row).toBeVisible();
  await expect(row).toContainText('Unread');
  await expect(badge).toHaveText(String(before + 1));
  expect(loads).toBe(0);
  await shot(employee, '12-employee-caught-up');
});

test("a task lists the notes it links to, each opening the patient's chart", async ({ sessions }) => {
  const provider = await sessions.open(PROVIDER, '/home');
  const note = await apiAs(provider, 'POST', '/v2/notes', {
    noteId: 'new',
    noteType: 'PHONE_CALL',
    patientId: 'pat-0011',
    eventTimestamp: '2026-03-02T15:00:00.000Z',
    data: { text: 'Called about the INR result', formattedText: '<p>Called about the INR result</p>' },
  });
  expect(note.status).toBe(201);
  const gone = await apiAs(provider, 'POST', '/v2/notes', {
    noteId: 'new',
    noteType: 'NOTE',
    patientId: 'pat-0011',
    data: { text: 'Scratch', formattedText: '<p>Scratch</p>' },
  });
  expect(gone.status).toBe(201);
  expect((await apiAs(provider, 'DELETE', `/v1/notes/${String(gone.json.noteId)}?noteVersion=${String(gone.json.noteVersion)}`)).status).toBe(200);
  const task = await apiAs(provider, 'POST', '/v1/tasks', {
    text: `Follow up on the INR call ${Date.now().toString(36)}`,
    patientId: 'pat-0011',
    noteDataLinks: [{ interactionIdent: String(note.json.noteId) }, { interactionIdent: String(gone.json.noteId) }],
  });
  expect(task.status).toBe(201);

  await provider.goto(`/#/tasks/${String(task.json.ident)}`);
  const linked = provider.getByRole('region', { name: 'Linked notes' });
  await expect(linked.getByText('This note has been deleted')).toBeVisible();
  await shot(provider, '11-task-linked-notes');
  await linked.getByRole('link', { name: 'Phone call · 03/02/2026' }).click();
  await expect(provider).toHaveURL(/#\/patients\/pat-0011$/);
  await expect(provider.getByRole('heading', { level: 1, name: /^Grace Nakamura \(\d+\)$/ })).toBeVisible();
});

test("from a chart, the palette's new reminder and new task are about that patient", async ({ sessions }) => {
  // Tomorrow morning on the browser's clock: the rest of its day is ahead whatever the hour of the run.
  const page = await sessions.open(EMPLOYEE, '/home', { clockAt: tomorrowAt(9) });
  const patient = (await apiAs(page, 'GET', '/v1/patients/pat-0011')).json as { firstName: string; lastName: string };
  await page.goto('/#/patients/pat-0011');
  await expect(page.getByRole('heading', { name: 'Health Summary' })).toBeVisible();

  // "remind" finds the action; it opens the dashboard's reminder form about the chart's patient.
  await page.keyboard.press('Control+k');
  const search = page.getByRole('dialog', { name: 'Command palette' }).getByRole('searchbox');
  await expect(search).toBeFocused();
  await search.fill('remind');
  await page.getByRole('menuitem', { name: 'Create a reminder' }).click();
  const form = page.getByRole('form', { name: 'New reminder' });
  await expect(form).toBeVisible();
  await expect(form).toContainText(`About ${patient.firstName} ${patient.lastName}`);
  const text = form.getByLabel('Reminder', { exact: true });
  await expect(text).toBeFocused();
  await expectAccessibleAtEach(page, 'dashboard: new reminder form', { screenshot: (v) => `${SHOTS}/13-new-reminder-${v.name}.png` });

  // Nothing typed: refused in words, the form stays open with its time.
  await form.getByRole('button', { name: 'Add reminder' }).click();
  await expect(form.getByRole('alert')).toHaveText('Reminder text is required');
  const label = `Call back about the lab draw ${Date.now().toString(36)}`;
  await text.fill(label);
  // Later on the browser's today, in the practice's zone, so it is due today.
  const today = await page.evaluate(() => new Date().toLocaleDateString('en-CA'));
  await form.getByLabel('Remind me at').fill(`${today}T23:59`);
  await page.keyboard.press('Enter');
  await expect(form).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Reminders Due Today' }).getByText(label)).toBeVisible();
  const open = (await apiAs(page, 'GET', '/v1/reminders?open=true')).json as { reminders: { text: string; patientId?: string | null }[] };
  expect(open.reminders.find((r) => r.text === label)).toMatchObject({ patientId: 'pat-0011' });

  // The new task from the same chart has the patient filled in.
  await page.goto('/#/patients/pat-0011');
  await expect(page.getByRole('heading', { name: 'Health Summary' })).toBeVisible();
  await page.keyboard.press('Control+k');
  await expect(search).toBeFocused();
  await search.fill('new task');
  await page.getByRole('menuitem', { name: 'Create a new task' }).click();
  await expect(page.getByRole('combobox', { name: 'Patient' })).toHaveValue(new RegExp(`^${patient.firstName} ${patient.lastName}`));
  await shot(page, '14-new-task-from-chart');
});
