/**
 * A provider's time as the calendar shades it: outside their working hours, their weekly blocked
 * time and their days off. Booking or moving an appointment into any of them asks first (the grid
 * and the booking dialog).
 */
import type { UserCalendarSettings } from './calendar-schema.js';
import { isoDay, zonedParts } from './recurrence.js';

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

export interface ShadedSpan {
  /** Minutes after the day's midnight, [start, end). */
  start: number;
  end: number;
  kind: 'off' | 'blocked';
  label: string;
}

export type ProviderTime = Pick<UserCalendarSettings, 'workingHours' | 'blockedTimes' | 'daysOff'>;

const DAY_OFF = 'Day off';
/** The day off (YYYY-MM-DD, first to last day inclusive) that `day` falls in, if any. */
export const dayOffOn = (day: string, time: Pick<ProviderTime, 'daysOff'>) => (time.daysOff ?? []).find((d) => d.from <= day && day <= d.to);

/**
 * The spans of one day (YYYY-MM-DD) the grid shades: all of it on a day off; else before and
 * after the working hours of its weekday (all day when none), and each weekly block.
 */
export function shadedSpans(date: string, time: ProviderTime): ShadedSpan[] {
  const off = dayOffOn(date, time);
  if (off) return [{ start: 0, end: 24 * 60, kind: 'blocked', label: off.label || DAY_OFF }];
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  const hours = time.workingHours;
  const blocked = time.blockedTimes ?? [];
  const day = hours.filter((h) => h.weekday === weekday).sort((a, b) => a.start.localeCompare(b.start));
  const out: ShadedSpan[] = [];
  let at = 0;
  for (const h of day) {
    if (minutes(h.start) > at) out.push({ start: at, end: minutes(h.start), kind: 'off', label: 'Outside working hours' });
    at = Math.max(at, minutes(h.end));
  }
  if (at < 24 * 60) out.push({ start: at, end: 24 * 60, kind: 'off', label: 'Outside working hours' });
  for (const b of blocked.filter((x) => x.weekday === weekday))
    out.push({ start: minutes(b.start), end: minutes(b.end), kind: 'blocked', label: b.label || 'Blocked time' });
  return out;
}

/**
 * Why an appointment from `start` to `end` (ISO instants) falls outside the provider's time, in
 * the practice's zone: 'blocked' (on a day off, or overlapping weekly blocked time, with its
 * label), 'off' (not within one working-hours span of its day), or null when it fits.
 */
export function hoursConflict(start: string, end: string, timeZone: string, time: ProviderTime): { kind: 'off' | 'blocked'; label: string } | null {
  const s = zonedParts(new Date(start), timeZone);
  const last = zonedParts(new Date(Math.max(Date.parse(start), Date.parse(end) - 1)), timeZone);
  const off = dayOffOn(isoDay(s), time) ?? dayOffOn(isoDay(last), time);
  if (off) return { kind: 'blocked', label: off.label || DAY_OFF };
  const hours = time.workingHours;
  const blocked = time.blockedTimes ?? [];
  const weekday = new Date(Date.UTC(s.year, s.month - 1, s.day)).getUTCDay();
  const from = s.hour * 60 + s.minute;
  const to = from + Math.round((new Date(end).getTime() - new Date(start).getTime()) / 60_000);
  const block = blocked.find((b) => b.weekday === weekday && minutes(b.start) < to && from < minutes(b.end));
  if (block) return { kind: 'blocked', label: block.label || 'Blocked time' };
  const fits = hours.some((h) => h.weekday === weekday && minutes(h.start) <= from && to <= minutes(h.end));
  return fits ? null : { kind: 'off', label: 'Outside working hours' };
}
