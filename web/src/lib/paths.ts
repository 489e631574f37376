/**
 * Every in-app href is built here (hash routes, spec shell §2.1), so a route can move in one place.
 * Values are router paths; `<Link to>` and `navigate()` add the hash.
 */
const seg = (value: string) => encodeURIComponent(value);

export const paths = {
  home: () => '/home',
  homeEdit: () => '/home?edit=1',
  googleCallback: () => '/google-callback',
  patients: () => '/patients',
  newPatient: () => '/patients/new',
  patient: (patientId: string) => `/patients/${seg(patientId)}`,
  editPatient: (patientId: string) => `/patients/${seg(patientId)}/edit`,
  patientAccessHistory: (patientId: string) => `/patients/${seg(patientId)}/access-history`,
  calendar: () => '/calendar',
  messages: () => '/messages',
  tasks: () => '/tasks',
  /** Lab results waiting for the ordering provider's sign-off (issue 40), and one of them. */
  resultsToReview: () => '/results-review',
  reviewedResults: () => '/results-review?view=reviewed',
  resultToReview: (noteId: string) => `/results-review/${seg(noteId)}`,
  allTasks: () => '/tasks/all',
  /** The task form; from a chart, with that patient filled in. */
  newTask: (patientId?: string) => (patientId ? `/tasks/new?patientId=${encodeURIComponent(patientId)}` : '/tasks/new'),
  task: (taskId: string) => `/tasks/${seg(taskId)}`,
  /** The dashboard with its reminder form open; from a chart, about that patient. */
  newReminder: (patientId?: string) => `/home?reminder=new${patientId ? `&patientId=${encodeURIComponent(patientId)}` : ''}`,
  /** New-message mode of the SMS chat ('To:' with a patient search). */
  newSms: () => '/messages/sms',
  smsConversation: (patientPhoneNumber: string, practicePhoneNumber: string) => `/messages/sms/${seg(patientPhoneNumber)}/${seg(practicePhoneNumber)}`,
  legacySms: (patientPhone: string, practicePhone: string) => `/messages/legacy/sms/${seg(patientPhone)}/${seg(practicePhone)}`,
  /** Send Later (spec notes §2): query noteType, patientId, from, text (and the patient phone it goes to). */
  newScheduledMessage: (query: { noteType?: string; patientId?: string | null; from?: string; to?: string; text?: string } = {}) => {
    const params = new URLSearchParams(Object.entries({ noteType: 'SMS', ...query }).filter((entry): entry is [string, string] => Boolean(entry[1])));
    return `/messages/scheduled/new?${params.toString()}`;
  },
  /** The practice's phone calls (spec shell §2.11), and a new call (?to=&patientId=). */
  calls: () => '/messages/calls',
  newCall: (query: { to?: string | null; patientId?: string | null } = {}) => {
    const params = new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => Boolean(entry[1])));
    return `/messages/calls/new${params.size ? `?${params.toString()}` : ''}`;
  },
  faxes: () => '/messages/fax',
  /** New fax (spec shell §4): a signed or addended note, or the facesheet when no note is given. */
  newFax: (query: { patientId?: string | null; noteId?: string | null } = {}) => {
    const params = new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => Boolean(entry[1])));
    return `/messages/fax/new${params.size ? `?${params.toString()}` : ''}`;
  },
  scheduledMessage: (eventId: string) => `/messages/scheduled/${seg(eventId)}`,
  forms: () => '/forms',
  contacts: (tabName = 'list') => `/contacts/${seg(tabName)}`,
  inventory: () => '/inventory/list',
  inventoryItem: (inventoryId: string) => `/inventory/${seg(inventoryId)}`,
  files: () => '/files/public/',
  reports: () => '/reports',
  /** The core product's entry point (spec shell §2.1: /reports opens the core product); the product switcher goes here. */
  coreProduct: () => '/reports',
  /** The practices a super user administers (spec shell §2.3); part of the core product. */
  organizations: () => '/organizations',
  settings: () => '/new-settings/practice-metadata',
  practiceMetadata: () => '/new-settings/practice-metadata',
  team: () => '/new-settings/team',
  teamMember: (userId: string) => `/new-settings/team/${seg(userId)}`,
  templates: () => '/new-settings/templates',
  newTemplate: () => '/new-settings/templates/new',
  template: (templateId: string) => `/new-settings/templates/${seg(templateId)}`,
  partnerApps: () => '/new-settings/partner-apps',
  chargeItems: () => '/new-settings/charge-items',
  calendarSettings: () => '/new-settings/calendar',
  dataExport: () => '/new-settings/data-export',
  dataImport: () => '/new-settings/data-import',
  noteResult: (noteId: string, query: { type?: string; responseCode?: string } = {}) => {
    const params = new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => Boolean(entry[1])));
    const search = params.toString();
    return `/note-result/${seg(noteId)}${search ? `?${search}` : ''}`;
  },
} as const;
