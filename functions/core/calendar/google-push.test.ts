import { describe, expect, it } from 'vitest';
import { NO_RECURRENCE, type Recurrence } from '../../../shared/calendar/recurrence.js';
import { exdate, googleEventBody, googleEventId, rrule } from './google-push.js';

const ZONE = 'America/Chicago';
const weekly = (over: Partial<Recurrence> = {}): Recurrence => ({ ...NO_RECURRENCE, frequency: 'Weekly', ...over });
// Wednesday 3 March 2027, 9:00 AM in Chicago (CST, UTC-6).
const START = '2027-03-03T15:00:00.000Z';

describe('Google event of an appointment', () => {
  it("names the event by the appointment id in base32hex, Google's alphabet for client-chosen ids, the same on every try", () => {
    const id = googleEventId('6f1c2a4e-9b7d-4c1e-8a2f-0d3b5e7f9a1c');
    expect(id).toMatch(/^[a-v0-9]{5,1024}$/);
    expect(id).toBe(googleEventId('6f1c2a4e-9b7d-4c1e-8a2f-0d3b5e7f9a1c'));
    expect(id).not.toBe(googleEventId('6f1c2a4e-9b7d-4c1e-8a2f-0d3b5e7f9a1d'));
    // RFC 4648 base32hex of "f" and "foobar", lowercased and unpadded.
    expect(googleEventId('f')).toBe('co');
    expect(googleEventId('foobar')).toBe('cpnmuoj1e8');
  });

  it('writes RFC 5545 rules for each recurrence the calendar books', () => {
    expect(rrule(START, NO_RECURRENCE, ZONE)).toBeNull();
    expect(rrule(START, weekly({ interval: 2, end: 'COUNT', count: 6 }), ZONE)).toBe('RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=WE;COUNT=6');
    expect(rrule(START, { ...weekly(), frequency: 'Daily' }, ZONE)).toBe('RRULE:FREQ=DAILY');
    expect(rrule(START, { ...weekly(), frequency: 'Monthly', monthlyMode: 'BYMONTHDAY' }, ZONE)).toBe('RRULE:FREQ=MONTHLY;BYMONTHDAY=3');
    expect(rrule(START, { ...weekly(), frequency: 'Monthly', monthlyMode: 'BYDAY', ordinal: -1 }, ZONE)).toBe('RRULE:FREQ=MONTHLY;BYDAY=-1WE');
    expect(rrule(START, { ...weekly(), frequency: 'Yearly' }, ZONE)).toBe('RRULE:FREQ=YEARLY');
    // The until day ends at midnight in Chicago, after DST began (CDT, UTC-5): 05:00 UTC the next day.
    expect(rrule(START, weekly({ end: 'ON', until: '2027-03-31' }), ZONE)).toBe('RRULE:FREQ=WEEKLY;BYDAY=WE;UNTIL=20270401T045959Z');
  });

  it("lists cancelled occurrences as EXDATE at the series' local start time in its zone, across a DST change", () => {
    expect(exdate(START, [], ZONE)).toBeNull();
    expect(exdate(START, ['2027-03-17', '2027-03-10'], ZONE)).toBe('EXDATE;TZID=America/Chicago:20270310T090000,20270317T090000');
  });

  it('says "Appointment" and the type, never notes; the patient only when names are on; the place or "Virtual visit"', () => {
    const a = {
      appointmentId: 'appt-1',
      start: START,
      durationMinutes: 30,
      recurrence: weekly({ end: 'COUNT', count: 4 }),
      excludedDays: ['2027-03-10'],
      visitType: 'in_person' as const,
    };
    const body = googleEventBody(a, { typeName: 'Follow-up', location: 'Main clinic, 1 Main St', patientName: null, timeZone: ZONE });
    expect(body).toMatchObject({
      summary: 'Appointment: Follow-up',
      location: 'Main clinic, 1 Main St',
      start: { dateTime: START, timeZone: ZONE },
      end: { dateTime: '2027-03-03T15:30:00.000Z', timeZone: ZONE },
      recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=WE;COUNT=4', 'EXDATE;TZID=America/Chicago:20270310T090000'],
    });
    expect(JSON.stringify(body)).not.toMatch(/notes/i);
    expect(
      googleEventBody({ ...a, visitType: 'virtual' }, { typeName: 'Follow-up', location: 'Main clinic', patientName: 'Ada Lovelace', timeZone: ZONE }),
    ).toMatchObject({
      summary: 'Appointment: Follow-up with Ada Lovelace',
      location: 'Virtual visit',
    });
    expect(googleEventBody({ ...a, recurrence: NO_RECURRENCE }, { typeName: null, location: null, patientName: null, timeZone: ZONE })).toMatchObject({
      summary: 'Appointment',
      recurrence: [],
    });
  });
});
