/**
 * What the calendar endpoints answer (spec shell §7.9), read by the web client. Apart from
 * calendar-schema.ts so the practice Lambda, which builds these answers and needs only their types,
 * does not bundle the schemas.
 */
import * as z from '../zod.js';
import {
  Appointment,
  AppointmentType,
  ARRIVAL_STATUSES,
  BookingLocation,
  PracticeCalendarSettings,
  UserCalendarSettings,
  VISIT_TYPES,
} from './calendar-schema.js';

/** GET /v1/appointment-types?status. */
export const AppointmentTypeList = z.object({ appointmentTypes: z.array(AppointmentType) });
/** GET /v1/booking-locations?status. */
export const BookingLocationList = z.object({ bookingLocations: z.array(BookingLocation) });

/** A calendar settings change: the type, location or settings saved, or the ident of the one removed. */
export const CalendarSettingsSaved = z.union([
  AppointmentType,
  BookingLocation,
  UserCalendarSettings,
  PracticeCalendarSettings,
  z.object({ ident: z.string() }),
]);

/** DELETE /v1/appointments/{id}[?occurrence]: the series, and the occurrence when only that one was cancelled. */
export const AppointmentCancelled = z.object({ appointmentId: z.string(), occurrenceDay: z.optional(z.string()) });

/** A provider's calendar feed as its owner sees it: the secret URL only once, when it is made. */
export const CalendarFeedStatus = z.object({
  active: z.boolean(),
  createdAt: z.nullable(z.string()),
  /** The feed's path under the API (`/v1/calendar-feeds/<token>.ics`), present only in the reply that created it. */
  path: z.optional(z.string()),
});
export type CalendarFeedStatus = z.infer<typeof CalendarFeedStatus>;

/** GET .../link/google: Google's consent page to send the user to. */
export const GoogleConsentUrl = z.object({ url: z.string() });

/** A user's Google Calendar link as they see it: never any token. */
export const GoogleLinkStatus = z.object({
  linked: z.boolean(),
  linkedAt: z.nullable(z.string()),
  calendars: z.array(z.object({ id: z.string(), summary: z.string(), primary: z.boolean(), accessRole: z.string(), backgroundColor: z.nullable(z.string()) })),
  /** The calendar their appointments go to (one of `calendars`' ids), null when not linked. */
  calendarId: z.nullable(z.string()),
  /** Whether the link lets Tidewell add events (links made before it did only read). */
  writesEvents: z.boolean(),
  /** When appointments were last written to Google, and why that failed (null when it worked). */
  lastSyncAt: z.nullable(z.string()),
  lastSyncError: z.nullable(z.string()),
});
export type GoogleLinkStatus = z.infer<typeof GoogleLinkStatus>;

/** What an arrival change says back: the series' new version, so an edit opened from the view is not refused as stale. */
export const AppointmentOccurrenceArrival = z.object({
  appointmentId: z.string(),
  occurrenceDay: z.string(),
  arrivalStatus: z.enum(ARRIVAL_STATUSES),
  updatedAt: z.string(),
});
export type AppointmentOccurrenceArrival = z.infer<typeof AppointmentOccurrenceArrival>;

/** What a reminder sent by hand says back: the text, when and to which number (last four digits). */
export const ReminderSent = z.object({ appointmentId: z.string(), occurrenceDay: z.string(), text: z.string(), sentAt: z.string(), toLastFour: z.string() });
export type ReminderSent = z.infer<typeof ReminderSent>;

const occurrenceFields = {
  appointmentId: z.string(),
  /** YYYY-MM-DD in the practice's zone: which occurrence of the series. */
  occurrenceDay: z.string(),
  start: z.string(),
  end: z.string(),
  patientId: z.string(),
  patientName: z.string(),
  providerId: z.string(),
  providerName: z.string(),
  appointmentTypeId: z.string(),
  appointmentTypeName: z.string(),
  color: z.string(),
  bookingLocationId: z.nullable(z.string()),
  bookingLocationName: z.nullable(z.string()),
  visitType: z.enum(VISIT_TYPES),
  recurring: z.boolean(),
  /** Where the patient of this occurrence is on the day (Scheduled until someone says otherwise). */
  arrivalStatus: z.enum(ARRIVAL_STATUSES),
};

/** One occurrence of a series, with the names the calendar shows. */
export const AppointmentOccurrence = z.object({ ...occurrenceFields, series: Appointment });
export type AppointmentOccurrence = z.infer<typeof AppointmentOccurrence>;

/** GET /v1/appointments?start&end[&providerId]: the occurrences in [start, end). */
export const AppointmentRange = z.object({ timeZone: z.string(), occurrences: z.array(AppointmentOccurrence) });
export type AppointmentRange = z.infer<typeof AppointmentRange>;

/** The patient's next visits (the chart header): the occurrences still ahead, soonest first, without the series. */
export const UpcomingVisits = z.object({ timeZone: z.string(), visits: z.array(z.object(occurrenceFields)) });
export type UpcomingVisits = z.infer<typeof UpcomingVisits>;
