/* Reminder rules without the schemas: the dashboard uses them on its first screen. */

/** Reminders due on a given local calendar day (dashboard: reminders due today). */
export function isDueOn(reminder: { dueAt: string }, day: Date): boolean {
  const d = new Date(reminder.dueAt);
  return d.getFullYear() === day.getFullYear() && d.getMonth() === day.getMonth() && d.getDate() === day.getDate();
}
