const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date written YYYY-MM-DD (rejects 2023-02-30). */
export function isIsoDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1) return false;
  return d <= daysInMonth(y, mo);
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Today's calendar date where the code runs (the browser's zone in the web, UTC in Lambda). */
export function todayIsoDate(now: Date = new Date()): string {
  return `${pad(now.getFullYear(), 4)}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** YYYY-MM-DD → MM/DD/YYYY without going through a Date (no zone shift). */
export function isoToUsDate(iso: string): string {
  const m = ISO_DATE.exec(iso);
  if (!m) return '';
  return `${m[2]}/${m[3]}/${m[1]}`;
}

/** MM/DD/YYYY (1–2 digit month and day accepted) → YYYY-MM-DD, or null when not a real date. */
export function usDateToIso(us: string): string | null {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(us.trim());
  if (!m) return null;
  const iso = `${m[3]}-${pad(Number(m[1]))}-${pad(Number(m[2]))}`;
  return isIsoDate(iso) ? iso : null;
}

/** Completed years between an ISO birth date and a day (default today). */
export function ageOn(dobIso: string, on: Date = new Date()): number | null {
  if (!isIsoDate(dobIso)) return null;
  const [y, m, d] = dobIso.split('-').map(Number);
  let age = on.getFullYear() - y;
  const month = on.getMonth() + 1;
  if (month < m || (month === m && on.getDate() < d)) age -= 1;
  return age < 0 ? null : age;
}
