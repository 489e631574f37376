/**
 * Recurrence expansion in the practice's time zone (spec shell §3 recurrence enumerations).
 *
 * An appointment keeps its wall-clock time in the practice's zone: a weekly 9:00 visit is at 9:00
 * before and after a daylight-saving change, so its UTC instant moves by an hour. Calendar days are
 * counted on UTC dates (Date.UTC) so the result never depends on the host's own zone; the zone
 * offsets come from Intl, which every runtime (Lambda, browsers) ships with full zone data.
 */

export const FREQUENCIES = ['Never', 'Daily', 'Weekly', 'Monthly', 'Yearly'] as const;
export type Frequency = (typeof FREQUENCIES)[number];
export const RECURRENCE_ENDS = ['NEVER', 'COUNT', 'ON'] as const;
export const MONTHLY_MODES = ['BYMONTHDAY', 'BYDAY'] as const;
/** First to Fourth, and Last (-1). */
export const ORDINALS = [1, 2, 3, 4, -1] as const;
export const ORDINAL_LABELS: Record<(typeof ORDINALS)[number], string> = { 1: 'First', 2: 'Second', 3: 'Third', 4: 'Fourth', [-1]: 'Last' };

export interface Recurrence {
  frequency: Frequency;
  /** Every `interval` days/weeks/months/years. */
  interval: number;
  monthlyMode: (typeof MONTHLY_MODES)[number];
  /** For monthly BYDAY: which of the month's weekdays (the start's weekday). */
  ordinal: (typeof ORDINALS)[number];
  end: (typeof RECURRENCE_ENDS)[number];
  /** For end COUNT: how many occurrences, the first included. */
  count: number;
  /** For end ON: the last day (YYYY-MM-DD, in the practice's zone) an occurrence may fall on. */
  until: string | null;
}

export const NO_RECURRENCE: Recurrence = { frequency: 'Never', interval: 1, monthlyMode: 'BYMONTHDAY', ordinal: 1, end: 'NEVER', count: 1, until: null };

/** The most occurrences one series expands to, whatever its end says. */
export const MAX_OCCURRENCES = 1000;

export interface LocalDateTime {
  year: number;
  /** 1-12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

export function isTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock date and time an instant shows in the zone. */
export function zonedParts(instant: Date, timeZone: string): LocalDateTime & { second: number } {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(instant)) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour % 24, minute: parts.minute, second: parts.second };
}

/** The zone's offset from UTC at an instant, in ms (Chicago in winter: -6 h). */
function offsetAt(ms: number, timeZone: string): number {
  const p = zonedParts(new Date(ms), timeZone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(ms / 1000) * 1000;
}

/**
 * The instant a wall-clock time names in the zone. A time skipped by a spring-forward change
 * (2:30 on that night) moves forward by the gap, as calendar programs do; a repeated one takes
 * its first (daylight) reading.
 */
export function zonedToInstant(local: LocalDateTime, timeZone: string): Date {
  const wall = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute);
  const first = wall - offsetAt(wall, timeZone);
  const second = wall - offsetAt(first, timeZone);
  if (first === second) return new Date(first);
  // Two candidates: the earlier is the daylight reading of a repeated time; a skipped time shows on neither.
  const candidates = [Math.min(first, second), Math.max(first, second)];
  for (const c of candidates) {
    const p = zonedParts(new Date(c), timeZone);
    if (p.hour === local.hour && p.minute === local.minute) return new Date(c);
  }
  return new Date(Math.max(first, second));
}

const DAY_MS = 86_400_000;
const dayNumber = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d) / DAY_MS;
function fromDayNumber(n: number): { year: number; month: number; day: number; weekday: number } {
  const d = new Date(n * DAY_MS);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), weekday: d.getUTCDay() };
}
const daysInMonth = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

