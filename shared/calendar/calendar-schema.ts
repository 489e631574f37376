/**
 * The calendar and booking settings (spec shell §2.1, §3, §7.9): appointment types, booking
 * locations, per-user calendar settings, the practice's calendar settings and appointments.
 */
import * as z from '../zod.js';
import { LIMITS } from '../limits.js';
import { FREQUENCIES, MAX_OCCURRENCES, MONTHLY_MODES, NO_RECURRENCE, RECURRENCE_ENDS } from './recurrence.js';

/** Spec shell §2.1: the calendar's views. */
export const CALENDAR_VIEWS = ['day', 'week', 'work_week', 'month', 'agenda'] as const;
export type CalendarView = (typeof CALENDAR_VIEWS)[number];
/** Spec shell §3: visit types. */
export const VISIT_TYPES = ['in_person', 'virtual'] as const;
export type VisitType = (typeof VISIT_TYPES)[number];
export const VISIT_TYPE_LABELS: Record<VisitType, string> = { in_person: 'In person', virtual: 'Virtual' };
export const CALENDAR_STATUSES = ['active', 'inactive'] as const;
/** Where the patient of one occurrence is on the day: set by the front desk and the provider from the appointment's view. */
export const ARRIVAL_STATUSES = ['scheduled', 'arrived', 'in_room', 'seen', 'no_show'] as const;
export type ArrivalStatus = (typeof ARRIVAL_STATUSES)[number];
export const ARRIVAL_STATUS_LABELS: Record<ArrivalStatus, string> = {
  scheduled: 'Scheduled',
  arrived: 'Arrived',
  in_room: 'In room',
  seen: 'Seen',
  no_show: 'No-show',
};
/** How many upcoming visits the chart header shows, at most. */
export const NEXT_VISITS_MAX = 2;
/** How far ahead the chart header looks for them. */
export const NEXT_VISITS_DAYS = 400;

/** Spec shell §9: appointment types and calendar settings are stale after 5 minutes. */
export const CALENDAR_STALE_MS = 5 * 60 * 1000;
/** The lead times a practice may choose for appointment reminder texts, in hours. */
export const REMINDER_LEAD_HOURS = [1, 2, 4, 12, 24, 48, 72] as const;
/** A practice that has not chosen its zone keeps its appointments in this one. */
export const DEFAULT_TIME_ZONE = 'America/Chicago';
/** The longest range one appointments query may span (a month view with its edge weeks fits). */
export const MAX_RANGE_DAYS = 62;
/** How far ahead a series that never ends is checked for double booking. */
export const CONFLICT_HORIZON_DAYS = 366;

export const CALENDAR_MESSAGES = {
  nameRequired: 'Name is required',
  typeNotFound: 'Appointment type not found',
  locationNotFound: 'Booking location not found',
  appointmentNotFound: 'Appointment not found',
  patientRequired: 'Please select a patient',
  patientNotFound: 'Patient not found',
  providerRequired: 'Please select a provider',
  providerNotFound: 'Provider not found',
  typeRequired: 'Please select an appointment type',
  typeInactive: 'This appointment type is inactive',
  locationRequired: 'An in-person visit needs a booking location',
  locationInactive: 'This booking location is inactive',
  startRequired: 'Start is required',
  durationRange: 'Length must be between 5 and 720 minutes',
  countRange: `Occurrences must be between 1 and ${MAX_OCCURRENCES}`,
  untilRequired: 'End date is required',
  untilBeforeStart: 'End date must not be before the first appointment',
  rangeTooLong: `A calendar range spans at most ${MAX_RANGE_DAYS} days`,
  rangeOrder: 'Start must be before end',
  badTimeZone: 'Unknown time zone',
  reminderLead: 'Choose a reminder time from the list',
  hoursBackwards: 'Working hours must end after they start',
  blockedBackwards: 'Blocked time must end after it starts',
  daysOffBackwards: 'The last day off must not be before the first',
  otherUsersSettings: "Only an admin changes another user's calendar settings",
  feedNotFound: 'Calendar feed not found',
  /** Spec shell §10: POST .../link/google/credentials without both. */
  missingOauth: 'Missing oauth code or scopes',
  googleNotConfigured: 'Google Calendar is not set up for this practice. Ask an admin to add its Google OAuth client.',
  googleOwnOnly: 'Only the user links their own Google Calendar',
  googleStateMismatch: 'This Google sign-in was not started here, or it expired. Link Google Calendar again.',
  googleScopeMissing: 'Google did not grant calendar access. Link Google Calendar again and allow it.',
  googleCodeRefused: 'Google refused the sign-in code (it was already used or has expired). Link Google Calendar again.',
  googleNotLinked: 'Google Calendar is not linked',
  googleLinkLost: 'Google no longer accepts this link (it was removed in the Google account). Link Google Calendar again.',
  googleUnavailable: 'Google Calendar did not answer. Try again in a few minutes.',
  googleCalendarRequired: 'Choose a Google calendar',
  googleCalendarNotWritable: 'Choose one of your Google calendars that you can add events to',
  notAnOccurrence: 'The series has no appointment on that day',
  changedElsewhere: 'This appointment was changed by someone else. Reload it and try again.',
  arrivalStatus: `Choose one of: ${ARRIVAL_STATUSES.join(', ')}`,
  reminderNoMobile: 'This patient has no mobile number, so no reminder was sent. Add one to their profile first.',
  reminderOptedOut: "This patient replied STOP to the practice's texts, so no reminder was sent.",
  reminderNoPracticeNumber: 'The practice has no texting number yet, so no reminder was sent.',
  reminderDeactivated: 'The practice is deactivated: appointment reminders are turned off.',
  reminderPast: 'This visit has already started, so no reminder was sent.',
  reminderNotSent: (reason: string) => `The reminder was not sent: ${reason}`,
  /** Double booking a provider: who, and the appointment already there, in the practice's time. */
  doubleBooked: (provider: string, when: string) => `${provider} is already booked ${when}. Choose another time or provider.`,
} as const;
const M = CALENDAR_MESSAGES;

