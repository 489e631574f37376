/**
 * What a practice of each scale does in a month: its stored data and its requests per route kind.
 * The per-request profile of each kind (Lambda time, DynamoDB units, response size) is an estimate
 * until a load run counts it; `--requests <json>` replaces the request counts (and, when the run
 * counted them, the units) with measured figures scaled to a month of the workday below.
 */
import { API_CORS_MAX_AGE_SECONDS } from '../../infra/lib/api-cors.js';
import { TASKS_COUNT_POLL_MS, UNREAD_COUNT_POLL_MS } from '../../shared/notifications/notification-constants.js';

/** The assumed workday: staff signed in this many hours a day, this many days a month. */
export const WORKDAY = { hours: 10, daysPerMonth: 22 } as const;
/** The Reminders badge polls once a minute (web/src/features/notifications/api/reminders-api.ts). */
const REMINDERS_POLL_MS = 60_000;
/** Drafts autosave every 5 s while a note is being written. */
const AUTOSAVE_MS = 5_000;

export interface Scale {
  name: string;
  description: string;
  patients: number;
  notes: number;
  conversations: number;
  texts: number;
  appointmentsPerYear: number;
  /** Staff signed in all day (each a Cognito monthly active user). */
  staff: number;
  /** Years of history the stored figures hold (the notes and texts written per month follow from it). */
  years: number;
  auditEntries: number;
  /** Patient files (uploads, faxes, recordings, exports) in S3, GB. */
  filesGb: number;
}

export const SCALES: Record<string, Scale> = {
  demo: {
    name: 'demo',
    description: 'the demo practice idle: its seeded records stored, nobody signed in',
    patients: 60,
    notes: 400,
    conversations: 20,
    texts: 120,
    appointmentsPerYear: 0,
    staff: 0,
    years: 1,
    auditEntries: 5_000,
    filesGb: 0.2,
  },
  '5k': {
    name: '5k',
    description: 'a 5-provider practice: 5,000 patients after five years, 12 staff all day',
    patients: 5_000,
    notes: 125_000,
    conversations: 25_000,
    texts: 250_000,
    appointmentsPerYear: 12_500,
    staff: 12,
    years: 5,
    auditEntries: 4_000_000,
    filesGb: 10,
  },
  '20k': {
    name: '20k',
    description: 'a 20-provider group in its third year: 20,000 patients, 50 staff all day',
    patients: 20_000,
    notes: 300_000,
    conversations: 60_000,
    texts: 600_000,
    appointmentsPerYear: 50_000,
    staff: 50,
    years: 3,
    auditEntries: 9_000_000,
    filesGb: 12,
  },
  large: {
    name: 'large',
    description: 'a 20-provider group after ten years: 20,000 patients, 1,000,000 notes, 2,000,000 texts, 50 staff all day',
    patients: 20_000,
    notes: 1_000_000,
    conversations: 200_000,
    texts: 2_000_000,
    appointmentsPerYear: 50_000,
    staff: 50,
    years: 10,
    auditEntries: 30_000_000,
    filesGb: 40,
  },
};

/** Which Lambda serves a request kind: an API group by name, or a worker. */
export type FunctionKey = string;

export interface RouteKind {
  /** The function that serves it: an API group (`notes`) or a worker (`scheduled sends`). */
  fn: FunctionKey;
  /** Through the HTTP API (false: invoked by SNS, the Scheduler, the table's stream or AppSync). */
  api: boolean;
  ms: number;
  rru: number;
  /**
   * Write units, the indexes' included: DynamoDB bills an item's copy in each index it is keyed
   * into (all are projected ALL) like the table's own write. Measured by the load bench's data
   * layer (`x-tidewell-write-units` + `x-tidewell-index-write-units`) where it drives the kind.
   */
  wru: number;
  responseKb: number;
  /** Writes a notification that the live feed publishes (one stream batch, one AppSync mutation). */
  notifies?: number;
  smsOutParts?: number;
  smsInParts?: number;
  s3Puts?: number;
  s3Gets?: number;
  /** Bytes to or from S3 per request, KB. */
  s3Kb?: number;
  /**
   * CORS preflights per request, answered by API Gateway from the API's CORS settings (no Lambda)
   * but received, so billed, as requests. Every call carries an Authorization header, so the
   * browser asks before the first call to each URL and again once its answer is older than
   * `API_CORS_MAX_AGE_SECONDS`: a request to a URL new to the tab (a chart, a search) costs one.
   */
  preflights?: number;
}

