import { describe, expect, it } from 'vitest';
import type { AppointmentOccurrence } from '../../../../../shared/calendar/calendar-responses.js';
import { shiftWallClock } from '../calendar-dates.js';
import { movedInput } from './appointment-changes.js';

const TZ = 'America/Chicago';

describe('moving an appointment', () => {
  it('moves by wall-clock days and quarter hours across a daylight-saving change', () => {
    // Saturday 2027-03-13 9:00 CST (15:00Z); Sunday is daylight time, so 9:00 there is 14:00Z.
    expect(shiftWallClock('2027-03-13T15:00:00.000Z', TZ, 1, 0)).toBe('2027-03-14T14:00:00.000Z');
    expect(shiftWallClock('2027-03-13T15:00:00.000Z', TZ, 0, -15)).toBe('2027-03-13T14:45:00.000Z');
    // Past midnight rolls into the next day.
    expect(shiftWallClock('2027-03-10T05:30:00.000Z', TZ, 0, 60)).toBe('2027-03-10T06:30:00.000Z');
  });

  it('moves one occurrence to its new time, or the whole series by as much', () => {
    const series = {
      appointmentId: 'a1',
      patientId: 'p1',
      appointmentTypeId: 't1',
      providerId: 'u1',
      bookingLocationId: 'l1',
      visitType: 'in_person' as const,
      start: '2027-06-01T14:00:00.000Z',
      durationMinutes: 30,
      recurrence: {
        frequency: 'Weekly' as const,
        interval: 1,
        monthlyMode: 'BYMONTHDAY' as const,
        ordinal: 1 as const,
        end: 'COUNT' as const,
        count: 4,
        until: null,
      },
      notes: 'n',
      excludedDays: [],
      detachedFrom: null,
      createdBy: 'u1',
      createdAt: 'c',
      updatedAt: 'v1',
    };
    const o = {
      appointmentId: 'a1',
      occurrenceDay: '2027-06-15',
      start: '2027-06-15T14:00:00.000Z',
      end: '2027-06-15T14:30:00.000Z',
      recurring: true,
      series,
    } as unknown as AppointmentOccurrence;
    const one = movedInput(o, '2027-06-15T15:00:00.000Z', '2027-06-15T16:00:00.000Z', 'one');
    expect(one).toMatchObject({ start: '2027-06-15T15:00:00.000Z', durationMinutes: 60, recurrence: { frequency: 'Never' }, updatedAt: 'v1' });
    const all = movedInput(o, '2027-06-15T15:00:00.000Z', '2027-06-15T16:00:00.000Z', 'series');
    expect(all).toMatchObject({ start: '2027-06-01T15:00:00.000Z', durationMinutes: 60, recurrence: series.recurrence });
  });
});
