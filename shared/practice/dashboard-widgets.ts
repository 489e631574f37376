/**
 * Dashboard widgets of /home (issue 5: what a clinician wants at the start of the day). Apart from
 * the settings schemas, so the dashboard's first screen reads the list without loading them.
 */
export const DASHBOARD_WIDGETS = ['providers-day', 'my-open-tasks', 'unread-messages', 'my-drafts', 'reminders-due-today', 'results-to-review'] as const;
export type DashboardWidgetId = (typeof DASHBOARD_WIDGETS)[number];
