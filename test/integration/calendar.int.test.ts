import { beforeAll, describe, expect, it } from 'vitest';
import { api, createTestUser, patientAuditTrail, practiceAuditEntries, signIn } from '../support/local-stack.js';

const run = Date.now().toString(36);
let admin: string;
let employee: string;
let provider: string;
let providerId: string;
let otherProviderId: string;
let patientId: string;
let typeId: string;
let locationId: string;

const booking = (over: Record<string, unknown> = {}) => ({
  patientId,
  appointmentTypeId: typeId,
  providerId,
  bookingLocationId: locationId,
  visitType: 'in_person',
  durationMinutes: 30,
  ...over,
});

beforeAll(async () => {
  admin = await signIn('admin@demo.tidewell.local');
  employee = await signIn('employee@demo.tidewell.local');
  provider = await createTestUser({ email: `cal-provider-${run}@demo.test`, group: 'provider', firstName: 'Cal', lastName: `Provider${run}` });
  providerId = (await api(provider, 'GET', '/v1/practices/users/me')).body.userId;
  const other = await createTestUser({ email: `cal-other-${run}@demo.test`, group: 'provider', firstName: 'Other', lastName: `Doc${run}` });
  otherProviderId = (await api(other, 'GET', '/v1/practices/users/me')).body.userId;
  const p = await api(employee, 'POST', '/v1/patients', { firstName: 'Cora', lastName: `Calendar${run}`, gender: 'female', dob: '1980-02-03' });
  expect(p.status, JSON.stringify(p.body)).toBe(201);
  patientId = p.body.id;
  const tz = await api(admin, 'PUT', `/v1/practices/settings/calendar`, { timeZone: 'America/Chicago' });
  expect(tz.status).toBe(200);
  const type = await api(admin, 'POST', `/v1/appointment-types`, { name: `Follow-up ${run}`, durationMinutes: 30 });
  expect(type.status).toBe(201);
  typeId = type.body.ident;
  const location = await api(admin, 'POST', `/v1/booking-locations`, { name: `Main office ${run}`, address: '12 Oak St' });
  expect(location.status).toBe(201);
  locationId = location.body.ident;
});

describe('appointment types and booking locations', () => {
  it('admins create, change and delete them; everyone reads; status=active leaves out inactive ones', async () => {
    const refused = await api(employee, 'POST', `/v1/appointment-types`, { name: 'Nope' });
    expect(refused.status).toBe(403);
    const invalid = await api(admin, 'POST', `/v1/appointment-types`, { name: ' ', durationMinutes: 2 });
    expect(invalid.status).toBe(400);
    expect(invalid.body.fieldErrors).toMatchObject({ name: 'Name is required', durationMinutes: 'Length must be between 5 and 720 minutes' });

    const old = await api(admin, 'POST', `/v1/appointment-types`, { name: `Retired ${run}`, userLocations: [{ location_id: locationId }] });
    expect(old.body).toMatchObject({ status: 'active', durationMinutes: 30, color: '#005377', userLocations: [{ location_id: locationId }] });
    const changed = await api(admin, 'PUT', `/v1/appointment-types/${old.body.ident}`, { name: `Retired ${run}`, status: 'inactive' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ status: 'inactive', createdAt: old.body.createdAt });

    const all = (await api(employee, 'GET', `/v1/appointment-types`)).body.appointmentTypes.map((t: { ident: string }) => t.ident);
    expect(all).toEqual(expect.arrayContaining([typeId, old.body.ident]));
    const active = (await api(employee, 'GET', `/v1/appointment-types?status=active`)).body.appointmentTypes.map((t: { ident: string }) => t.ident);
    expect(active).toContain(typeId);
    expect(active).not.toContain(old.body.ident);
    expect((await api(employee, 'GET', `/v1/appointment-types/${typeId}`)).body.name).toBe(`Follow-up ${run}`);

    const inactiveBooking = await api(employee, 'POST', `/v1/appointments`, booking({ appointmentTypeId: old.body.ident, start: '2027-01-04T15:00:00.000Z' }));
    expect(inactiveBooking.status).toBe(400);
    expect(inactiveBooking.body.message).toBe('This appointment type is inactive');

    expect((await api(employee, 'DELETE', `/v1/appointment-types/${old.body.ident}`)).status).toBe(403);
    expect((await api(admin, 'DELETE', `/v1/appointment-types/${old.body.ident}`)).status).toBe(200);
    const gone = await api(admin, 'GET', `/v1/appointment-types/${old.body.ident}`);
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe('Appointment type not found');

    const loc = await api(admin, 'POST', `/v1/booking-locations`, { name: `Annex ${run}` });
    expect((await api(employee, 'PUT', `/v1/booking-locations/${loc.body.ident}`, { name: 'x' })).status).toBe(403);
    expect((await api(admin, 'PUT', `/v1/booking-locations/${loc.body.ident}`, { name: `Annex ${run}`, status: 'inactive' })).body.status).toBe('inactive');
    const activeLocations = (await api(employee, 'GET', `/v1/booking-locations?status=active`)).body.bookingLocations.map((l: { ident: string }) => l.ident);
    expect(activeLocations).toContain(locationId);
    expect(activeLocations).not.toContain(loc.body.ident);
    expect((await api(admin, 'DELETE', `/v1/booking-locations/${loc.body.ident}`)).status).toBe(200);
    expect((await api(admin, 'DELETE', `/v1/booking-locations/${loc.body.ident}`)).body.message).toBe('Booking location not found');
  });
});

