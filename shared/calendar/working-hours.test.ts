import { describe, expect, it } from 'vitest';
import { hoursConflict, shadedSpans } from './working-hours.js';

const TZ = 'America/Chicago';
const hours = [{ weekday: 1, start: '08:00', end: '17:00' }];
const blocked = [{ weekday: 1, start: '12:00', end: '13:00', label: 'Lunch' }];

describe('working hours', () => {
  it('shades before and after the hours, the whole of a day off, and blocked time with its label', () => {
    expect(shadedSpans(1, hours, blocked)).toEqual([
      { start: 0, end: 480, kind: 'off', label: 'Outside working hours' },
      { start: 1020, end: 1440, kind: 'off', label: 'Outside working hours' },
      { start: 720, end: 780, kind: 'blocked', label: 'Lunch' },
    ]);
    expect(shadedSpans(0, hours, blocked)).toEqual([{ start: 0, end: 1440, kind: 'off', label: 'Outside working hours' }]);
  });

  it("says why a time is outside the provider's time, in the practice's zone", () => {
    // Monday 2027-03-01: 9:00 Chicago is 15:00Z.
    expect(hoursConflict('2027-03-01T15:00:00.000Z', '2027-03-01T15:30:00.000Z', TZ, hours, blocked)).toBeNull();
    expect(hoursConflict('2027-03-01T22:45:00.000Z', '2027-03-01T23:15:00.000Z', TZ, hours, blocked)).toEqual({ kind: 'off', label: 'Outside working hours' });
    expect(hoursConflict('2027-03-01T17:45:00.000Z', '2027-03-01T18:15:00.000Z', TZ, hours, blocked)).toEqual({ kind: 'blocked', label: 'Lunch' });
    // Ending exactly when lunch starts fits; Sunday is a day off.
    expect(hoursConflict('2027-03-01T17:30:00.000Z', '2027-03-01T18:00:00.000Z', TZ, hours, blocked)).toBeNull();
    expect(hoursConflict('2027-02-28T15:00:00.000Z', '2027-02-28T15:30:00.000Z', TZ, hours, blocked)).toEqual({ kind: 'off', label: 'Outside working hours' });
  });
});
