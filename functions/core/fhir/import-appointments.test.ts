import { describe, expect, it } from 'vitest';
import type { Appointment } from '../../../shared/calendar/calendar-schema.js';
import type { PracticeUser } from '../../data/users/user-repository.js';
import { chartBundle } from './bundle.js';
import type { ChartSource } from './model.js';
import { importKey } from './import-chart.js';
import { planAppointment, type Directory } from './import-appointments.js';

const user = (userId: string, name: string, extra: Partial<PracticeUser> = {}): PracticeUser => ({
  userId,
  name,
  firstName: name.split(' ')[0]!,
  lastName: name.split(' ')[1] ?? '',
  emailAddress: `${userId}@here.example`,
  cellNumber: null,
  userStatus: 'active',
  educationDegree: null,
  npiNumber: null,
  permissionGroup: 'provider',
  createdAt: '',
  veradigmUserType: null,
  doseSpotUserId: null,
  ...extra,
});
const type = (ident: string, name: string, status: 'active' | 'inactive' = 'active') => ({
  ident,
  name,
  durationMinutes: 30,
  color: '#005377',
  userLocations: [],
  status,
  createdAt: '',
  updatedAt: '',
});
const here: Directory = {
  users: [
    user('by-name', 'Dr. Dana Reyes'),
    user('by-email', 'Someone Else', { emailAddress: 'DANA@example.com' }),
    user('by-npi', 'D. Reyes', { npiNumber: '1234567893' }),
    user('gone', 'Sam Ortiz', { userStatus: 'deleted' }),
    user('sam-here', 'Samuel Ortiz', { emailAddress: 'sam@example.com' }),
  ],
  types: [type('t-inactive', 'Follow-up visit', 'inactive'), type('t-first', 'Annual exam'), type('t-therapy', 'therapy session')],
  locations: [{ ident: 'l-main', name: 'Main Office', address: '', status: 'active', createdAt: '', updatedAt: '' }],
  timeZone: 'America/Chicago',
};

const recurrence = (r: Partial<Appointment['recurrence']> = {}) =>
  ({ frequency: 'Never', interval: 1, monthlyMode: 'BYMONTHDAY', ordinal: 1, end: 'NEVER', count: 1, until: null, ...r }) as Appointment['recurrence'];
const booked = (a: Partial<Appointment> & Pick<Appointment, 'appointmentId' | 'start'>): Appointment => ({
  patientId: 'p1',
  appointmentTypeId: 'follow-up',
  providerId: 'u-prov',
  bookingLocationId: 'loc-main',
  visitType: 'in_person',
  durationMinutes: 30,
  recurrence: recurrence(),
  notes: '',
  excludedDays: [],
  detachedFrom: null,
  arrivals: {},
  createdBy: 'u-prov',
  createdAt: '2025-02-01T10:00:00.000Z',
  updatedAt: '2025-02-01T10:00:00.000Z',
  ...a,
});

