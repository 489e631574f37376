/** The calendar routes of the practice group, loaded on their first request (handler.ts). */
import {
  AppointmentIdParams,
  AppointmentInput,
  AppointmentRangeQuery,
  AppointmentTypeInput,
  ArrivalInput,
  BookingLocationInput,
  GoogleCalendarChoiceInput,
  GoogleCredentialsInput,
  IdentParams,
  OccurrenceQuery,
  PracticeCalendarSettingsInput,
  ReminderNowInput,
  StatusQuery,
  UpcomingVisitsQuery,
  UserCalendarSettingsInput,
  UserIdParams,
} from '../../shared/calendar/calendar-schema.js';
import { route } from '../lib/http/group-handler.js';
import * as calendar from './calendar.js';
import * as booking from '../core/calendar/appointment-booking.js';
import type { CalendarRouteKey } from './routes.js';

export const CALENDAR_ROUTES = {
  // Spec shell §7.9, under the practice group's own prefix: its greedy keys already take them.
  'GET /v1/appointment-types': route({ query: StatusQuery, run: ({ auth, query }) => calendar.listAppointmentTypes(auth, query.status) }),
  'POST /v1/appointment-types': route({
    body: AppointmentTypeInput,
    permission: 'practice.settings.change',
    status: 201,
    run: ({ auth, body }) => calendar.saveAppointmentType(auth, null, body),
  }),
  'GET /v1/appointment-types/{ident}': route({ params: IdentParams, run: ({ auth, params }) => calendar.requireAppointmentType(auth, params.ident) }),
  'PUT /v1/appointment-types/{ident}': route({
    params: IdentParams,
    body: AppointmentTypeInput,
    permission: 'practice.settings.change',
    run: ({ auth, params, body }) => calendar.saveAppointmentType(auth, params.ident, body),
  }),
  'DELETE /v1/appointment-types/{ident}': route({
    params: IdentParams,
    permission: 'practice.settings.change',
    run: ({ auth, params }) => calendar.removeAppointmentType(auth, params.ident),
  }),
  'GET /v1/booking-locations': route({ query: StatusQuery, run: ({ auth, query }) => calendar.listBookingLocations(auth, query.status) }),
  'POST /v1/booking-locations': route({
    body: BookingLocationInput,
    permission: 'practice.settings.change',
    status: 201,
    run: ({ auth, body }) => calendar.saveBookingLocation(auth, null, body),
  }),
  'PUT /v1/booking-locations/{ident}': route({
    params: IdentParams,
    body: BookingLocationInput,
    permission: 'practice.settings.change',
    run: ({ auth, params, body }) => calendar.saveBookingLocation(auth, params.ident, body),
  }),
  'DELETE /v1/booking-locations/{ident}': route({
    params: IdentParams,
    permission: 'practice.settings.change',
    run: ({ auth, params }) => calendar.removeBookingLocation(auth, params.ident),
  }),
  'GET /v1/calendar-settings/users/{userId}': route({ params: UserIdParams, run: ({ auth, params }) => calendar.userCalendarSettings(auth, params.userId) }),
  // A user changes their own; an admin anyone's (checked in the use case).
  'PUT /v1/calendar-settings/users/{userId}': route({
    params: UserIdParams,
    body: UserCalendarSettingsInput,
    run: ({ auth, params, body }) => calendar.putUserCalendarSettings(auth, params.userId, body),
  }),
  // The practice's zone (spec shell §7.7 GET /v1/practices/settings/calendar), under calendar/ so it adds no API route.
  'GET /v1/practices/settings/calendar': route({ run: ({ auth }) => booking.practiceCalendarSettings(auth.practiceId) }),
  'PUT /v1/practices/settings/calendar': route({
    body: PracticeCalendarSettingsInput,
    permission: 'practice.settings.change',
    run: ({ auth, body }) => calendar.putPracticeCalendarSettings(auth, body),
  }),
  'GET /v1/appointments': route({ query: AppointmentRangeQuery, run: ({ auth, query }) => calendar.appointmentRange(auth, query) }),
  'POST /v1/appointments': route({ body: AppointmentInput, status: 201, run: ({ auth, body }) => booking.saveAppointment(auth, null, body) }),
  'GET /v1/appointments/{appointmentId}': route({
    params: AppointmentIdParams,
    run: ({ auth, params }) => calendar.readAppointment(auth, params.appointmentId),
  }),
  'PUT /v1/appointments/{appointmentId}': route({
    params: AppointmentIdParams,
    query: OccurrenceQuery,
    body: AppointmentInput,
    run: ({ auth, params, query, body }) => booking.saveAppointment(auth, params.appointmentId, body, query.occurrence),
  }),
  'DELETE /v1/appointments/{appointmentId}': route({
    params: AppointmentIdParams,
    query: OccurrenceQuery,
    run: ({ auth, params, query }) => booking.cancelAppointment(auth, params.appointmentId, query.occurrence),
  }),
  // The appointment's view: where the patient is today (every role), and its reminder text sent now.
  'PUT /v1/appointments/{appointmentId}/arrival': route({
    params: AppointmentIdParams,
    body: ArrivalInput,
    run: ({ auth, params, body }) => calendar.setArrival(auth, params.appointmentId, body),
  }),
  'POST /v1/appointments/{appointmentId}/reminder': route({
    params: AppointmentIdParams,
    body: ReminderNowInput,
    run: async ({ auth, params, body }) =>
      (await import('../core/calendar/appointment-reminders.js')).sendReminderNow(
        auth,
        params.appointmentId,
        body.occurrenceDay,
        auth.name || auth.email || 'Practice',
      ),
  }),
  // The chart header's next visits of one patient.
  'GET /v1/appointments/upcoming': route({ query: UpcomingVisitsQuery, run: ({ auth, query }) => calendar.upcomingVisits(auth, query.patientId) }),
  // A provider's ICS feed: they make it (its URL shown once) and revoke it; an admin sees and revokes anyone's.
  'GET /v1/calendar-settings/users/{userId}/feed': route({
    params: UserIdParams,
    run: async ({ auth, params }) => (await import('./calendar-feed.js')).feedStatus(auth, params.userId),
  }),
  'POST /v1/calendar-settings/users/{userId}/feed': route({
    params: UserIdParams,
    status: 201,
    run: async ({ auth, params }) => (await import('./calendar-feed.js')).createFeed(auth, params.userId),
  }),
  'DELETE /v1/calendar-settings/users/{userId}/feed': route({
    params: UserIdParams,
    run: async ({ auth, params }) => (await import('./calendar-feed.js')).revokeFeed(auth, params.userId),
  }),
  // Spec shell §7.9 `.../link/google`: each user links their own Google Calendar (google-link.ts).
  'GET /v1/calendar-settings/users/{userId}/link/google': route({
    params: UserIdParams,
    run: async ({ auth, params }) => (await import('./google-link.js')).googleConsentUrl(auth, params.userId),
  }),
  'GET /v1/calendar-settings/users/{userId}/link/google/calendars': route({
    params: UserIdParams,
    run: async ({ auth, params }) => (await import('./google-link.js')).googleCalendars(auth, params.userId),
  }),
  // Which of their Google calendars receives the user's appointments.
  'PUT /v1/calendar-settings/users/{userId}/link/google': route({
    params: UserIdParams,
    body: GoogleCalendarChoiceInput,
    run: async ({ auth, params, body }) => (await import('./google-link.js')).chooseGoogleCalendar(auth, params.userId, body.calendarId),
  }),
  'POST /v1/calendar-settings/users/{userId}/link/google/credentials': route({
    params: UserIdParams,
    body: GoogleCredentialsInput,
    run: async ({ auth, params, body }) => (await import('./google-link.js')).saveGoogleCredentials(auth, params.userId, body),
  }),
  'DELETE /v1/calendar-settings/users/{userId}/link/google/credentials': route({
    params: UserIdParams,
    run: async ({ auth, params }) => (await import('./google-link.js')).unlinkGoogle(auth, params.userId),
  }),
} satisfies Record<CalendarRouteKey, unknown>;