describe('calendar settings', () => {
  it("one per user: defaults until saved, a user changes their own, an admin anyone's; the practice's zone is an admin's", async () => {
    const mine = await api(provider, 'GET', `/v1/calendar-settings/users/${providerId}`);
    expect(mine.body).toMatchObject({ userId: providerId, defaultView: 'week' });
    expect(mine.body.workingHours).toHaveLength(5);
    const saved = await api(provider, 'PUT', `/v1/calendar-settings/users/${providerId}`, {
      defaultView: 'day',
      workingHours: [{ weekday: 1, start: '09:00', end: '13:00' }],
    });
    expect(saved.status).toBe(200);
    expect((await api(employee, 'GET', `/v1/calendar-settings/users/${providerId}`)).body).toMatchObject({
      defaultView: 'day',
      workingHours: [{ weekday: 1, start: '09:00', end: '13:00' }],
    });
    const others = await api(employee, 'PUT', `/v1/calendar-settings/users/${providerId}`, { defaultView: 'month' });
    expect(others.status).toBe(403);
    expect(others.body.message).toBe("Only an admin changes another user's calendar settings");
    expect((await api(admin, 'PUT', `/v1/calendar-settings/users/${providerId}`, { defaultView: 'agenda' })).body.defaultView).toBe('agenda');
    const backwards = await api(provider, 'PUT', `/v1/calendar-settings/users/${providerId}`, { workingHours: [{ weekday: 2, start: '17:00', end: '09:00' }] });
    expect(backwards.status).toBe(400);
    const badView = await api(provider, 'PUT', `/v1/calendar-settings/users/${providerId}`, { defaultView: 'year' });
    expect(badView.status).toBe(400);
    // Blocked time is kept beside the working hours, and must end after it starts.
    const lunch = await api(provider, 'PUT', `/v1/calendar-settings/users/${providerId}`, {
      blockedTimes: [{ weekday: 3, start: '12:00', end: '13:00', label: 'Lunch' }],
    });
    expect(lunch.status).toBe(200);
    expect((await api(employee, 'GET', `/v1/calendar-settings/users/${providerId}`)).body.blockedTimes).toEqual([
      { weekday: 3, start: '12:00', end: '13:00', label: 'Lunch' },
    ]);
    const backwardsBlock = await api(provider, 'PUT', `/v1/calendar-settings/users/${providerId}`, {
      blockedTimes: [{ weekday: 3, start: '13:00', end: '12:00' }],
    });
    expect(backwardsBlock.status).toBe(400);
    expect(backwardsBlock.body.fieldErrors).toEqual({ 'blockedTimes.0.end': 'Blocked time must end after it starts' });
    // Days off are whole days, first to last inclusive; the last may not come before the first.
    const away = await api(provider, 'PUT', `/v1/calendar-settings/users/${providerId}`, {
      daysOff: [{ from: '2027-08-02', to: '2027-08-06', label: 'Vacation' }],
    });
    expect(away.status).toBe(200);
    expect((await api(employee, 'GET', `/v1/calendar-settings/users/${providerId}`)).body.daysOff).toEqual([
      { from: '2027-08-02', to: '2027-08-06', label: 'Vacation' },
    ]);
    const backwardsDays = await api(provider, 'PUT', `/v1/calendar-settings/users/${providerId}`, { daysOff: [{ from: '2027-08-06', to: '2027-08-02' }] });
    expect(backwardsDays.status).toBe(400);
    expect(backwardsDays.body.fieldErrors).toEqual({ 'daysOff.0.to': 'The last day off must not be before the first' });
    const notADay = await api(provider, 'PUT', `/v1/calendar-settings/users/${providerId}`, { daysOff: [{ from: '2027-8-6', to: '2027-08-06' }] });
    expect(notADay.status).toBe(400);

    expect((await api(employee, 'GET', `/v1/practices/settings/calendar`)).body.timeZone).toBe('America/Chicago');
    expect((await api(employee, 'PUT', `/v1/practices/settings/calendar`, { timeZone: 'America/New_York' })).status).toBe(403);
    const unknown = await api(admin, 'PUT', `/v1/practices/settings/calendar`, { timeZone: 'Mars/Olympus' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('Unknown time zone');
  });
});

describe('appointments', () => {
  it('books a weekly series that keeps its local time across the change from daylight time, and lists it by month', async () => {
    // Thursday 2026-10-22 9:00 in Chicago (CDT, UTC-5); daylight time ends Sunday 2026-11-01.
    const weekly = await api(
      employee,
      'POST',
      `/v1/appointments`,
      booking({ start: '2026-10-22T14:00:00.000Z', recurrence: { frequency: 'Weekly', end: 'COUNT', count: 8 }, notes: 'Bring logs' }),
    );
    expect(weekly.status, JSON.stringify(weekly.body)).toBe(201);
    expect(weekly.body).toMatchObject({ providerId, recurrence: { frequency: 'Weekly', end: 'COUNT', count: 8, interval: 1 }, createdBy: expect.any(String) });

    // November in Chicago: 2026-11-01T05:00Z to 2026-12-01T06:00Z.
    const november = await api(employee, 'GET', `/v1/appointments?start=2026-11-01T05:00:00.000Z&end=2026-12-01T06:00:00.000Z&providerId=${providerId}`);
    expect(november.status).toBe(200);
    expect(november.body.timeZone).toBe('America/Chicago');
    const mine = november.body.occurrences.filter((o: { appointmentId: string }) => o.appointmentId === weekly.body.appointmentId);
    expect(mine.map((o: { start: string }) => o.start)).toEqual([
      '2026-11-05T15:00:00.000Z',
      '2026-11-12T15:00:00.000Z',
      '2026-11-19T15:00:00.000Z',
      '2026-11-26T15:00:00.000Z',
    ]);
    expect(mine[0]).toMatchObject({
      occurrenceDay: '2026-11-05',
      end: '2026-11-05T15:30:00.000Z',
      patientName: `Cora Calendar${run}`,
      providerName: `Cal Provider${run}`,
      appointmentTypeName: `Follow-up ${run}`,
      bookingLocationName: `Main office ${run}`,
      visitType: 'in_person',
      recurring: true,
    });
    const october = await api(employee, 'GET', `/v1/appointments?start=2026-10-01T05:00:00.000Z&end=2026-11-01T05:00:00.000Z&providerId=${providerId}`);
    expect(october.body.occurrences.map((o: { start: string }) => o.start)).toEqual(['2026-10-22T14:00:00.000Z', '2026-10-29T14:00:00.000Z']);
    // Eight in all: none in January.
    const december = await api(employee, 'GET', `/v1/appointments?start=2026-12-01T06:00:00.000Z&end=2027-01-01T06:00:00.000Z&providerId=${providerId}`);
    expect(december.body.occurrences.map((o: { occurrenceDay: string }) => o.occurrenceDay)).toEqual(['2026-12-03', '2026-12-10']);

    const trail = await patientAuditTrail(patientId);
    expect(trail.some((e) => e.entity === 'APPOINTMENT' && e.action === 'create')).toBe(true);
    expect(trail.some((e) => e.entity === 'APPOINTMENT' && e.action === 'list')).toBe(true);
  });

  it('expands monthly series by weekday across a month and refuses double booking a provider in plain words', async () => {
    // First Monday of each month at 13:00 Chicago, from 2027-02-01, never ending.
    const monthly = await api(
      employee,
      'POST',
      `/v1/appointments`,
      booking({ start: '2027-02-01T19:00:00.000Z', durationMinutes: 60, recurrence: { frequency: 'Monthly', monthlyMode: 'BYDAY', ordinal: 1 } }),
    );
    expect(monthly.status, JSON.stringify(monthly.body)).toBe(201);
    const march = await api(provider, 'GET', `/v1/appointments?start=2027-03-01T06:00:00.000Z&end=2027-04-01T05:00:00.000Z&providerId=${providerId}`);
    // 2027-03-01 is a Monday; by then Chicago is still on standard time (change on 2027-03-14).
    expect(march.body.occurrences.map((o: { start: string }) => o.start)).toEqual(['2027-03-01T19:00:00.000Z']);
    const april = await api(provider, 'GET', `/v1/appointments?start=2027-04-01T05:00:00.000Z&end=2027-05-01T05:00:00.000Z&providerId=${providerId}`);
    expect(april.body.occurrences.map((o: { start: string }) => o.start)).toEqual(['2027-04-05T18:00:00.000Z']);

    // A one-off at 13:30 on the first Monday of May overlaps the series' 13:00-14:00.
    const clash = await api(employee, 'POST', `/v1/appointments`, booking({ start: '2027-05-03T18:30:00.000Z' }));
    expect(clash.status).toBe(409);
    expect(clash.body.message).toBe(`Cal Provider${run} is already booked on 05/03/2027 from 1:00 PM to 2:00 PM. Choose another time or provider.`);
    // A daily series that reaches the weekly series' first Thursday is refused too.
    const daily = await api(
      employee,
      'POST',
      `/v1/appointments`,
      booking({ start: '2026-10-20T14:15:00.000Z', recurrence: { frequency: 'Daily', end: 'ON', until: '2026-10-25' } }),
    );
    expect(daily.status).toBe(409);
    expect(daily.body.message).toBe(`Cal Provider${run} is already booked on 10/22/2026 from 9:00 AM to 9:30 AM. Choose another time or provider.`);
    // Right after, or with another provider, is fine.
    expect((await api(employee, 'POST', `/v1/appointments`, booking({ start: '2027-05-03T19:00:00.000Z' }))).status).toBe(201);
    expect((await api(employee, 'POST', `/v1/appointments`, booking({ start: '2027-05-03T18:30:00.000Z', providerId: otherProviderId }))).status).toBe(201);

    // Two bookings of one slot at once: exactly one lands.
    const both = await Promise.all([0, 1].map(() => api(employee, 'POST', `/v1/appointments`, booking({ start: '2027-06-15T15:00:00.000Z' }))));
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
  });

  it('moves, changes and cancels a series; a stale change is refused; the rules say what is wrong', async () => {
    const one = await api(provider, 'POST', `/v1/appointments`, booking({ start: '2027-08-02T15:00:00.000Z', visitType: 'virtual', bookingLocationId: null }));
    expect(one.status).toBe(201);
    const id = one.body.appointmentId;
    expect((await api(employee, 'GET', `/v1/appointments/${id}`)).body).toMatchObject({ visitType: 'virtual', bookingLocationId: null });
    const moved = await api(
      employee,
      'PUT',
      `/v1/appointments/${id}`,
      booking({ start: '2027-08-02T16:00:00.000Z', durationMinutes: 45, updatedAt: one.body.updatedAt }),
    );
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ start: '2027-08-02T16:00:00.000Z', durationMinutes: 45, createdAt: one.body.createdAt });
    const stale = await api(employee, 'PUT', `/v1/appointments/${id}`, booking({ start: '2027-08-02T17:00:00.000Z', updatedAt: one.body.updatedAt }));
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe('This appointment was changed by someone else. Reload it and try again.');
    // Moving onto itself is no double booking.
    expect((await api(employee, 'PUT', `/v1/appointments/${id}`, booking({ start: '2027-08-02T16:15:00.000Z', durationMinutes: 45 }))).status).toBe(200);

    const wrong = await api(employee, 'POST', `/v1/appointments`, { patientId: '', appointmentTypeId: typeId, providerId, start: 'soon', durationMinutes: 30 });
    expect(wrong.status).toBe(400);
    expect(wrong.body.fieldErrors).toMatchObject({ patientId: 'Please select a patient', start: 'Start is required' });
    const noLocation = await api(employee, 'POST', `/v1/appointments`, booking({ start: '2027-08-03T15:00:00.000Z', bookingLocationId: null }));
    expect(noLocation.status).toBe(400);
    expect(noLocation.body.message).toBe('An in-person visit needs a booking location');
    const unknown = await api(
      employee,
      'POST',
      `/v1/appointments`,
      booking({ start: '2027-08-03T15:00:00.000Z', patientId: 'pat-nope', providerId: 'nobody' }),
    );
    expect(unknown.body.fieldErrors).toMatchObject({ patientId: 'Patient not found', providerId: 'Provider not found' });
    const noUntil = await api(
      employee,
      'POST',
      `/v1/appointments`,
      booking({ start: '2027-08-03T15:00:00.000Z', recurrence: { frequency: 'Weekly', end: 'ON' } }),
    );
    expect(noUntil.body.fieldErrors).toMatchObject({ 'recurrence.until': 'End date is required' });
    // 2027-08-03T03:00Z is still August 2 in Chicago: an end on August 2 is that first day, not before it.
    const lateEvening = await api(
      employee,
      'POST',
      `/v1/appointments`,
      booking({ start: '2027-08-03T03:00:00.000Z', recurrence: { frequency: 'Daily', end: 'ON', until: '2027-08-01' } }),
    );
    expect(lateEvening.body.fieldErrors).toMatchObject({ 'recurrence.until': 'End date must not be before the first appointment' });
    const sameDay = await api(
      employee,
      'POST',
      `/v1/appointments`,
      booking({ start: '2027-08-03T03:00:00.000Z', recurrence: { frequency: 'Daily', end: 'ON', until: '2027-08-02' } }),
    );
    expect(sameDay.status).toBe(201);
    expect(sameDay.body.recurrence).toMatchObject({ end: 'ON', until: '2027-08-02' });
    const tooLong = await api(employee, 'GET', `/v1/appointments?start=2027-01-01T00:00:00.000Z&end=2027-06-01T00:00:00.000Z`);
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toBe('A calendar range spans at most 62 days');

    expect((await api(employee, 'DELETE', `/v1/appointments/${id}`)).status).toBe(200);
    expect((await api(employee, 'GET', `/v1/appointments/${id}`)).status).toBe(404);
    expect((await api(employee, 'DELETE', `/v1/appointments/${id}`)).body.message).toBe('Appointment not found');
  });

  it('changes, moves and cancels one occurrence of a series alone, under the double-booking rule, or the whole series', async () => {
    // Weekly on Tuesdays 10:00 Chicago from 2027-09-07, six times.
    const weekly = await api(
      employee,
      'POST',
      `/v1/appointments`,
      booking({ start: '2027-09-07T15:00:00.000Z', recurrence: { frequency: 'Weekly', end: 'COUNT', count: 6 } }),
    );
    expect(weekly.status, JSON.stringify(weekly.body)).toBe(201);
    const id = weekly.body.appointmentId;
    const september = `/v1/appointments?start=2027-09-01T05:00:00.000Z&end=2027-10-20T05:00:00.000Z&providerId=${providerId}`;
    const ids = [id];
    const mine = async () => (await api(employee, 'GET', september)).body.occurrences.filter((o: { appointmentId: string }) => ids.includes(o.appointmentId));

    // A one-off at 14:00 on 09/14 that the moved occurrence will run into.
    const blocker = await api(employee, 'POST', `/v1/appointments`, booking({ start: '2027-09-14T19:00:00.000Z' }));
    expect(blocker.status).toBe(201);
    ids.push(blocker.body.appointmentId);
    const onto = await api(employee, 'PUT', `/v1/appointments/${id}?occurrence=2027-09-14`, booking({ start: '2027-09-14T18:45:00.000Z' }));
    expect(onto.status).toBe(409);
    expect(onto.body.message).toBe(`Cal Provider${run} is already booked on 09/14/2027 from 2:00 PM to 2:30 PM. Choose another time or provider.`);
    // Moving the 09/14 one an hour later (its own day's slot is no clash with itself), and making it longer.
    const moved = await api(
      employee,
      'PUT',
      `/v1/appointments/${id}?occurrence=2027-09-14`,
      booking({ start: '2027-09-14T16:00:00.000Z', durationMinutes: 60 }),
    );
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({
      recurrence: { frequency: 'Never' },
      detachedFrom: { appointmentId: id, occurrenceDay: '2027-09-14' },
      durationMinutes: 60,
    });
    expect(moved.body.appointmentId).not.toBe(id);
    ids.push(moved.body.appointmentId);

    // Cancelling only 09/28.
    const cancelled = await api(employee, 'DELETE', `/v1/appointments/${id}?occurrence=2027-09-28`);
    expect(cancelled.status).toBe(200);
    const after = await mine();
    expect(after.map((o: { start: string; end: string }) => `${o.start}-${o.end}`)).toEqual([
      '2027-09-07T15:00:00.000Z-2027-09-07T15:30:00.000Z',
      '2027-09-14T16:00:00.000Z-2027-09-14T17:00:00.000Z',
      '2027-09-14T19:00:00.000Z-2027-09-14T19:30:00.000Z',
      '2027-09-21T15:00:00.000Z-2027-09-21T15:30:00.000Z',
      // Six in all, counting the two taken out: the series still ends on 10/12.
      '2027-10-05T15:00:00.000Z-2027-10-05T15:30:00.000Z',
      '2027-10-12T15:00:00.000Z-2027-10-12T15:30:00.000Z',
    ]);
    expect(after.find((o: { start: string }) => o.start === '2027-09-14T16:00:00.000Z')).toMatchObject({ recurring: false });
    // A day that is not one of the series', or one already taken out, is refused.
    const notOne = await api(employee, 'DELETE', `/v1/appointments/${id}?occurrence=2027-09-29`);
    expect(notOne.status).toBe(404);
    expect(notOne.body.message).toBe('The series has no appointment on that day');
    expect((await api(employee, 'DELETE', `/v1/appointments/${id}?occurrence=2027-09-28`)).status).toBe(404);
    expect((await api(employee, 'DELETE', `/v1/appointments/${id}?occurrence=Sept`)).status).toBe(400);
    // 09/28's slot is free again for another patient.
    expect((await api(employee, 'POST', `/v1/appointments`, booking({ start: '2027-09-28T15:00:00.000Z' }))).status).toBe(201);

    // The whole series moves to 11:00, keeping the occurrences taken out.
    const series = await api(employee, 'GET', `/v1/appointments/${id}`);
    expect(series.body.excludedDays).toEqual(['2027-09-14', '2027-09-28']);
    const later = await api(
      employee,
      'PUT',
      `/v1/appointments/${id}`,
      booking({ start: '2027-09-07T16:00:00.000Z', recurrence: { frequency: 'Weekly', end: 'COUNT', count: 6 }, updatedAt: series.body.updatedAt }),
    );
    expect(later.status, JSON.stringify(later.body)).toBe(200);
    const starts = (await mine()).filter((o: { appointmentId: string }) => o.appointmentId === id).map((o: { start: string }) => o.start);
    expect(starts).toEqual(['2027-09-07T16:00:00.000Z', '2027-09-21T16:00:00.000Z', '2027-10-05T16:00:00.000Z', '2027-10-12T16:00:00.000Z']);
    // A stale series read cannot take an occurrence out either.
    const stale = await api(
      employee,
      'PUT',
      `/v1/appointments/${id}?occurrence=2027-10-05`,
      booking({ start: '2027-10-05T17:00:00.000Z', updatedAt: series.body.updatedAt }),
    );
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe('This appointment was changed by someone else. Reload it and try again.');
    const trail = await patientAuditTrail(patientId);
    expect(trail.some((e) => e.entity === 'APPOINTMENT' && e.action === 'update' && e.entityId === id)).toBe(true);
  });

  it('moves and resizes a one-off appointment under the double-booking rule', async () => {
    const a = await api(employee, 'POST', `/v1/appointments`, booking({ start: '2027-11-02T15:00:00.000Z' }));
    const b = await api(employee, 'POST', `/v1/appointments`, booking({ start: '2027-11-02T16:00:00.000Z' }));
    expect([a.status, b.status]).toEqual([201, 201]);
    // Longer, into b: refused; up to b: fine.
    const resized = await api(employee, 'PUT', `/v1/appointments/${a.body.appointmentId}`, booking({ start: '2027-11-02T15:00:00.000Z', durationMinutes: 75 }));
    expect(resized.status).toBe(409);
    expect(resized.body.message).toBe(`Cal Provider${run} is already booked on 11/02/2027 from 11:00 AM to 11:30 AM. Choose another time or provider.`);
    expect(
      (await api(employee, 'PUT', `/v1/appointments/${a.body.appointmentId}`, booking({ start: '2027-11-02T15:00:00.000Z', durationMinutes: 60 }))).status,
    ).toBe(200);
    // An occurrence query on a one-off changes the appointment itself.
    const movedB = await api(employee, 'PUT', `/v1/appointments/${b.body.appointmentId}?occurrence=2027-11-02`, booking({ start: '2027-11-02T15:30:00.000Z' }));
    expect(movedB.status).toBe(409);
    const ok = await api(employee, 'PUT', `/v1/appointments/${b.body.appointmentId}?occurrence=2027-11-02`, booking({ start: '2027-11-02T17:00:00.000Z' }));
    expect(ok.status).toBe(200);
    expect(ok.body.appointmentId).toBe(b.body.appointmentId);
  });

  it("a provider's ICS feed: made and revoked by them, read with no user token, without patient names unless the practice turns them on", async () => {
    const feedProvider = await createTestUser({ email: `cal-feed-${run}@demo.test`, group: 'provider', firstName: 'Feed', lastName: `Doc${run}` });
    const feedProviderId = (await api(feedProvider, 'GET', '/v1/practices/users/me')).body.userId;
    const feedPath = `/v1/calendar-settings/users/${feedProviderId}/feed`;
    expect((await api(feedProvider, 'GET', feedPath)).body).toEqual({ active: false, createdAt: null });
    const others = await api(employee, 'POST', feedPath);
    expect(others.status).toBe(403);
    expect(others.body.message).toBe('Only the provider manages their own calendar feed');
    const made = await api(feedProvider, 'POST', feedPath);
    expect(made.status).toBe(201);
    expect(made.body.path).toMatch(/^\/v1\/calendar-feeds\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.ics$/);
    // The URL is shown once: reading the status again does not give it back.
    expect((await api(feedProvider, 'GET', feedPath)).body).toEqual({ active: true, createdAt: made.body.createdAt });

    // Two days from now at 15:00Z, 45 minutes.
    const day = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const booked = await api(
      employee,
      'POST',
      `/v1/appointments`,
      booking({ providerId: feedProviderId, start: `${day}T15:00:00.000Z`, durationMinutes: 45, notes: 'Private note' }),
    );
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);

    const feed = await api(null, 'GET', made.body.path);
    expect(feed.status).toBe(200);
    expect(feed.headers.get('content-type')).toMatch(/^text\/calendar/);
    const ics = String(feed.body);
    expect(ics.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n')).toBe(true);
    const stamp = day.replace(/-/g, '');
    expect(ics).toContain(`BEGIN:VEVENT\r\nUID:${booked.body.appointmentId}-${day}@tidewell`);
    expect(ics).toContain(`DTSTART:${stamp}T150000Z\r\nDTEND:${stamp}T154500Z\r\nSUMMARY:Follow-up ${run}\r\nLOCATION:Main office ${run}`);
    expect(ics).not.toContain('Cora');
    expect(ics).not.toContain('Private note');
    // Another provider's appointments are not in it.
    expect(ics.match(/BEGIN:VEVENT/g)).toHaveLength(1);

    // The practice turns names on: the summary names the patient, and the read is in the patient's access history.
    expect((await api(admin, 'PUT', `/v1/practices/settings/calendar`, { timeZone: 'America/Chicago', feedShowsNames: true })).body.feedShowsNames).toBe(true);
    try {
      expect(String((await api(null, 'GET', made.body.path)).body)).toContain(`SUMMARY:Cora Calendar${run} – Follow-up ${run}`);
      const trail = await patientAuditTrail(patientId);
      expect(trail.some((e) => e.entity === 'CALENDAR_FEED' && e.action === 'list')).toBe(true);
      // Turning names on is its own entry: who let patient names leave the practice, and when.
      const allowed = await practiceAuditEntries({
        FilterExpression: 'entity = :e AND entityId = :f',
        ExpressionAttributeValues: { ':e': 'PATIENT_NAMES_SHARED', ':f': 'CALENDAR_FEEDS' },
      });
      expect(allowed.some((e) => e.actorEmail === 'admin@demo.tidewell.local')).toBe(true);
      expect((await api(employee, 'GET', `/v1/practices/settings/calendar`)).body.googleShowsNames).toBe(false);
    } finally {
      await api(admin, 'PUT', `/v1/practices/settings/calendar`, { timeZone: 'America/Chicago', feedShowsNames: false });
    }
    // Changing only the zone keeps the choice.
    expect((await api(employee, 'GET', `/v1/practices/settings/calendar`)).body.feedShowsNames).toBe(false);

    // A wrong secret, or a made-up token, is refused the same way.
    const wrong = made.body.path.replace(
      /\.([A-Za-z0-9_-])([A-Za-z0-9_-]+)\.ics$/,
      (_: string, c: string, rest: string) => `.${c === 'A' ? 'B' : 'A'}${rest}.ics`,
    );
    expect(wrong).not.toBe(made.body.path);
    const refused = await api(null, 'GET', wrong);
    expect(refused.status).toBe(404);
    expect(refused.body.message).toBe('Calendar feed not found');
    expect((await api(null, 'GET', '/v1/calendar-feeds/nope')).status).toBeGreaterThanOrEqual(400);
    expect((await api(null, 'GET', '/v1/calendar-feeds/nope')).status).toBeLessThan(500);

    // A new link replaces the old one; a revoked link is refused.
    const again = await api(feedProvider, 'POST', feedPath);
    expect((await api(null, 'GET', made.body.path)).status).toBe(404);
    expect((await api(null, 'GET', again.body.path)).status).toBe(200);
    expect((await api(admin, 'GET', feedPath)).body.active).toBe(true);
    expect((await api(feedProvider, 'DELETE', feedPath)).body).toEqual({ active: false, createdAt: null });
    expect((await api(null, 'GET', again.body.path)).status).toBe(404);
    expect((await api(feedProvider, 'DELETE', feedPath)).status).toBe(404);
  });

  it('refuses no_access users, another practice and no token', async () => {
    const noAccess = await signIn('noaccess@demo.tidewell.local');
    const foreign = await createTestUser({ email: `cal-foreign-${run}@other.test`, group: 'admin', practiceId: 'prc_other_practice' });
    for (const token of [noAccess, foreign]) {
      expect((await api(token, 'GET', `/v1/appointment-types`)).status).toBe(403);
      expect((await api(token, 'GET', `/v1/appointments?start=2026-11-01T05:00:00.000Z&end=2026-12-01T06:00:00.000Z`)).status).toBe(403);
      expect((await api(token, 'POST', `/v1/appointments`, booking({ start: '2028-01-03T15:00:00.000Z' }))).status).toBe(403);
    }
    expect((await api(null, 'GET', `/v1/appointment-types`)).status).toBe(401);
  });
});