/** A chart of appointments only: a single visit, a series with one occurrence cancelled and one moved, and a series whose rule uses every part of the extension. */
function exported() {
  const source = {
    practiceId: 'there',
    patient: {
      id: 'p1',
      firstName: 'Ada',
      lastName: 'Lovelace',
      dob: '1980-04-05',
      gender: 'female',
      status: 'active',
      createdAt: '',
      updatedAt: '',
    } as unknown as ChartSource['patient'],
    allergies: [],
    diagnoses: [],
    medications: [],
    freeformMedications: [],
    vaccines: [],
    surgeries: [],
    familyHistory: [],
    socialHistory: [],
    general: [],
    notes: [],
    inventory: new Map(),
    filePaths: new Map(),
    appointments: [
      booked({ appointmentId: 'ap1', start: '2025-03-10T16:00:00.000Z', notes: 'Bring glucose log' }),
      booked({
        appointmentId: 'ap2',
        appointmentTypeId: 'therapy',
        providerId: 'u-other',
        bookingLocationId: null,
        visitType: 'virtual',
        start: '2025-03-11T15:00:00.000Z',
        durationMinutes: 45,
        recurrence: recurrence({ frequency: 'Weekly', interval: 2, end: 'COUNT', count: 4 }),
        excludedDays: ['2025-03-25', '2025-04-08'],
      }),
      booked({
        appointmentId: 'ap3',
        appointmentTypeId: 'therapy',
        providerId: 'u-other',
        bookingLocationId: null,
        visitType: 'virtual',
        start: '2025-04-08T19:00:00.000Z',
        durationMinutes: 45,
        detachedFrom: { appointmentId: 'ap2', occurrenceDay: '2025-04-08' },
      }),
    ],
    directory: {
      users: new Map([
        ['u-prov', { name: 'Dr. Dana Reyes', firstName: 'Dana', lastName: 'Reyes', npi: '1234567893', email: 'dana@example.com' }],
        ['u-other', { name: 'Sam Ortiz', firstName: 'Sam', lastName: 'Ortiz', npi: null, email: 'sam@example.com' }],
      ]),
      appointmentTypes: new Map([
        ['follow-up', 'Follow-up visit'],
        ['therapy', 'Therapy session'],
      ]),
      locations: new Map([
        ['loc-main', { ident: 'loc-main', name: 'Main office', address: '100 Congress Ave', status: 'active' as const, createdAt: '', updatedAt: '' }],
      ]),
      timeZone: 'America/Chicago',
    },
    calls: [],
    userNames: new Map(),
  } satisfies ChartSource;
  const monthly = {
    ...source.appointments[0]!,
    appointmentId: 'ap4',
    start: '2025-05-27T15:00:00.000Z',
    recurrence: { frequency: 'Monthly', interval: 3, monthlyMode: 'BYDAY', ordinal: -1, end: 'ON', count: 1, until: '2026-12-31' },
  } as Appointment;
  const bundle = chartBundle({ ...source, appointments: [...source.appointments, monthly] });
  const byRef = new Map(bundle.entry.map((e) => [e.fullUrl, e.resource as Record<string, any>])); // eslint-disable-line @typescript-eslint/no-explicit-any
  const appointment = (id: string) =>
    bundle.entry.map((e) => e.resource as Record<string, any>).find((r) => r.resourceType === 'Appointment' && r.identifier[0].value === id)!; // eslint-disable-line @typescript-eslint/no-explicit-any
  const plan = (r: Record<string, unknown>, dir: Directory = here) =>
    planAppointment(r, 'p-here', (ref) => (typeof ref === 'string' ? byRef.get(ref) : undefined), importKey, dir);
  return { bundle, appointment, plan, monthly };
}

