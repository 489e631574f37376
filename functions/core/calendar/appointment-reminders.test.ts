import { describe, expect, it } from 'vitest';
import type { Appointment } from '../../../shared/calendar/calendar-schema.js';
import { NO_RECURRENCE } from '../../../shared/calendar/recurrence.js';
import { nextReminder, reminderText, reminderWhen } from './appointment-reminders.js';

const series = (start: string, recurrence: Partial<Appointment['recurrence']> = {}, excludedDays: string[] = []): Appointment => ({
  appointmentId: 'a1',
  patientId: 'p1',
  appointmentTypeId: 't1',
  providerId: 'u1',
  bookingLocationId: 'l1',
  visitType: 'in_person',
  start,
  durationMinutes: 30,
  recurrence: { ...NO_RECURRENCE, ...recurrence },
  notes: '',
  excludedDays,
  detachedFrom: null,
  arrivals: {},
  createdBy: 'u1',
  createdAt: start,
  updatedAt: start,
});

describe('appointment reminders', () => {
  it('says the start in the practice zone with the zone, across a daylight-saving change', () => {
    expect(reminderWhen('2027-03-03T15:00:00.000Z', 'America/Chicago')).toBe('Wed 03/03/2027 at 9:00 AM CST');
    expect(reminderWhen('2027-03-16T15:30:00.000Z', 'America/Chicago')).toBe('Tue 03/16/2027 at 10:30 AM CDT');
    expect(reminderText('Demo Clinic', 'Wed 03/03/2027 at 9:00 AM CST', 'at Main, 1 Oak St')).toBe(
      'Reminder: you have an appointment with Demo Clinic on Wed 03/03/2027 at 9:00 AM CST, at Main, 1 Oak St. Reply STOP to opt out of texts.',
    );
  });

  it('picks the first occurrence whose reminder time is still ahead, skipping cancelled days', () => {
    const weekly = series('2027-04-05T14:00:00.000Z', { frequency: 'Weekly', end: 'NEVER' }, ['2027-04-12']);
    const now = new Date('2027-04-04T15:00:00.000Z'); // past the first Monday's 24-hour mark
    expect(nextReminder(weekly, 'America/Chicago', 24, now)).toEqual({
      occurrence: expect.objectContaining({ day: '2027-04-19', start: '2027-04-19T14:00:00.000Z' }),
      at: new Date('2027-04-18T14:00:00.000Z'),
    });
    expect(nextReminder(series('2027-04-05T14:00:00.000Z'), 'America/Chicago', 24, now)).toBeNull();
  });
});
