import type { AppointmentOccurrence } from '../../../../../shared/calendar/calendar-responses.js';
import { ARRIVAL_STATUS_LABELS } from '../../../../../shared/calendar/calendar-schema.js';
import { dayParts, timeLabel, WEEKDAY_SHORT } from '../calendar-dates.js';

/** What a screen reader hears for an appointment in any of the calendar's views. */
export function occurrenceLabel(o: AppointmentOccurrence, timeZone: string): string {
  const arrival = o.arrivalStatus && o.arrivalStatus !== 'scheduled' ? `, ${ARRIVAL_STATUS_LABELS[o.arrivalStatus]}` : '';
  return `${timeLabel(o.start, timeZone)} to ${timeLabel(o.end, timeZone)}, ${o.patientName}, ${o.appointmentTypeName} with ${o.providerName}${arrival}${o.recurring ? ', repeats' : ''}`;
}

/** "Mon 3/2": a day column's or agenda day's heading. */
export function dayHeading(day: string): string {
  const p = dayParts(day);
  return `${WEEKDAY_SHORT[new Date(Date.UTC(p.year, p.month - 1, p.day)).getUTCDay()]} ${p.month}/${p.day}`;
}

/** The range's occurrences by the day they fall on, in the order the server sent them. */
export function occurrencesByDay(occurrences: AppointmentOccurrence[]): Map<string, AppointmentOccurrence[]> {
  const byDay = new Map<string, AppointmentOccurrence[]>();
  for (const o of occurrences) {
    const list = byDay.get(o.occurrenceDay) ?? [];
    list.push(o);
    byDay.set(o.occurrenceDay, list);
  }
  return byDay;
}