/** Preflights per badge poll: three badge URLs per tab, each asked again once an hour, over the polls of that hour. */
const POLL_PREFLIGHTS =
  (3 * (3_600 / API_CORS_MAX_AGE_SECONDS)) / (3_600_000 / UNREAD_COUNT_POLL_MS + 3_600_000 / TASKS_COUNT_POLL_MS + 3_600_000 / REMINDERS_POLL_MS);
/** A note's saves go to one URL within its six minutes of writing: one preflight for all of them. */
const DRAFT_SAVE_PREFLIGHTS = AUTOSAVE_MS / (6 * 60_000);

/**
 * Per-request profile of each route kind: billed duration and eventually consistent page reads
 * estimated; write units with the indexes' (table + index) as the load bench counted them on
 * 2026-12-06 where it drives the kind (a draft save 15 + 15, a text sent 18 + 14, a conversation
 * list's audit entry per listed patient 15 + 15, a booking 11 + 6 and a move 15 + 6, a
 * notification 6 + 1), estimated where it does not (an inbound text as a text sent without the
 * carrier's outcome; a receipt rewrites the SMS note, 2 + its two indexes' 4). Preflights: half
 * the conversation lists repeat a URL.
 */
export const ROUTE_KINDS: Record<string, RouteKind> = {
  unreadPoll: { fn: 'notifications', api: true, ms: 25, rru: 1, wru: 0, responseKb: 0.3, preflights: POLL_PREFLIGHTS },
  draftSave: { fn: 'notes', api: true, ms: 45, rru: 1, wru: 30, responseKb: 0.5, preflights: DRAFT_SAVE_PREFLIGHTS },
  chartRead: { fn: 'chart', api: true, ms: 60, rru: 3, wru: 2, responseKb: 6, preflights: 1 },
  notesPage: { fn: 'notes', api: true, ms: 70, rru: 8, wru: 2, responseKb: 40, preflights: 1 },
  patientSearch: { fn: 'patients', api: true, ms: 60, rru: 4, wru: 1, responseKb: 6, preflights: 1 },
  codeSearch: { fn: 'chart', api: true, ms: 40, rru: 2, wru: 0, responseKb: 4, preflights: 1 },
  conversationList: { fn: 'messaging', api: true, ms: 60, rru: 4, wru: 30, responseKb: 8, preflights: 0.5 },
  textRead: { fn: 'messaging', api: true, ms: 60, rru: 4, wru: 1, responseKb: 6, preflights: 1 },
  textSend: { fn: 'messaging', api: true, ms: 120, rru: 3, wru: 32, responseKb: 1, smsOutParts: 1.4, preflights: 1 },
  textInbound: { fn: 'scheduled sends', api: false, ms: 100, rru: 3, wru: 26, responseKb: 0, notifies: 1, smsInParts: 1.2 },
  smsReceipt: { fn: 'scheduled sends', api: false, ms: 50, rru: 1, wru: 6, responseKb: 0 },
  appointmentWrite: { fn: 'practice', api: true, ms: 90, rru: 4, wru: 19, responseKb: 1, notifies: 0.5, preflights: 1 },
  calendarRead: { fn: 'practice', api: true, ms: 60, rru: 4, wru: 0, responseKb: 10, preflights: 1 },
  otherWrite: { fn: 'notes', api: true, ms: 90, rru: 3, wru: 7, responseKb: 1, notifies: 0.2, preflights: 1 },
  fileUpload: { fn: 'files', api: true, ms: 40, rru: 1, wru: 3, responseKb: 1, s3Puts: 1, s3Kb: 400, preflights: 1 },
  fileView: { fn: 'files', api: true, ms: 40, rru: 1, wru: 1, responseKb: 1, s3Gets: 1, s3Kb: 400, preflights: 1 },
  scheduledJob: { fn: 'scheduled sends', api: false, ms: 200, rru: 4, wru: 3, responseKb: 0 },
};

export type Requests = Record<string, number>;

