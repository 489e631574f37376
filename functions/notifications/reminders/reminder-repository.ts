// The reminder items live in functions/data/reminders/; this path stays for the schedule target's
// fire-reminder.ts until that file moves with the scheduled jobs.
export { getReminder, markFired } from '../../data/reminders/reminder-repository.js';