/** YYYY-MM-DD of a local date. */
export const isoDay = (d: { year: number; month: number; day: number }) =>
  `${String(d.year).padStart(4, '0')}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;

function parseIsoDay(s: string): { year: number; month: number; day: number } {
  const [year, month, day] = s.split('-').map(Number);
  return { year, month, day };
}

/** The day of the month that is the `ordinal`th `weekday` (Last = -1), or null (a fifth one). */
function nthWeekday(year: number, month: number, weekday: number, ordinal: number): number | null {
  if (ordinal === -1) {
    const last = daysInMonth(year, month);
    const lastWeekday = fromDayNumber(dayNumber(year, month, last)).weekday;
    return last - ((lastWeekday - weekday + 7) % 7);
  }
  const firstWeekday = fromDayNumber(dayNumber(year, month, 1)).weekday;
  const day = 1 + ((weekday - firstWeekday + 7) % 7) + (ordinal - 1) * 7;
  return day <= daysInMonth(year, month) ? day : null;
}

/** Which of the month's weekdays a date is: 1-4, or -1 when it is the month's last one (the fifth). */
export function ordinalOf(day: number, year: number, month: number): (typeof ORDINALS)[number] {
  if (day + 7 > daysInMonth(year, month)) return -1;
  return Math.min(4, Math.ceil(day / 7)) as 1 | 2 | 3 | 4;
}

export interface Occurrence {
  /** The occurrence's start and end, ISO instants. */
  start: string;
  end: string;
  /** Its day in the practice's zone, YYYY-MM-DD: the occurrence's id within its series. */
  day: string;
}

/**
 * The occurrences of a series that overlap [from, to), in order, at most MAX_OCCURRENCES counted
 * from the first. The first occurrence is the series' start itself, whatever the rule says.
 */
export function expandOccurrences(
  series: { start: string; durationMinutes: number; recurrence: Recurrence; excludedDays?: readonly string[] },
  timeZone: string,
  from: Date,
  to: Date,
): Occurrence[] {
  const first = zonedParts(new Date(series.start), timeZone);
  const r = series.recurrence;
  const untilDay =
    r.end === 'ON' && r.until
      ? (() => {
          const u = parseIsoDay(r.until);
          return dayNumber(u.year, u.month, u.day);
        })()
      : Infinity;
  const maxCount = r.frequency === 'Never' ? 1 : r.end === 'COUNT' ? Math.min(r.count, MAX_OCCURRENCES) : MAX_OCCURRENCES;
  const durationMs = series.durationMinutes * 60_000;
  const startWeekday = fromDayNumber(dayNumber(first.year, first.month, first.day)).weekday;
  const interval = Math.max(1, r.interval);
  const out: Occurrence[] = [];
  let produced = 0;

  // Candidate local days, in order; each that exists counts toward the series' COUNT.
  function* days(): Generator<{ year: number; month: number; day: number }> {
    yield { year: first.year, month: first.month, day: first.day };
    const base = dayNumber(first.year, first.month, first.day);
    for (let k = 1; ; k++) {
      switch (r.frequency) {
        case 'Daily':
          yield fromDayNumber(base + k * interval);
          break;
        case 'Weekly':
          yield fromDayNumber(base + k * 7 * interval);
          break;
        case 'Monthly': {
          const monthIndex = first.month - 1 + k * interval;
          const year = first.year + Math.floor(monthIndex / 12);
          const month = (monthIndex % 12) + 1;
          // A month without the day (the 31st, or a fifth Tuesday) has no occurrence, as in RFC 5545.
          const day = r.monthlyMode === 'BYDAY' ? nthWeekday(year, month, startWeekday, r.ordinal) : first.day <= daysInMonth(year, month) ? first.day : null;
          if (day !== null) yield { year, month, day };
          else if (k > MAX_OCCURRENCES * 2) return;
          break;
        }
        case 'Yearly': {
          const year = first.year + k * interval;
          if (first.day <= daysInMonth(year, first.month)) yield { year, month: first.month, day: first.day };
          else if (k > MAX_OCCURRENCES * 8) return;
          break;
        }
        default:
          return;
      }
    }
  }

  for (const d of days()) {
    if (produced >= maxCount || dayNumber(d.year, d.month, d.day) > untilDay) break;
    produced += 1;
    if (series.excludedDays?.includes(isoDay(d))) continue;
    const start = zonedToInstant({ ...d, hour: first.hour, minute: first.minute }, timeZone);
    if (start.getTime() >= to.getTime()) break;
    if (start.getTime() + durationMs > from.getTime()) {
      out.push({ start: start.toISOString(), end: new Date(start.getTime() + durationMs).toISOString(), day: isoDay(d) });
    }
  }
  return out;
}

/**
 * When the series' last occurrence ends (ISO), or null when it never ends: what a range query
 * filters on, so a finished series is not read for later months.
 */
export function seriesEnd(series: { start: string; durationMinutes: number; recurrence: Recurrence }, timeZone: string): string | null {
  const r = series.recurrence;
  if (r.frequency !== 'Never' && r.end === 'NEVER') return null;
  const all = expandOccurrences(series, timeZone, new Date(series.start), new Date(8.64e15));
  return all.length ? all[all.length - 1].end : new Date(new Date(series.start).getTime() + series.durationMinutes * 60_000).toISOString();
}
