import { paths } from '../../lib/paths.js';

/** Spec shell §2.6: the palette's fixed sections, in the spec's order. */
export const PALETTE_SECTIONS = ['Navigation', 'Settings', 'Patients', 'Templates', 'Users'] as const;
export type PaletteSection = (typeof PALETTE_SECTIONS)[number];

/** Spec shell §2.6: only active templates are listed (a template without a status is active). */
export function activeTemplates<T extends { status?: string }>(templates: readonly T[]): T[] {
  return templates.filter((t) => (t.status ?? 'active') === 'active');
}

/** Spec shell §2.6: only active users are listed (invited, unconfirmed and deleted ones are not). */
export function activeUsers<T extends { userStatus?: string }>(users: readonly T[]): T[] {
  return users.filter((u) => (u.userStatus ?? 'active') === 'active');
}

export type PaletteCommand = { kind: 'href'; href: string } | { kind: 'back' } | { kind: 'external'; href: string } | { kind: 'interactions' };

export interface PaletteAction {
  id: string;
  label: string;
  section: 'Navigation' | 'Settings';
  command: PaletteCommand;
  /** Extra words the filter matches besides the label. */
  keywords?: string;
}

/**
 * A note type the notes feature offers under 'New Interaction' (spec shell §2.6). The app composes
 * the list so the palette never depends on the notes feature.
 */
export interface PaletteInteraction {
  id: string;
  label: string;
  perform: () => void;
}

/** Local calendar date, YYYY-MM-DD, `days` from `today`. */
export function calendarDate(today: Date, days = 0): string {
  const d = new Date(today.getFullYear(), today.getMonth(), today.getDate() + days);
  const mm = String(d.getMonth() + 1).padStart(2, '0');
  const dd = String(d.getDate()).padStart(2, '0');
  return `${d.getFullYear()}-${mm}-${dd}`;
}

const calendarHref = (date: string, view: 'day' | 'week') => `${paths.calendar()}?date=${date}&view=${view}`;

/**
 * The actions of spec shell §2.6 that have a screen, in the spec's order; 'New Interaction'
 * appears only when some note type can be created.
 */
export function paletteActions(options: { today: Date; helpHref: string; hasInteractions: boolean; patientId?: string }): PaletteAction[] {
  const { today, helpHref, hasInteractions, patientId } = options;
  const actions: PaletteAction[] = [];
  if (hasInteractions) {
    actions.push({ id: 'new-interaction', label: 'New Interaction', section: 'Navigation', command: { kind: 'interactions' }, keywords: 'note create chart' });
  }
  actions.push(
    { id: 'help', label: 'Help', section: 'Navigation', command: { kind: 'external', href: helpHref }, keywords: 'support' },
    { id: 'dashboard', label: 'Dashboard', section: 'Navigation', command: { kind: 'href', href: paths.home() }, keywords: 'home' },
    { id: 'calendar-today', label: "Today's Calendar", section: 'Navigation', command: { kind: 'href', href: calendarHref(calendarDate(today), 'day') } },
    {
      id: 'calendar-this-week',
      label: "This Week's Calendar",
      section: 'Navigation',
      command: { kind: 'href', href: calendarHref(calendarDate(today), 'week') },
    },
    {
      id: 'calendar-next-week',
      label: "Next Week's Calendar",
      section: 'Navigation',
      command: { kind: 'href', href: calendarHref(calendarDate(today, 7), 'week') },
    },
    {
      id: 'calendar-yesterday',
      label: "Yesterday's Calendar",
      section: 'Navigation',
      command: { kind: 'href', href: calendarHref(calendarDate(today, -1), 'day') },
    },
    { id: 'communications', label: 'Communications', section: 'Navigation', command: { kind: 'href', href: paths.messages() }, keywords: 'messages inbox' },
    {
      id: 'new-phone-call',
      label: 'Make New Phone Call',
      section: 'Navigation',
      command: { kind: 'href', href: paths.newCall() },
      keywords: 'call dial phone',
    },
    { id: 'tasks', label: 'View Tasks', section: 'Navigation', command: { kind: 'href', href: paths.tasks() } },
    // On a chart, the new task is about that chart's patient.
    { id: 'new-task', label: 'Create a new task', section: 'Navigation', command: { kind: 'href', href: paths.newTask(patientId) } },
    {
      id: 'new-reminder',
      label: 'Create a reminder',
      section: 'Navigation',
      command: { kind: 'href', href: paths.newReminder(patientId) },
      keywords: 'remind me later follow up',
    },
    {
      id: 'results-to-review',
      label: 'Results to Review',
      section: 'Navigation',
      command: { kind: 'href', href: paths.resultsToReview() },
      keywords: 'lab labs sign off abnormal critical',
    },
    { id: 'forms', label: 'Forms', section: 'Navigation', command: { kind: 'href', href: paths.forms() } },
    { id: 'contacts', label: 'Contacts', section: 'Navigation', command: { kind: 'href', href: paths.contacts() } },
    { id: 'medication', label: 'Medication', section: 'Navigation', command: { kind: 'href', href: paths.inventory() }, keywords: 'inventory' },
    { id: 'files', label: 'Files', section: 'Navigation', command: { kind: 'href', href: paths.files() }, keywords: 'drive' },
    { id: 'sms', label: 'View SMS Messages', section: 'Navigation', command: { kind: 'href', href: paths.messages() } },
    { id: 'back', label: 'Back', section: 'Navigation', command: { kind: 'back' } },
    { id: 'practice-settings', label: 'Practice Settings', section: 'Settings', command: { kind: 'href', href: paths.practiceMetadata() } },
    { id: 'user-management', label: 'Practice User Management', section: 'Settings', command: { kind: 'href', href: paths.team() }, keywords: 'team users' },
    { id: 'templates', label: 'Practice Templates', section: 'Settings', command: { kind: 'href', href: paths.templates() } },
    { id: 'new-template', label: 'Create new template', section: 'Settings', command: { kind: 'href', href: paths.newTemplate() } },
  );
  return actions;
}

/** Case-insensitive: every typed word appears in the label or keywords. */
export function matchesQuery(text: string, query: string): boolean {
  const haystack = text.toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}
