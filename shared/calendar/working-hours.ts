/**
 * A provider's week as the calendar shades it: outside their working hours, and their blocked
 * time. Booking or moving an appointment into either asks first (the grid and the booking dialog).
 */
import type { BlockedTime, WorkingDay } from './calendar-schema.js';
import { zonedParts } from './recurrence.js';

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

export interface ShadedSpan {
  /** Minutes after the day's midnight, [start, end). */
  start: number;
  end: number;
  kind: 'off' | 'blocked';
  label: string;
}

/** The spans of one weekday (0 Sunday) the grid shades: before and after the working hours (all day when none), and each block. */
export function shadedSpans(weekday: number, hours: readonly WorkingDay[], blocked: readonly BlockedTime[]): ShadedSpan[] {
  const day = hours.filter((h) => h.weekday === weekday).sort((a, b) => a.start.localeCompare(b.start));
  const out: ShadedSpan[] = [];
  let at = 0;
  for (const h of day) {
    if (minutes(h.start) > at) out.push({ start: at, end: minutes(h.start), kind: 'off', label: 'Outside working hours' });
    at = Math.max(at, minutes(h.end));
  }
  if (at < 24 * 60) out.push({ start: at, end: 24 * 60, kind: 'off', label: 'Outside working hours' });
  for (const b of blocked.filter((x) => x.weekday === weekday)) out.push({ start: minutes(b.start), end: minutes(b.end), kind: 'blocked', label: b.label || 'Blocked time' });
  return out;
}

/**
 * Why an appointment from `start` to `end` (ISO instants) falls outside the provider's time, in
 * the practice's zone: 'off' (not within one working-hours span of its day), 'blocked' (it
 * overlaps blocked time, with that block's label), or null when it fits.
 */
export function hoursConflict(
  start: string,
  end: string,
  timeZone: string,
  hours: readonly WorkingDay[],
  blocked: readonly BlockedTime[],
): { kind: 'off' | 'blocked'; label: string } | null {
  const s = zonedParts(new Date(start), timeZone);
  const weekday = new Date(Date.UTC(s.year, s.month - 1, s.day)).getUTCDay();
  const from = s.hour * 60 + s.minute;
  const to = from + Math.round((new Date(end).getTime() - new Date(start).getTime()) / 60_000);
  const block = blocked.find((b) => b.weekday === weekday && minutes(b.start) < to && from < minutes(b.end));
  if (block) return { kind: 'blocked', label: block.label || 'Blocked time' };
  const fits = hours.some((h) => h.weekday === weekday && minutes(h.start) <= from && to <= minutes(h.end));
  return fits ? null : { kind: 'off', label: 'Outside working hours' };
}
