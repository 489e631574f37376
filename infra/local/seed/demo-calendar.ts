import type { AppointmentType, BookingLocation } from '../../../shared/calendar/calendar-schema.js';
import { putIfAbsent } from './seed-practice.js';

/** The demo practice's appointment types and booking locations, fixed ids so seeding twice changes nothing. */
const TYPES: Pick<AppointmentType, 'ident' | 'name' | 'durationMinutes' | 'color'>[] = [
  { ident: 'apt-demo-follow-up', name: 'Follow-up visit', durationMinutes: 30, color: '#005377' },
  { ident: 'apt-demo-new-patient', name: 'New patient visit', durationMinutes: 60, color: '#1d7a4f' },
  { ident: 'apt-demo-telehealth', name: 'Telehealth check-in', durationMinutes: 15, color: '#8a5a00' },
];
const LOCATIONS: Pick<BookingLocation, 'ident' | 'name' | 'address'>[] = [
  { ident: 'loc-demo-main', name: 'Main office', address: '100 Congress Ave, Austin, TX 78701' },
  { ident: 'loc-demo-north', name: 'North clinic', address: '9500 Research Blvd, Austin, TX 78759' },
];

export async function seedDemoCalendar(practiceId: string, now = new Date().toISOString()): Promise<void> {
  for (const t of TYPES) {
    const type: AppointmentType = { ...t, userLocations: [], status: 'active', createdAt: now, updatedAt: now };
    await putIfAbsent({ ...type, practiceId, sk: `APPT_TYPE#${t.ident}`, entityType: 'APPT_TYPE' });
  }
  for (const l of LOCATIONS) {
    const location: BookingLocation = { ...l, status: 'active', createdAt: now, updatedAt: now };
    await putIfAbsent({ ...location, practiceId, sk: `BOOKING_LOCATION#${l.ident}`, entityType: 'BOOKING_LOCATION' });
  }
}
