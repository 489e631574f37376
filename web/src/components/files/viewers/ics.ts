export interface CalendarEvent {
  summary: string;
  start?: Date;
  end?: Date;
  allDay: boolean;
  location?: string;
  description?: string;
}

/** RFC 5545 date or date-time: 20261201, 20261201T090000 (local) or 20261201T090000Z (UTC). */
export function icsDate(value: string): { date: Date; allDay: boolean } | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/.exec(value.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, z] = m;
  if (h === undefined) return { date: new Date(Number(y), Number(mo) - 1, Number(d)), allDay: true };
  const parts = [Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)] as const;
  return { date: z ? new Date(Date.UTC(...parts)) : new Date(...parts), allDay: false };
}

const unescape = (v: string) => v.replace(/\\n/gi, '\n').replace(/\\([,;\\])/g, '$1');

/** The VEVENTs of a calendar file (folded lines joined, escapes undone). */
export function parseIcs(text: string): CalendarEvent[] {
  const lines = text.replace(/\r?\n[ \t]/g, '').split(/\r?\n/);
  const events: CalendarEvent[] = [];
  let current: CalendarEvent | null = null;
  for (const line of lines) {
    if (line === 'BEGIN:VEVENT') current = { summary: '', allDay: false };
    else if (line === 'END:VEVENT' && current) {
      events.push(current);
      current = null;
    } else if (current) {
      const colon = line.indexOf(':');
      if (colon < 0) continue;
      const name = line.slice(0, colon).split(';')[0].toUpperCase();
      const value = line.slice(colon + 1);
      if (name === 'SUMMARY') current.summary = unescape(value);
      else if (name === 'LOCATION') current.location = unescape(value);
      else if (name === 'DESCRIPTION') current.description = unescape(value);
      else if (name === 'DTSTART' || name === 'DTEND') {
        const parsed = icsDate(value);
        if (!parsed) continue;
        if (name === 'DTSTART') {
          current.start = parsed.date;
          current.allDay = parsed.allDay;
        } else current.end = parsed.date;
      }
    }
  }
  return events.sort((a, b) => (a.start?.getTime() ?? 0) - (b.start?.getTime() ?? 0));
}
