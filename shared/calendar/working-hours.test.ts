import { describe, expect, it } from 'vitest';
import { hoursConflict, shadedSpans } from './working-hours.js';

const TZ = 'America/Chicago';
const hours = [{ weekday: 1, start: '08:00', end: '17:00' }];
const blocked = [{ weekday: 1, start: '12:00', end: '13:00', label: 'Lunch' }];
const time = { workingHours: hours, blockedTimes: blocked, daysOff: [] };

describe('working hours', () => {
  it('shades before and after the hours, the whole of a day off, and blocked time with its label', () => {
    expect(shadedSpans('2027-03-01', time)).toEqual([
      { start: 0, end: 480, kind: 'off', label: 'Outside working hours' },
      { start: 1020, end: 1440, kind: 'off', label: 'Outside working hours' },
      { start: 720, end: 780, kind: 'blocked', label: 'Lunch' },
    ]);
    expect(shadedSpans('2027-02-28', time)).toEqual([{ start: 0, end: 1440, kind: 'off', label: 'Outside working hours' }]);
  });

  it("says why a time is outside the provider's time, in the practice's zone", () => {
    // Monday 2027-03-01: 9:00 Chicago is 15:00Z.
    expect(hoursConflict('2027-03-01T15:00:00.000Z', '2027-03-01T15:30:00.000Z', TZ, time)).toBeNull();
    expect(hoursConflict('2027-03-01T22:45:00.000Z', '2027-03-01T23:15:00.000Z', TZ, time)).toEqual({ kind: 'off', label: 'Outside working hours' });
    expect(hoursConflict('2027-03-01T17:45:00.000Z', '2027-03-01T18:15:00.000Z', TZ, time)).toEqual({ kind: 'blocked', label: 'Lunch' });
    // Ending exactly when lunch starts fits; Sunday is a day off.
    expect(hoursConflict('2027-03-01T17:30:00.000Z', '2027-03-01T18:00:00.000Z', TZ, time)).toBeNull();
    expect(hoursConflict('2027-02-28T15:00:00.000Z', '2027-02-28T15:30:00.000Z', TZ, time)).toEqual({ kind: 'off', label: 'Outside working hours' });
  });

  it('a day off is shaded whole and asks first, from its first to its last day in the practice zone', () => {
    const away = {
      ...time,
      daysOff: [
        { from: '2027-03-01', to: '2027-03-02', label: 'Conference' },
        { from: '2027-03-10', to: '2027-03-10', label: '' },
      ],
    };
    expect(shadedSpans('2027-03-01', away)).toEqual([{ start: 0, end: 1440, kind: 'blocked', label: 'Conference' }]);
    expect(shadedSpans('2027-03-02', away)).toEqual([{ start: 0, end: 1440, kind: 'blocked', label: 'Conference' }]);
    expect(shadedSpans('2027-03-03', away)).toHaveLength(1);
    expect(shadedSpans('2027-03-10', away)).toEqual([{ start: 0, end: 1440, kind: 'blocked', label: 'Day off' }]);
    // Within the hours on Monday 1 March, but that day is a day off.
    expect(hoursConflict('2027-03-01T15:00:00.000Z', '2027-03-01T15:30:00.000Z', TZ, away)).toEqual({ kind: 'blocked', label: 'Conference' });
    // 11:30 PM on Tuesday 9 March in Chicago is already the 10th in UTC: the zone decides, and it runs into the day off.
    expect(hoursConflict('2027-03-10T05:30:00.000Z', '2027-03-10T06:30:00.000Z', TZ, away)).toEqual({ kind: 'blocked', label: 'Day off' });
    expect(hoursConflict('2027-03-08T15:00:00.000Z', '2027-03-08T15:30:00.000Z', TZ, away)).toBeNull();
  });
});
