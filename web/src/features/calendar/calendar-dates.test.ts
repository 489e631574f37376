import { describe, expect, it } from 'vitest';
import { rangeOf, rangeTitle, stepDay, timeLabel, viewDays } from './calendar-dates.js';

describe('calendar days', () => {
  it('lays out day, week, work week, month and agenda around a date', () => {
    expect(viewDays('day', '2026-11-05')).toEqual(['2026-11-05']);
    expect(viewDays('week', '2026-11-05')).toEqual(['2026-11-01', '2026-11-02', '2026-11-03', '2026-11-04', '2026-11-05', '2026-11-06', '2026-11-07']);
    expect(viewDays('work_week', '2026-11-08')).toEqual(['2026-11-02', '2026-11-03', '2026-11-04', '2026-11-05', '2026-11-06']);
    const month = viewDays('month', '2026-11-05');
    expect([month[0], month.at(-1), month.length]).toEqual(['2026-11-01', '2026-12-05', 35]);
    expect(viewDays('agenda', '2026-11-05')).toHaveLength(30);
    expect(stepDay('month', '2026-01-31', 1)).toBe('2026-02-28');
    expect(rangeTitle('week', viewDays('week', '2026-11-05'), '2026-11-05')).toBe('November 1, 2026 – November 7, 2026');
  });

  it('asks the API for the days in the practice zone, a 25-hour day when daylight time ends', () => {
    expect(rangeOf(['2026-11-01'], 'America/Chicago')).toEqual({ start: '2026-11-01T05:00:00.000Z', end: '2026-11-02T06:00:00.000Z' });
    expect(timeLabel('2026-11-05T15:00:00.000Z', 'America/Chicago')).toBe('9:00 AM');
    expect(timeLabel('2026-11-05T00:30:00.000Z', 'America/Chicago')).toBe('6:30 PM');
  });
});
