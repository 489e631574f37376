/**
 * Days in the demo practice's zone (the config runs the browser there too). A test about "today"
 * that needs a visit or a reminder still ahead cannot use the real today near its midnight, so it
 * puts the browser's clock on tomorrow morning instead: the whole of that day is ahead of the
 * server's clock, and the browser calls it today. Amplify measures the browser's drift from the
 * token's issue time, so the session holds.
 */
export const PRACTICE_ZONE = 'America/Chicago';

function partsIn(d: Date): Record<string, string> {
  return Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: PRACTICE_ZONE,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(d)
      .map((p) => [p.type, p.value]),
  );
}

/** The practice day (YYYY-MM-DD) of an instant. */
export function practiceDayOf(d: Date): string {
  const p = partsIn(d);
  return `${p.year}-${p.month}-${p.day}`;
}

/** The instant of `hour`:`minute` on the practice day after the real today. */
export function tomorrowAt(hour: number, minute = 0): Date {
  const day = practiceDayOf(new Date(Date.now() + 24 * 3600_000));
  const [y, m, d] = day.split('-').map(Number);
  const wanted = `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
  // Chicago is 5 hours behind UTC in daylight time and 6 in standard time.
  for (const offsetHours of [5, 6]) {
    const at = new Date(Date.UTC(y, m - 1, d, hour + offsetHours, minute));
    const p = partsIn(at);
    if (practiceDayOf(at) === day && `${p.hour}:${p.minute}` === wanted) return at;
  }
  throw new Error(`${day} ${wanted} does not exist in ${PRACTICE_ZONE}`);
}