describe('an exported appointment planned into another practice', () => {
  const { appointment, plan, monthly } = exported();

  it('finds the provider by NPI before email and email before name, and the location by name whatever its case', () => {
    const p = plan(appointment('ap1'));
    expect(p.reason).toBeUndefined();
    expect(p.planned!.input).toMatchObject({
      providerId: 'by-npi',
      bookingLocationId: 'l-main',
      visitType: 'in_person',
      patientId: 'p-here',
      start: '2025-03-10T16:00:00.000Z',
      durationMinutes: 30,
      notes: 'Bring glucose log',
    });
    const withoutNpi = { ...here, users: here.users.filter((u) => u.userId !== 'by-npi') };
    expect(plan(appointment('ap1'), withoutNpi).planned!.input!.providerId).toBe('by-email');
    expect(plan(appointment('ap1'), { ...withoutNpi, users: withoutNpi.users.filter((u) => u.userId !== 'by-email') }).planned!.input!.providerId).toBe(
      'by-name',
    );
  });

  it('a type the practice has only inactive, or not at all, is booked as its first active type and the summary says so', () => {
    const p = plan(appointment('ap1'));
    expect(p.planned!.input!.appointmentTypeId).toBe('t-first');
    expect(p.summary).toBe('Appointment: Follow-up visit on 2025-03-10 with Dr. Dana Reyes, booked as Annual exam');
    expect(plan(appointment('ap2')).planned!.input!.appointmentTypeId).toBe('t-therapy');
  });

  it('a series keeps its rule, every part of it', () => {
    expect(plan(appointment('ap2')).planned!.input!.recurrence).toEqual({
      frequency: 'Weekly',
      interval: 2,
      monthlyMode: 'BYMONTHDAY',
      ordinal: 1,
      end: 'COUNT',
      count: 4,
      until: null,
    });
    expect(plan(appointment('ap4')).planned!.input!.recurrence).toEqual(monthly.recurrence);
  });

  it('occurrences changed or cancelled alone name their series and day', () => {
    const seriesKey = importKey(appointment('ap2'));
    expect(plan(appointment('ap3')).planned!.occurrence).toEqual({ seriesKey, day: '2025-04-08', cancelled: false });
    const { bundle } = exported();
    const cancelled = bundle.entry.map((e) => e.resource).find((r) => r.resourceType === 'Appointment' && r.status === 'cancelled')!;
    const p = plan(cancelled);
    expect(p.summary).toBe('Cancelled appointment: Therapy session on 2025-03-25 with Sam Ortiz');
    expect(p.planned).toMatchObject({ providerName: 'Samuel Ortiz', occurrence: { seriesKey, day: '2025-03-25', cancelled: true } });
    // The Sam Ortiz of this practice by name is deleted: not bookable.
    expect(plan(cancelled, { ...here, users: here.users.filter((u) => u.userId !== 'sam-here') }).reason).toBe(
      'No user of this practice matches the provider Sam Ortiz',
    );
  });

  it("names an occurrence's day in the importing practice's zone, from the instant it had in the series", () => {
    const seriesKey = importKey(appointment('ap2'));
    const extension = (appointment('ap3').extension as { url: string; extension?: { url: string; valueDateTime?: string }[] }[]).find((e) =>
      e.extension?.some((x) => x.url === 'originalStart'),
    )!;
    expect(extension.extension!.find((x) => x.url === 'originalStart')!.valueDateTime).toBe('2025-04-08T15:00:00.000Z');
    // 10:00 in Chicago is midnight past in Tokyo: the same occurrence is the next day there.
    const tokyo = { ...here, timeZone: 'Asia/Tokyo' };
    expect(plan(appointment('ap3'), tokyo).planned!.occurrence).toEqual({ seriesKey, day: '2025-04-09', cancelled: false });
    const { bundle } = exported();
    const cancelled = bundle.entry.map((e) => e.resource).find((r) => r.resourceType === 'Appointment' && r.status === 'cancelled')!;
    expect(plan(cancelled, tokyo).planned!.occurrence).toMatchObject({ day: '2025-03-26', cancelled: true });
  });

  it('leaves out what the calendar cannot hold, saying why', () => {
    expect(plan(appointment('ap1'), { ...here, locations: [] }).reason).toBe('No booking location of this practice is named Main office');
    expect(plan(appointment('ap1'), { ...here, types: [] }).reason).toBe('This practice has no active appointment type');
    expect(
      plan({
        ...appointment('ap1'),
        participant: appointment('ap1').participant.filter((p: { actor: { display?: string } }) => p.actor.display !== 'Main office'),
      }).reason,
    ).toBe('An in-person visit needs a booking location');
    expect(plan({ ...appointment('ap1'), status: 'noshow' }).reason).toBe('The patient did not come (no-show), which the calendar does not record');
    expect(plan({ ...appointment('ap1'), status: 'cancelled' }).reason).toBe('The appointment was cancelled');
    expect(plan({ ...appointment('ap1'), minutesDuration: 1000 }).reason).toBe('Length must be between 5 and 720 minutes');
    expect(plan({ ...appointment('ap1'), participant: appointment('ap1').participant.slice(0, 1) }).reason).toBe('It names no provider');
  });
});
