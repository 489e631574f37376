import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Appointment,
  CALENDAR_STALE_MS,
  PracticeCalendarSettings,
  UserCalendarSettings,
  type AppointmentInput,
  type ArrivalStatus,
} from '../../../../../shared/calendar/calendar-schema.js';
import {
  AppointmentCancelled,
  AppointmentOccurrenceArrival,
  AppointmentRange,
  AppointmentTypeList,
  BookingLocationList,
  CalendarSettingsSaved,
  ReminderSent,
  UpcomingVisits,
} from '../../../../../shared/calendar/calendar-responses.js';
import { apiRequest } from '../../../lib/api-client.js';
import { upcomingVisitsRequest } from '../../../lib/first-screen-requests.js';

/** Spec shell §7.9 paths, and §7.7's practice calendar settings; `rel` as the settings screens name them. */
const apiPath = (rel: string) => (rel === '/settings' ? '/v1/practices/settings/calendar' : `/v1${rel}`);

export const calendarKeys = {
  all: ['calendar'] as const,
  ranges: () => [...calendarKeys.all, 'range'] as const,
  range: (start: string, end: string) => [...calendarKeys.ranges(), start, end] as const,
  types: (status: string) => [...calendarKeys.all, 'appointment-types', status] as const,
  locations: (status: string) => [...calendarKeys.all, 'booking-locations', status] as const,
  settings: ['calendar', 'settings'] as const,
  upcoming: (patientId: string) => [...calendarKeys.all, 'upcoming', patientId] as const,
};

/** The practice's zone, which every time on the calendar is in. */
export function usePracticeCalendarSettings() {
  return useQuery({
    queryKey: calendarKeys.settings,
    queryFn: ({ signal }) => apiRequest({ path: '/v1/practices/settings/calendar', signal }, PracticeCalendarSettings),
    staleTime: CALENDAR_STALE_MS,
  });
}

export function useAppointmentRange(range: { start: string; end: string } | null, providerId?: string | null) {
  return useQuery({
    queryKey: [...calendarKeys.range(range?.start ?? '', range?.end ?? ''), providerId ?? ''],
    queryFn: ({ signal }) =>
      apiRequest(
        {
          path: `/v1/appointments`,
          query: { start: range!.start, end: range!.end, ...(providerId ? { providerId } : {}) },
          signal,
        },
        AppointmentRange,
      ),
    enabled: range !== null,
    placeholderData: keepPreviousData,
  });
}

/** Spec shell §9: appointment types are stale after 5 minutes. */
export function useAppointmentTypes(status: 'active' | 'all' = 'active') {
  return useQuery({
    queryKey: calendarKeys.types(status),
    queryFn: ({ signal }) =>
      apiRequest({ path: `/v1/appointment-types`, query: status === 'active' ? { status } : {}, signal }, AppointmentTypeList).then((r) => r.appointmentTypes),
    staleTime: CALENDAR_STALE_MS,
  });
}

export function useBookingLocations(status: 'active' | 'all' = 'active') {
  return useQuery({
    queryKey: calendarKeys.locations(status),
    queryFn: ({ signal }) =>
      apiRequest({ path: `/v1/booking-locations`, query: status === 'active' ? { status } : {}, signal }, BookingLocationList).then((r) => r.bookingLocations),
    staleTime: CALENDAR_STALE_MS,
  });
}

export function useSaveAppointment() {
  const queryClient = useQueryClient();
  return useMutation({
    /** With `occurrence` (YYYY-MM-DD), only that occurrence of the series changes. */
    mutationFn: ({ appointmentId, input, occurrence }: { appointmentId: string | null; input: AppointmentInput; occurrence?: string }) =>
      apiRequest(
        appointmentId
          ? { method: 'PUT', path: `/v1/appointments/${encodeURIComponent(appointmentId)}`, query: occurrence ? { occurrence } : {}, body: input }
          : { method: 'POST', path: `/v1/appointments`, body: input },
        Appointment,
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: calendarKeys.ranges() }),
  });
}

export function useCancelAppointment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ appointmentId, occurrence }: { appointmentId: string; occurrence?: string }) =>
      apiRequest(
        { method: 'DELETE', path: `/v1/appointments/${encodeURIComponent(appointmentId)}`, query: occurrence ? { occurrence } : {} },
        AppointmentCancelled,
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: calendarKeys.ranges() }),
  });
}

export const calendarSettingsKeys = {
  user: (userId: string) => ['calendar', 'user-settings', userId] as const,
};

/** Spec shell §9: calendar settings are stale after 5 minutes. */
export function useUserCalendarSettings(userId: string | undefined) {
  return useQuery({
    queryKey: calendarSettingsKeys.user(userId ?? ''),
    queryFn: ({ signal }) => apiRequest({ path: `/v1/calendar-settings/users/${encodeURIComponent(userId ?? '')}`, signal }, UserCalendarSettings),
    enabled: Boolean(userId),
    staleTime: CALENDAR_STALE_MS,
  });
}

/** One call per settings change; the lists and settings it touched read again. */
export function useCalendarSettingsChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: { method: 'POST' | 'PUT' | 'DELETE'; path: string; body?: unknown }) =>
      apiRequest({ ...request, path: `${apiPath(request.path)}` }, CalendarSettingsSaved),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: calendarKeys.all }),
  });
}

/** A provider's calendar settings (working hours, blocked time), read once and kept like the query above. */
export function fetchUserCalendarSettings(queryClient: ReturnType<typeof useQueryClient>, userId: string) {
  return queryClient.fetchQuery({
    queryKey: calendarSettingsKeys.user(userId),
    queryFn: ({ signal }) => apiRequest({ path: `/v1/calendar-settings/users/${encodeURIComponent(userId)}`, signal }, UserCalendarSettings),
    staleTime: CALENDAR_STALE_MS,
  });
}

/** Where the patient of one occurrence is; the calendar, the dashboard's day and the chart header read again. */
export function useSetArrival() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ appointmentId, occurrenceDay, status }: { appointmentId: string; occurrenceDay: string; status: ArrivalStatus }) =>
      apiRequest(
        { method: 'PUT', path: `/v1/appointments/${encodeURIComponent(appointmentId)}/arrival`, body: { occurrenceDay, status } },
        AppointmentOccurrenceArrival,
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: calendarKeys.all }),
  });
}

/** "Send reminder": the occurrence's reminder text goes to the patient now. */
export function useSendReminder() {
  return useMutation({
    mutationFn: ({ appointmentId, occurrenceDay }: { appointmentId: string; occurrenceDay: string }) =>
      apiRequest({ method: 'POST', path: `/v1/appointments/${encodeURIComponent(appointmentId)}/reminder`, body: { occurrenceDay } }, ReminderSent),
  });
}

/** The patient's next visits (the chart header); `prefetchQuery` with it asks for them before the header renders. */
export const upcomingVisitsQuery = (patientId: string) =>
  queryOptions({
    queryKey: calendarKeys.upcoming(patientId),
    queryFn: ({ signal }) => apiRequest({ ...upcomingVisitsRequest(patientId), signal }, UpcomingVisits),
  });

export function useUpcomingVisits(patientId: string) {
  return useQuery(upcomingVisitsQuery(patientId));
}
