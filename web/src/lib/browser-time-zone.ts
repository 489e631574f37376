/** How long a read time zone is reused: a device moved to another zone is followed within a minute. */
const REREAD_AFTER_MS = 60_000;

let cached: { zone: string; at: number } | undefined;

/**
 * The browser's IANA time zone, sent with every API call. The first read loads the browser's time
 * zone data (tens of milliseconds on a phone), so it is read once and reused for a minute rather
 * than on each request.
 */
export function browserTimeZone(): string {
  const now = Date.now();
  if (!cached || now - cached.at > REREAD_AFTER_MS) cached = { zone: Intl.DateTimeFormat().resolvedOptions().timeZone, at: now };
  return cached.zone;
}

/** Reads the time zone in a task of its own while the start-up requests are in flight, not in the first API call's. */
export function readTimeZoneSoon(): void {
  setTimeout(browserTimeZone, 0);
}