const idText = () => z.string().check(z.trim(), z.minLength(1), z.maxLength(LIMITS.id));
const name = () => z.string({ error: M.nameRequired }).check(z.trim(), z.minLength(1, M.nameRequired), z.maxLength(120));
const color = () => z.string().check(z.regex(/^#[0-9a-fA-F]{6}$/, 'Colour must be #rrggbb'));
const isoDay = () => z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'Date must be YYYY-MM-DD'));
const hhmm = () => z.string().check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Time must be HH:mm'));

/** Spec shell §3: ident, userLocations[location_id], status. */
export const AppointmentType = z.object({
  ident: z.string(),
  name: z.string(),
  durationMinutes: z.number(),
  color: z.string(),
  /** Where (and by whom) the type is booked; empty means at every location. */
  userLocations: z.array(z.object({ location_id: z.string() })),
  status: z.enum(CALENDAR_STATUSES),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AppointmentType = z.infer<typeof AppointmentType>;

const duration = () => z.number({ error: M.durationRange }).check(z.int(), z.gte(5, M.durationRange), z.lte(720, M.durationRange));

export const AppointmentTypeInput = z.object({
  name: name(),
  durationMinutes: z._default(duration(), 30),
  color: z._default(color(), '#005377'),
  userLocations: z._default(z.array(z.object({ location_id: idText() })).check(z.maxLength(200)), []),
  status: z._default(z.enum(CALENDAR_STATUSES), 'active'),
});
export type AppointmentTypeInput = z.input<typeof AppointmentTypeInput>;

export const IdentParams = z.object({ ident: idText() });
/** GET /v1/appointment-types?status=active (and booking-locations). */
export const StatusQuery = z.object({ status: z.optional(z.enum(CALENDAR_STATUSES)) });

/** Spec shell §3: booking location, ident. */
export const BookingLocation = z.object({
  ident: z.string(),
  name: z.string(),
  address: z.string(),
  status: z.enum(CALENDAR_STATUSES),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type BookingLocation = z.infer<typeof BookingLocation>;

export const BookingLocationInput = z.object({
  name: name(),
  address: z._default(z.string().check(z.trim(), z.maxLength(LIMITS.shortText)), ''),
  status: z._default(z.enum(CALENDAR_STATUSES), 'active'),
});
export type BookingLocationInput = z.input<typeof BookingLocationInput>;

/** One weekday's working hours; weekday 0 is Sunday. */
export const WorkingDay = z.object({ weekday: z.number().check(z.int(), z.gte(0), z.lte(6)), start: hhmm(), end: hhmm() });
export type WorkingDay = z.infer<typeof WorkingDay>;
/** Time kept free every week on one weekday (lunch, admin time): shaded on the grid, booking into it asks first. */
export const BlockedTime = z.object({
  weekday: z.number().check(z.int(), z.gte(0), z.lte(6)),
  start: hhmm(),
  end: hhmm(),
  label: z._default(z.string().check(z.trim(), z.maxLength(60)), ''),
});
export type BlockedTime = z.infer<typeof BlockedTime>;
/** Whole days away (a vacation, a conference), first to last day inclusive in the practice's zone: shaded, booking into them asks first. */
export const DayOff = z.object({
  from: isoDay(),
  to: isoDay(),
  label: z._default(z.string().check(z.trim(), z.maxLength(60)), ''),
});
export type DayOff = z.infer<typeof DayOff>;

/** Spec shell §3: one per user. */
export const UserCalendarSettings = z.object({
  userId: z.string(),
  defaultView: z.enum(CALENDAR_VIEWS),
  workingHours: z.array(WorkingDay),
  blockedTimes: z._default(z.array(BlockedTime), []),
  daysOff: z._default(z.array(DayOff), []),
  updatedAt: z.string(),
});
export type UserCalendarSettings = z.infer<typeof UserCalendarSettings>;

export const DEFAULT_WORKING_HOURS: WorkingDay[] = [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start: '08:00', end: '17:00' }));

export const UserCalendarSettingsInput = z.object({
  defaultView: z._default(z.enum(CALENDAR_VIEWS), 'week'),
  workingHours: z._default(z.array(WorkingDay).check(z.maxLength(14)), DEFAULT_WORKING_HOURS),
  blockedTimes: z._default(z.array(BlockedTime).check(z.maxLength(50)), []),
  daysOff: z._default(z.array(DayOff).check(z.maxLength(100)), []),
});
export const UserIdParams = z.object({ userId: idText() });

/** GET/PUT /v1/practices/settings/calendar: the practice's zone, which every appointment keeps its time in. */
export const PracticeCalendarSettings = z.object({
  timeZone: z.string(),
  /** Whether providers' calendar feeds (ICS) name the patient; off unless an admin turns it on. */
  feedShowsNames: z._default(z.boolean(), false),
  /** Whether events written to providers' linked Google Calendars name the patient; a separate choice, off by default. */
  googleShowsNames: z._default(z.boolean(), false),
  /** Hours before an appointment its reminder text goes to the patient; null: no reminder texts. */
  reminderLeadHours: z._default(z.nullable(z.number()), null),
  updatedAt: z.string(),
});
export type PracticeCalendarSettings = z.infer<typeof PracticeCalendarSettings>;
export const PracticeCalendarSettingsInput = z.object({
  timeZone: z.string().check(z.trim(), z.minLength(1, M.badTimeZone), z.maxLength(64)),
  feedShowsNames: z.optional(z.boolean()),
  googleShowsNames: z.optional(z.boolean()),
  reminderLeadHours: z.optional(
    z.nullable(z.number({ error: M.reminderLead }).check(z.refine((h) => (REMINDER_LEAD_HOURS as readonly number[]).includes(h), M.reminderLead))),
  ),
});

/** POST .../link/google/credentials: what Google's redirect carried (`scope` is space-separated there). */
export const GoogleCredentialsInput = z.object({
  code: z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(2048)))),
  scopes: z.optional(z.nullable(z.union([z.string().check(z.trim(), z.maxLength(4096)), z.array(z.string().check(z.maxLength(512))).check(z.maxLength(50))]))),
  state: z.optional(z.nullable(z.string().check(z.maxLength(256)))),
});
export type GoogleCredentialsInput = z.infer<typeof GoogleCredentialsInput>;

