import { describe, expect, it } from 'vitest';
import { parseIcs } from './ics.js';

describe('parseIcs', () => {
  it('reads events in start order with folded lines, escapes, UTC and all-day dates', () => {
    const text = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'BEGIN:VEVENT',
      'SUMMARY:Follow-up\\, labs',
      'DTSTART:20261202T150000Z',
      'DTEND:20261202T153000Z',
      'LOCATION:Room 2',
      'DESCRIPTION:Bring the',
      '  glucose log',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'SUMMARY:Clinic closed',
      'DTSTART;VALUE=DATE:20261201',
      'END:VEVENT',
      'END:VCALENDAR',
    ].join('\r\n');
    const events = parseIcs(text);
    expect(events.map((e) => e.summary)).toEqual(['Clinic closed', 'Follow-up, labs']);
    expect(events[0].allDay).toBe(true);
    expect(events[1]).toMatchObject({ location: 'Room 2', description: 'Bring the glucose log', allDay: false });
    expect(events[1].start?.toISOString()).toBe('2026-12-02T15:00:00.000Z');
  });
});
