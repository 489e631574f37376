/**
 * Demo logins seeded on first local start. The one shared password is printed by `npm start`
 * and stated in the README; it exists only in the local user pool.
 */
export const DEMO_PASSWORD = 'Tidewell-Demo-1!';

export type PrescriberType = 'Provider' | 'PA' | 'PASupervised' | 'POBAllReview' | 'StaffUser';

export interface DemoUser {
  email: string;
  firstName: string;
  lastName: string;
  group: 'admin' | 'provider' | 'employee' | 'no_access' | 'super_user';
  /** false: a sign-in with no User item in the practice (the demo super user). */
  practiceRecord?: boolean;
  prescriberType?: PrescriberType;
  npiNumber?: string;
  educationDegree?: string;
}

export const DEMO_USERS: DemoUser[] = [
  { email: 'admin@demo.tidewell.local', firstName: 'Alicia', lastName: 'Moreno', group: 'admin', prescriberType: 'StaffUser' },
  {
    email: 'provider@demo.tidewell.local',
    firstName: 'Daniel',
    lastName: 'Okafor',
    group: 'provider',
    prescriberType: 'Provider',
    npiNumber: '1467582930',
    educationDegree: 'MD',
  },
  {
    email: 'pa@demo.tidewell.local',
    firstName: 'Priya',
    lastName: 'Raman',
    group: 'provider',
    prescriberType: 'PA',
    npiNumber: '1588693041',
    educationDegree: 'PA-C',
  },
  {
    email: 'pa-supervised@demo.tidewell.local',
    firstName: 'Marcus',
    lastName: 'Lindqvist',
    group: 'provider',
    prescriberType: 'PASupervised',
    npiNumber: '1699704152',
    educationDegree: 'PA-C',
  },
  { email: 'pob@demo.tidewell.local', firstName: 'Hannah', lastName: 'Cole', group: 'employee', prescriberType: 'POBAllReview' },
  { email: 'employee@demo.tidewell.local', firstName: 'Jordan', lastName: 'Ellis', group: 'employee', prescriberType: 'StaffUser' },
  { email: 'noaccess@demo.tidewell.local', firstName: 'Sam', lastName: 'Porter', group: 'no_access' },
  // Tidewell support staff: admin rights, no User item, so the app names them 'Super User'.
  { email: 'super@demo.tidewell.local', firstName: 'Riley', lastName: 'Quinn', group: 'super_user', practiceRecord: false },
];