/** PUT .../link/google: the Google calendar the user's appointments are written to. */
export const GoogleCalendarChoiceInput = z.object({
  calendarId: z.string({ error: M.googleCalendarRequired }).check(z.trim(), z.minLength(1, M.googleCalendarRequired), z.maxLength(1024)),
});

/** GET /v1/calendar-feeds/{feedToken}: `<feedId>.<secret>.ics`, both base64url. */
export const FeedTokenParams = z.object({
  feedToken: z.string().check(z.regex(/^[A-Za-z0-9_-]{8,32}\.[A-Za-z0-9_-]{20,64}(\.ics)?$/, 'Calendar feed not found')),
});
/** How far back and ahead a feed lists appointments. */
export const FEED_DAYS_BACK = 14;
export const FEED_DAYS_AHEAD = 90;

const ordinal = () => z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(-1)]);
export const RecurrenceInput = z.object({
  frequency: z._default(z.enum(FREQUENCIES), 'Never'),
  interval: z._default(z.number().check(z.int(), z.gte(1), z.lte(99)), 1),
  monthlyMode: z._default(z.enum(MONTHLY_MODES), 'BYMONTHDAY'),
  ordinal: z._default(ordinal(), 1),
  end: z._default(z.enum(RECURRENCE_ENDS), 'NEVER'),
  count: z._default(z.number({ error: M.countRange }).check(z.int(), z.gte(1, M.countRange), z.lte(MAX_OCCURRENCES, M.countRange)), 1),
  until: z._default(z.nullable(isoDay()), null),
});