/** Requests per month of each kind for a scale, from its staff, its workday and its yearly flows. */
export function monthlyRequests(scale: Scale): Requests {
  const staffDays = scale.staff * WORKDAY.daysPerMonth;
  const workdayMs = WORKDAY.hours * 3_600_000;
  const notesPerMonth = scale.staff ? scale.notes / (scale.years * 12) : 0;
  const textsPerMonth = scale.staff ? scale.texts / (scale.years * 12) : 0;
  const appointmentsPerMonth = scale.appointmentsPerYear / 12;
  return {
    // Three badges poll all day: unread notifications, tasks, reminders.
    unreadPoll: staffDays * (workdayMs / UNREAD_COUNT_POLL_MS + workdayMs / TASKS_COUNT_POLL_MS + workdayMs / REMINDERS_POLL_MS),
    // About six minutes of writing per note, a save every 5 s.
    draftSave: notesPerMonth * ((6 * 60_000) / AUTOSAVE_MS),
    // 30 charts opened a day, five requests each (header, chart items, medications, problems, allergies).
    chartRead: staffDays * 30 * 5,
    notesPage: staffDays * 30 * 2,
    patientSearch: staffDays * 40,
    codeSearch: notesPerMonth * 3,
    conversationList: staffDays * 20,
    textRead: staffDays * 20 + textsPerMonth / 2,
    textSend: textsPerMonth / 2 + appointmentsPerMonth * 2,
    textInbound: textsPerMonth / 2,
    // Sent and delivered receipts for each text sent.
    smsReceipt: 2 * (textsPerMonth / 2 + appointmentsPerMonth * 2),
    appointmentWrite: appointmentsPerMonth * 1.5,
    calendarRead: staffDays * 30,
    otherWrite: notesPerMonth * 3 + staffDays * 20,
    fileUpload: scale.staff ? (scale.filesGb * 1024 * 1024) / 400 / (scale.years * 12) : 0,
    fileView: staffDays * 5,
    // The hourly DoseSpot sync, and two reminders per appointment.
    scheduledJob: 730 + appointmentsPerMonth * 2,
  };
}

/** A load run's counted requests (`npm run bench:load` output, or any JSON of this shape). */
export interface LoadRun {
  /** Length of the run and how many signed-in users it drove. */
  minutes: number;
  users: number;
  /** Requests counted per route kind in the run. */
  requests: Requests;
  /** Read and write units counted per route kind in the run (optional: replaces the profile's estimate). */
  readUnits?: Record<string, number>;
  writeUnits?: Record<string, number>;
}

/**
 * A load run's counts scaled to a month of the workday for the scale's staff. Kinds the run did
 * not drive (receipts, scheduled jobs, inbound texts) keep the model's monthly figure.
 */
export function requestsFromLoadRun(
  run: LoadRun,
  scale: Scale,
  model: Requests = monthlyRequests(scale),
): { requests: Requests; profiles: Record<string, RouteKind> } {
  if (!(run.minutes > 0) || !(run.users > 0)) throw new Error('--requests: the load run needs minutes > 0 and users > 0');
  const factor = ((WORKDAY.hours * 60) / run.minutes) * WORKDAY.daysPerMonth * (scale.staff / run.users);
  const requests: Requests = { ...model };
  const profiles: Record<string, RouteKind> = { ...ROUTE_KINDS };
  for (const [kind, count] of Object.entries(run.requests)) {
    if (!ROUTE_KINDS[kind]) throw new Error(`--requests: unknown route kind ${kind}; known: ${Object.keys(ROUTE_KINDS).join(', ')}`);
    requests[kind] = count * factor;
    const reads = run.readUnits?.[kind];
    const writes = run.writeUnits?.[kind];
    if (count > 0 && (reads !== undefined || writes !== undefined)) {
      profiles[kind] = {
        ...ROUTE_KINDS[kind],
        ...(reads !== undefined ? { rru: reads / count } : {}),
        ...(writes !== undefined ? { wru: writes / count } : {}),
      };
    }
  }
  return { requests, profiles };
}

/** Stored data of a scale: DynamoDB GB (with its two ALL-projected indexes), S3 GB. */
export function storedData(scale: Scale): { tableGb: number; filesGb: number } {
  const kb =
    scale.patients * 4 +
    scale.notes * 3 +
    scale.conversations * 0.5 +
    scale.texts * 0.6 +
    scale.appointmentsPerYear * scale.years * 1 +
    scale.auditEntries * 0.5;
  // About 100 bytes of per-item overhead, and most items copied into one of the two indexes.
  const items = scale.patients * 6 + scale.notes + scale.conversations + scale.texts + scale.appointmentsPerYear * scale.years + scale.auditEntries;
  const baseGb = (kb + items * 0.1) / (1024 * 1024);
  return { tableGb: baseGb * 1.7, filesGb: scale.filesGb };
}
