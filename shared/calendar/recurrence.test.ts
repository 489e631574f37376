import { describe, expect, it } from 'vitest';
import { expandOccurrences, NO_RECURRENCE, ordinalOf, seriesEnd, zonedToInstant, type Recurrence } from './recurrence.js';

const TZ = 'America/Chicago';
const rule = (r: Partial<Recurrence>): Recurrence => ({ ...NO_RECURRENCE, ...r });
const days = (start: string, recurrence: Recurrence, from: string, to: string, durationMinutes = 30) =>
  expandOccurrences({ start, durationMinutes, recurrence }, TZ, new Date(from), new Date(to));

describe('zonedToInstant', () => {
  it('reads a wall-clock time in the zone, on either side of a change and in its gap', () => {
    expect(zonedToInstant({ year: 2026, month: 10, day: 29, hour: 9, minute: 0 }, TZ).toISOString()).toBe('2026-10-29T14:00:00.000Z');
    expect(zonedToInstant({ year: 2026, month: 11, day: 5, hour: 9, minute: 0 }, TZ).toISOString()).toBe('2026-11-05T15:00:00.000Z');
    // 2:30 does not exist on 2026-03-08 in Chicago: it moves forward by the hour skipped.
    expect(zonedToInstant({ year: 2026, month: 3, day: 8, hour: 2, minute: 30 }, TZ).toISOString()).toBe('2026-03-08T08:30:00.000Z');
    // 1:30 happens twice on 2026-11-01: the first (daylight) reading.
    expect(zonedToInstant({ year: 2026, month: 11, day: 1, hour: 1, minute: 30 }, TZ).toISOString()).toBe('2026-11-01T06:30:00.000Z');
    expect(zonedToInstant({ year: 2026, month: 7, day: 1, hour: 23, minute: 45 }, 'Asia/Kolkata').toISOString()).toBe('2026-07-01T18:15:00.000Z');
  });
});

describe('expandOccurrences', () => {
  it('keeps a weekly 9:00 at 9:00 across the end of daylight saving time', () => {
    const out = days('2026-10-22T14:00:00.000Z', rule({ frequency: 'Weekly' }), '2026-10-01T00:00:00Z', '2026-11-20T00:00:00Z');
    expect(out.map((o) => o.start)).toEqual([
      '2026-10-22T14:00:00.000Z',
      '2026-10-29T14:00:00.000Z',
      '2026-11-05T15:00:00.000Z',
      '2026-11-12T15:00:00.000Z',
      '2026-11-19T15:00:00.000Z',
    ]);
    expect(out.map((o) => o.day)).toEqual(['2026-10-22', '2026-10-29', '2026-11-05', '2026-11-12', '2026-11-19']);
    expect(out[2].end).toBe('2026-11-05T15:30:00.000Z');
  });

  it('daily every 2 days within a month, and an occurrence that overlaps the range start', () => {
    const out = days('2026-02-27T23:30:00.000Z', rule({ frequency: 'Daily', interval: 2 }), '2026-03-01T06:00:00Z', '2026-04-01T05:00:00Z', 60);
    // 17:30 Chicago on Feb 27, Mar 1, 3, ... The Mar 1 one starts inside the range.
    expect(out[0].day).toBe('2026-03-01');
    expect(out).toHaveLength(16);
    expect(out.at(-1)!.day).toBe('2026-03-31');
    // After the March change 17:30 Chicago is 22:30 UTC.
    expect(out.find((o) => o.day === '2026-03-09')!.start).toBe('2026-03-09T22:30:00.000Z');
  });

  it('monthly by month day skips months without the day; by weekday takes the ordinal or the last', () => {
    const byDay31 = days('2026-01-31T15:00:00.000Z', rule({ frequency: 'Monthly' }), '2026-01-01T00:00:00Z', '2026-08-01T00:00:00Z');
    expect(byDay31.map((o) => o.day)).toEqual(['2026-01-31', '2026-03-31', '2026-05-31', '2026-07-31']);
    // 2026-01-13 is the second Tuesday.
    const secondTuesday = days(
      '2026-01-13T15:00:00.000Z',
      rule({ frequency: 'Monthly', monthlyMode: 'BYDAY', ordinal: 2 }),
      '2026-01-01T00:00:00Z',
      '2026-05-01T00:00:00Z',
    );
    expect(secondTuesday.map((o) => o.day)).toEqual(['2026-01-13', '2026-02-10', '2026-03-10', '2026-04-14']);
    const lastFriday = days(
      '2026-01-30T15:00:00.000Z',
      rule({ frequency: 'Monthly', monthlyMode: 'BYDAY', ordinal: -1 }),
      '2026-01-01T00:00:00Z',
      '2026-05-01T00:00:00Z',
    );
    expect(lastFriday.map((o) => o.day)).toEqual(['2026-01-30', '2026-02-27', '2026-03-27', '2026-04-24']);
    expect(ordinalOf(30, 2026, 1)).toBe(-1);
    expect(ordinalOf(13, 2026, 1)).toBe(2);
  });

  it('ends after a count or on a date; yearly skips a missing Feb 29', () => {
    expect(
      days('2026-01-05T15:00:00.000Z', rule({ frequency: 'Weekly', end: 'COUNT', count: 3 }), '2026-01-01T00:00:00Z', '2026-03-01T00:00:00Z'),
    ).toHaveLength(3);
    const until = days(
      '2026-01-05T15:00:00.000Z',
      rule({ frequency: 'Weekly', end: 'ON', until: '2026-01-26' }),
      '2026-01-01T00:00:00Z',
      '2026-03-01T00:00:00Z',
    );
    expect(until.map((o) => o.day)).toEqual(['2026-01-05', '2026-01-12', '2026-01-19', '2026-01-26']);
    const leap = expandOccurrences(
      { start: '2028-02-29T15:00:00.000Z', durationMinutes: 30, recurrence: rule({ frequency: 'Yearly' }) },
      TZ,
      new Date('2028-01-01'),
      new Date('2033-01-01'),
    );
    expect(leap.map((o) => o.day)).toEqual(['2028-02-29', '2032-02-29']);
    expect(seriesEnd({ start: '2026-01-05T15:00:00.000Z', durationMinutes: 30, recurrence: rule({ frequency: 'Weekly', end: 'COUNT', count: 3 }) }, TZ)).toBe(
      '2026-01-19T15:30:00.000Z',
    );
    expect(seriesEnd({ start: '2026-01-05T15:00:00.000Z', durationMinutes: 30, recurrence: rule({ frequency: 'Weekly' }) }, TZ)).toBeNull();
    expect(days('2026-01-05T15:00:00.000Z', NO_RECURRENCE, '2026-01-01T00:00:00Z', '2026-03-01T00:00:00Z')).toHaveLength(1);
  });
});
