/**
 * The calendar's days and ranges in the practice's time zone: a day is a YYYY-MM-DD in that zone,
 * and the range asked of the API runs from the first day's midnight there to the day after the
 * last's, so a day view in Chicago asks the same instants wherever the browser is.
 */
import { CALENDAR_VIEWS, type CalendarView } from '../../../../shared/calendar/calendar-schema.js';
import { isoDay, zonedParts, zonedToInstant } from '../../../../shared/calendar/recurrence.js';

export const WEEKDAY_SHORT = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
export const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'] as const;
/** How many days the agenda lists from its date. */
export const AGENDA_DAYS = 30;

const DAY_MS = 86_400_000;
const toNumber = (day: string) => {
  const [y, m, d] = day.split('-').map(Number);
  return Date.UTC(y, m - 1, d) / DAY_MS;
};
const fromNumber = (n: number) => {
  const d = new Date(n * DAY_MS);
  return isoDay({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() });
};

export const isIsoDay = (s: string | null | undefined): s is string => !!s && /^\d{4}-\d{2}-\d{2}$/.test(s) && fromNumber(toNumber(s)) === s;
export const addDays = (day: string, n: number) => fromNumber(toNumber(day) + n);
export const weekday = (day: string) => new Date(toNumber(day) * DAY_MS).getUTCDay();
export const dayParts = (day: string) => {
  const [year, month, d] = day.split('-').map(Number);
  return { year, month, day: d };
};
export function addMonths(day: string, n: number): string {
  const p = dayParts(day);
  const index = p.year * 12 + p.month - 1 + n;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return isoDay({ year, month, day: Math.min(p.day, last) });
}

export function parseView(value: string | null): CalendarView {
  return (CALENDAR_VIEWS as readonly string[]).includes(value ?? '') ? (value as CalendarView) : 'week';
}

/** Today in the zone. */
export const todayIn = (timeZone: string, now = new Date()) => isoDay(zonedParts(now, timeZone));

/** The days a view shows around `day`: weeks start on Sunday, a work week is Monday to Friday, a month fills whole weeks. */
export function viewDays(view: CalendarView, day: string): string[] {
  const span = (first: string, count: number) => Array.from({ length: count }, (_, i) => addDays(first, i));
  switch (view) {
    case 'day':
      return [day];
    case 'week':
      return span(addDays(day, -weekday(day)), 7);
    case 'work_week':
      return span(addDays(day, 1 - weekday(day) - (weekday(day) === 0 ? 7 : 0)), 5);
    case 'month': {
      const first = `${day.slice(0, 8)}01`;
      const start = addDays(first, -weekday(first));
      const lastOfMonth = addDays(addMonths(first, 1), -1);
      const end = addDays(lastOfMonth, 6 - weekday(lastOfMonth));
      return span(start, toNumber(end) - toNumber(start) + 1);
    }
    case 'agenda':
      return span(day, AGENDA_DAYS);
  }
}

/** The instants [start, end) the API is asked for: the first day's midnight to the day after the last's, in the zone. */
export function rangeOf(days: readonly string[], timeZone: string): { start: string; end: string } {
  const at = (day: string) => zonedToInstant({ ...dayParts(day), hour: 0, minute: 0 }, timeZone).toISOString();
  return { start: at(days[0]), end: at(addDays(days[days.length - 1], 1)) };
}

/** Where Previous and Next go from `day`. */
export function stepDay(view: CalendarView, day: string, direction: 1 | -1): string {
  if (view === 'day') return addDays(day, direction);
  if (view === 'month') return addMonths(day, direction);
  if (view === 'agenda') return addDays(day, direction * AGENDA_DAYS);
  return addDays(day, direction * 7);
}

/** 'Thursday, November 5, 2026', 'Nov 1 – 7, 2026', 'November 2026'. */
export function rangeTitle(view: CalendarView, days: readonly string[], day: string): string {
  const long = (d: string) => {
    const p = dayParts(d);
    return `${MONTH_NAMES[p.month - 1]} ${p.day}, ${p.year}`;
  };
  if (view === 'day') return `${['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'][weekday(day)]}, ${long(day)}`;
  if (view === 'month') return `${MONTH_NAMES[dayParts(day).month - 1]} ${dayParts(day).year}`;
  return `${long(days[0])} – ${long(days[days.length - 1])}`;
}

/** h:mm A (spec shell §9) of an instant in the zone. */
export function timeLabel(iso: string, timeZone: string): string {
  const p = zonedParts(new Date(iso), timeZone);
  return `${p.hour % 12 || 12}:${String(p.minute).padStart(2, '0')} ${p.hour < 12 ? 'AM' : 'PM'}`;
}

/** MM/DD/YYYY (spec shell §9). */
export function dateLabel(day: string): string {
  const p = dayParts(day);
  return `${String(p.month).padStart(2, '0')}/${String(p.day).padStart(2, '0')}/${p.year}`;
}

/** Minutes after the zone's midnight of the occurrence's own day. */
export function minutesOfDay(iso: string, timeZone: string): number {
  const p = zonedParts(new Date(iso), timeZone);
  return p.hour * 60 + p.minute;
}

export const WEEKDAY_LONG = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
export const isoDayOf = (p: { year: number; month: number; day: number }) => isoDay(p);

/** The instant `days` days and `minutes` minutes of wall-clock time after `iso` in the zone (a day is a calendar day across a daylight-saving change). */
export function shiftWallClock(iso: string, timeZone: string, days: number, minutes: number): string {
  const p = zonedParts(new Date(iso), timeZone);
  const d = new Date(Date.UTC(p.year, p.month - 1, p.day + days, 0, p.hour * 60 + p.minute + minutes));
  return zonedToInstant(
    { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes() },
    timeZone,
  ).toISOString();
}