export const Appointment = z.object({
  appointmentId: z.string(),
  patientId: z.string(),
  appointmentTypeId: z.string(),
  providerId: z.string(),
  bookingLocationId: z.nullable(z.string()),
  visitType: z.enum(VISIT_TYPES),
  /** The first occurrence's start, an ISO instant; later ones keep its wall-clock time in the practice's zone. */
  start: z.string(),
  durationMinutes: z.number(),
  recurrence: z.object({
    frequency: z.enum(FREQUENCIES),
    interval: z.number(),
    monthlyMode: z.enum(MONTHLY_MODES),
    ordinal: ordinal(),
    end: z.enum(RECURRENCE_ENDS),
    count: z.number(),
    until: z.nullable(z.string()),
  }),
  notes: z.string(),
  /** Days (YYYY-MM-DD, practice's zone) of occurrences cancelled or changed alone; they still count toward the series' COUNT, as RFC 5545 EXDATEs do. */
  excludedDays: z._default(z.array(z.string()), []),
  /** Set on an occurrence changed alone: the series and day it was taken out of. */
  detachedFrom: z._default(z.nullable(z.object({ appointmentId: z.string(), occurrenceDay: z.string() })), null),
  /** Arrival of each occurrence whose status is other than Scheduled, by its day (YYYY-MM-DD, practice's zone). */
  arrivals: z._default(z.record(z.string(), z.enum(ARRIVAL_STATUSES)), {}),
  createdBy: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Appointment = z.infer<typeof Appointment>;

export const AppointmentInput = z.object({
  patientId: z.string({ error: M.patientRequired }).check(z.trim(), z.minLength(1, M.patientRequired), z.maxLength(LIMITS.id)),
  appointmentTypeId: z.string({ error: M.typeRequired }).check(z.trim(), z.minLength(1, M.typeRequired), z.maxLength(LIMITS.id)),
  providerId: z.string({ error: M.providerRequired }).check(z.trim(), z.minLength(1, M.providerRequired), z.maxLength(LIMITS.id)),
  bookingLocationId: z._default(z.nullable(idText()), null),
  visitType: z._default(z.enum(VISIT_TYPES), 'in_person'),
  start: z.iso.datetime({ offset: true, error: M.startRequired }),
  durationMinutes: duration(),
  recurrence: z._default(RecurrenceInput, { ...NO_RECURRENCE }),
  notes: z._default(z.string().check(z.maxLength(4000)), ''),
  /** PUT only: the updatedAt the client read, so a stale edit is refused rather than overwriting. */
  updatedAt: z.optional(z.string().check(z.maxLength(40))),
});
export type AppointmentInput = z.input<typeof AppointmentInput>;
export const AppointmentIdParams = z.object({ appointmentId: idText() });
/** PUT/DELETE /v1/appointments/{id}?occurrence=YYYY-MM-DD: this one occurrence of a series, not the whole series. */
export const OccurrenceQuery = z.object({ occurrence: z.optional(isoDay()) });

/** PUT /v1/appointments/{id}/arrival: where the patient of one occurrence is now. */
export const ArrivalInput = z.object({
  occurrenceDay: isoDay(),
  status: z.enum(ARRIVAL_STATUSES, { error: M.arrivalStatus }),
});
export type ArrivalInput = z.input<typeof ArrivalInput>;
/** POST /v1/appointments/{id}/reminder: the occurrence whose reminder text goes out now. */
export const ReminderNowInput = z.object({ occurrenceDay: isoDay() });
/** GET /v1/appointments/upcoming?patientId: the patient's next visits, for the chart header. */
export const UpcomingVisitsQuery = z.object({ patientId: idText() });

/** GET /v1/appointments?start&end[&providerId]: the occurrences in [start, end). */
export const AppointmentRangeQuery = z.object({
  start: z.iso.datetime({ offset: true }),
  end: z.iso.datetime({ offset: true }),
  providerId: z.optional(idText()),
});

/** An appointment series' pending reminder text: the one-time schedule of its next occurrence's reminder. */
export const PendingReminder = z.object({ appointmentId: z.string(), scheduleName: z.string(), occurrenceStart: z.string(), at: z.string() });
export type PendingReminder = z.infer<typeof PendingReminder>;
