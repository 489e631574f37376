import { ageOn, isoToUsDate } from '../rules/dates.js';
import type { Patient } from './patient-schema.js';

type Named = Pick<Patient, 'firstName' | 'lastName'> & Partial<Pick<Patient, 'chosenFirstName' | 'chosenLastName' | 'dob'>>;

const join = (...parts: (string | undefined)[]) =>
  parts
    .map((p) => p?.trim())
    .filter((p): p is string => !!p)
    .join(' ');

export function fullName(p: Named): string {
  return join(p.firstName, p.lastName);
}

export function age(p: Pick<Patient, 'dob'>, on: Date = new Date()): number | null {
  return p.dob ? ageOn(p.dob, on) : null;
}

/** "Maria Lopez (42)"; just the name when the date of birth is unknown. */
export function fullNameWithAge(p: Named, on: Date = new Date()): string {
  const years = age(p, on);
  return years === null ? fullName(p) : `${fullName(p)} (${years})`;
}

/** The chosen names joined; the first name when none was chosen (spec shell §9 placeholders). */
export function preferredName(p: Named): string {
  return join(p.chosenFirstName, p.chosenLastName) || p.firstName;
}

/** MM/DD/YYYY, or '' when unknown. */
export function dobString(p: Pick<Patient, 'dob'>): string {
  return p.dob ? isoToUsDate(p.dob) : '';
}

/** The primary number, else the mobile phone (spec chart-data §3), else the first phone. */
export function primaryPhone(p: Pick<Patient, 'primaryPhoneNumber' | 'phones'>): string | undefined {
  if (p.primaryPhoneNumber) return p.primaryPhoneNumber;
  return p.phones?.find((ph) => ph.type === 'mobile')?.number ?? p.phones?.[0]?.number;
}

/** membershipStatus archived shows as hidden, anything else as active (spec chart-data §3). */
export function membershipDisplayStatus(p: Pick<Patient, 'membershipStatus'>): 'hidden' | 'active' {
  return p.membershipStatus === 'archived' ? 'hidden' : 'active';
}
