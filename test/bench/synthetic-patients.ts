import type { Patient } from '../../shared/patients/patient-schema.js';

const FIRST = [
  'James',
  'Mary',
  'Robert',
  'Patricia',
  'John',
  'Jennifer',
  'Michael',
  'Linda',
  'David',
  'Elizabeth',
  'William',
  'Barbara',
  'Richard',
  'Susan',
  'Joseph',
  'Jessica',
  'Thomas',
  'Sarah',
  'Carlos',
  'Karen',
  'Wei',
  'Nancy',
  'Aisha',
  'Lisa',
  'Daniel',
  'Betty',
  'Matthew',
  'Sandra',
  'Anthony',
  'Ashley',
  'Mark',
  'Kimberly',
  'Jose',
  'Emily',
  'Priya',
  'Donna',
  'Kevin',
  'Michelle',
  'Brian',
  'Carol',
  'Omar',
  'Amanda',
  'Hiroshi',
  'Melissa',
  'Luis',
  'Deborah',
  'Ivan',
  'Stephanie',
  'Kwame',
  'Rebecca',
];
const LAST = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Hernandez',
  'Lopez',
  'Gonzalez',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
  'Moore',
  'Jackson',
  'Martin',
  'Lee',
  'Perez',
  'Thompson',
  'White',
  'Harris',
  'Sanchez',
  'Clark',
  'Ramirez',
  'Lewis',
  'Robinson',
  'Walker',
  'Young',
  'Allen',
  'King',
  'Wright',
  'Scott',
  'Torres',
  'Nguyen',
  'Hill',
  'Flores',
  'Green',
  'Adams',
  'Nelson',
  'Baker',
  'Hall',
  'Rivera',
  'Campbell',
  'Mitchell',
  'Carter',
  'Roberts',
  'Okafor',
  'Patel',
  'Kim',
  'Chen',
  'Singh',
  'Ivanova',
  'Kowalski',
  'Haddad',
  'Tanaka',
  'Mensah',
];
const AREAS = ['512', '617', '503', '206', '312', '305', '303', '415', '212', '404', '614', '612', '713', '602', '202'];

/** Small deterministic PRNG so every run loads the same patients. */
function mulberry32(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** n patients with ids bench-00001…, varied names, ages and phones. */
export function syntheticPatients(n: number, seed = 42): Patient[] {
  const rand = mulberry32(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)];
  const digits = (k: number) => Array.from({ length: k }, () => Math.floor(rand() * 10)).join('');
  const now = new Date().toISOString();
  return Array.from({ length: n }, (_, i) => {
    const year = 1930 + Math.floor(rand() * 94);
    const dob = `${year}-${String(1 + Math.floor(rand() * 12)).padStart(2, '0')}-${String(1 + Math.floor(rand() * 28)).padStart(2, '0')}`;
    const phones: NonNullable<Patient['phones']> = [{ type: 'mobile', number: `+1${pick(AREAS)}${2 + Math.floor(rand() * 8)}${digits(6)}` }];
    if (rand() < 0.3) phones.push({ type: 'home', number: `+1${pick(AREAS)}${2 + Math.floor(rand() * 8)}${digits(6)}` });
    const firstName = pick(FIRST);
    const lastName = pick(LAST);
    return {
      id: `bench-${String(i + 1).padStart(5, '0')}`,
      firstName,
      lastName,
      dob,
      gender: pick(['male', 'female', 'other'] as const),
      email: `${firstName}.${lastName}${i}@example.com`.toLowerCase(),
      phones,
      primaryPhoneNumber: phones[0].number,
      address: { line1: `${1 + Math.floor(rand() * 9000)} Main St`, city: 'Springfield', state: 'IL', zip: '62701' },
      healthInsurance: { payerName: pick(['Aetna', 'Cigna', 'UnitedHealthcare', 'Medicare', 'Blue Cross Blue Shield']), memberId: `M${digits(9)}` },
      membershipStatus: 'active',
      status: 'active',
      createdAt: now,
      updatedAt: now,
    };
  });
}
