import type { PatientInput } from '../../../shared/patients/patient-schema.js';
import { ConflictError } from '../../../functions/lib/errors.js';
import { archivePatient, createPatient } from '../../../functions/data/patients/patient-repository.js';

/*
 * About 40 demo patients. Names stay within the e-prescribing character set (ASCII letters,
 * digits, space, punctuation), so every demo patient can be e-prescribed for. Phone numbers use
 * the 555-01xx block reserved for fiction, in real area codes; the Garcia family shares one home
 * number. Emails use example.com.
 */
type Row = [
  first: string,
  last: string,
  dob: string,
  gender: 'male' | 'female' | 'other',
  street: string,
  city: string,
  state: string,
  zip: string,
  area: string,
  payer: string,
];

const ROWS: Row[] = [
  ['Maria', 'Lopez', '1984-03-02', 'female', '1200 Barton Springs Rd', 'Austin', 'TX', '78704', '512', 'Blue Cross Blue Shield'],
  ['James', 'Whitaker', '1951-07-19', 'male', '48 Beacon St', 'Boston', 'MA', '02108', '617', 'Medicare'],
  ['Aisha', 'Rahman', '1992-11-30', 'female', '2210 NW Glisan St', 'Portland', 'OR', '97210', '503', 'Aetna'],
  ['Daniel', 'Kim', '1978-01-14', 'male', '915 E Pine St', 'Seattle', 'WA', '98122', '206', 'UnitedHealthcare'],
  ['Olivia', 'Bennett', '2015-05-22', 'female', '1550 N Damen Ave', 'Chicago', 'IL', '60622', '312', 'Cigna'],
  ['Carlos', 'Garcia', '1980-09-08', 'male', '3401 SW 8th St', 'Miami', 'FL', '33135', '305', 'Aetna'],
  ['Lucia', 'Garcia', '1982-12-03', 'female', '3401 SW 8th St', 'Miami', 'FL', '33135', '305', 'Aetna'],
  ['Mateo', 'Garcia', '2012-04-17', 'male', '3401 SW 8th St', 'Miami', 'FL', '33135', '305', 'Aetna'],
  ['Sofia', 'Garcia', '2019-08-25', 'female', '3401 SW 8th St', 'Miami', 'FL', '33135', '305', 'Aetna'],
  ['Ethan', 'Brooks', '1967-02-11', 'male', '1700 Wynkoop St', 'Denver', 'CO', '80202', '303', 'UnitedHealthcare'],
  ['Grace', 'Nakamura', '1943-10-05', 'female', '2500 Clement St', 'San Francisco', 'CA', '94121', '415', 'Medicare'],
  ['Noah', 'Feldman', '1999-06-27', 'male', '245 W 107th St', 'New York', 'NY', '10025', '212', 'Cigna'],
  ['Imani', 'Johnson', '1988-04-09', 'female', '680 Ponce de Leon Ave NE', 'Atlanta', 'GA', '30308', '404', 'Blue Cross Blue Shield'],
  ['Liam', "O'Connor", '1973-12-21', 'male', '1021 Grandview Ave', 'Columbus', 'OH', '43212', '614', 'Aetna'],
  ['Emma', 'Lindqvist', '2008-03-15', 'female', '3030 Hennepin Ave', 'Minneapolis', 'MN', '55408', '612', 'Blue Cross Blue Shield'],
  ['Benjamin', 'Tran', '1995-08-01', 'male', '7400 Bellaire Blvd', 'Houston', 'TX', '77036', '713', 'UnitedHealthcare'],
  ['Harper', 'Singh', '2021-01-29', 'female', '3900 E Camelback Rd', 'Phoenix', 'AZ', '85018', '602', 'Cigna'],
  ['Samuel', 'Adeyemi', '1960-05-13', 'male', '1900 Benning Rd NE', 'Washington', 'DC', '20002', '202', 'Medicare'],
  ['Chloe', 'Dubois', '1986-09-18', 'female', '820 Royal St', 'New Orleans', 'LA', '70116', '504', 'Aetna'],
  ['Henry', 'Walker', '1938-11-02', 'male', '410 E Main St', 'Nashville', 'TN', '37206', '615', 'Medicare'],
  ['Ava', 'Martinez', '2003-07-07', 'female', '1450 Market St', 'San Diego', 'CA', '92101', '619', 'Blue Cross Blue Shield'],
  ['Jordan', 'Reyes', '1990-02-24', 'other', '2200 S Lamar Blvd', 'Austin', 'TX', '78704', '512', 'UnitedHealthcare'],
  ['Isabella', 'Rossi', '1976-06-30', 'female', '1320 Passyunk Ave', 'Philadelphia', 'PA', '19147', '215', 'Cigna'],
  ['Michael', 'Chen', '1958-03-26', 'male', '600 S King St', 'Seattle', 'WA', '98104', '206', 'Medicare'],
  ['Zoe', 'Patel', '2010-10-12', 'female', '5200 Main St', 'Kansas City', 'MO', '64112', '816', 'Aetna'],
  ['William', 'Hughes', '1948-08-16', 'male', '1801 N Lamar St', 'Dallas', 'TX', '75202', '214', 'Medicare'],
  ['Mia', 'Kowalski', '1997-12-09', 'female', '2740 W Chicago Ave', 'Chicago', 'IL', '60622', '312', 'Blue Cross Blue Shield'],
  ['Elijah', 'Washington', '1983-05-04', 'male', '1102 W Broad St', 'Richmond', 'VA', '23220', '804', 'UnitedHealthcare'],
  ['Amelia', 'Novak', '1969-01-20', 'female', '455 E 400 S', 'Salt Lake City', 'UT', '84111', '801', 'Cigna'],
  ['Lucas', 'Ferreira', '2017-09-03', 'male', '77 Federal St', 'Providence', 'RI', '02903', '401', 'Blue Cross Blue Shield'],
  ['Evelyn', 'Morgan', '1935-04-28', 'female', '310 W 5th St', 'Charlotte', 'NC', '28202', '704', 'Medicare'],
  ['Alexander', 'Petrov', '1981-11-11', 'male', '4200 Fifth Ave', 'Pittsburgh', 'PA', '15213', '412', 'Aetna'],
  ['Nora', 'Haddad', '1993-03-19', 'female', '22100 Michigan Ave', 'Dearborn', 'MI', '48124', '313', 'UnitedHealthcare'],
  ['Owen', 'MacLeod', '1971-07-25', 'male', '99 Congress St', 'Portland', 'ME', '04101', '207', 'Cigna'],
  ['Riley', 'Thompson', '2006-02-14', 'other', '1640 Wazee St', 'Denver', 'CO', '80202', '303', 'Blue Cross Blue Shield'],
  ['Hannah', 'Schmidt', '1964-10-31', 'female', '3100 N Downer Ave', 'Milwaukee', 'WI', '53211', '414', 'Medicare'],
  ['David', 'Goldberg', '1955-12-12', 'male', '7 Hillhouse Ave', 'New Haven', 'CT', '06511', '203', 'Aetna'],
  ['Layla', 'Ahmed', '1987-06-06', 'female', '2301 Central Ave NE', 'Albuquerque', 'NM', '87106', '505', 'UnitedHealthcare'],
  ['Jack', 'Sullivan', '1979-08-22', 'male', '5 Court Sq', 'Charlottesville', 'VA', '22902', '434', 'Cigna'],
  ['Penelope', 'Clarke', '1946-09-09', 'female', '140 Church St', 'Burlington', 'VT', '05401', '802', 'Medicare'],
];

/** These demo patients are archived, so the archived list (status=DELETED) is not empty. */
const ARCHIVED = new Set(['pat-0038', 'pat-0039', 'pat-0040']);
const FAMILY_HOME_PHONE = '+13055550142';
const CHOSEN: Record<string, { chosenFirstName?: string; chosenLastName?: string; middleName?: string }> = {
  'pat-0004': { chosenFirstName: 'Danny' },
  'pat-0012': { middleName: 'Aaron' },
  'pat-0022': { chosenFirstName: 'Jo', chosenLastName: 'Reyes' },
  'pat-0032': { chosenFirstName: 'Sasha', middleName: 'Ivan' },
  'pat-0035': { chosenFirstName: 'Ri' },
};
const PHARMACIES = ['CVS Pharmacy', 'Walgreens', 'Rite Aid', 'Costco Pharmacy', 'Kroger Pharmacy'];
const PAYER_PHONES: Record<string, string> = {
  Aetna: '+18008723862',
  'Blue Cross Blue Shield': '+18882320488',
  UnitedHealthcare: '+18776902677',
  Cigna: '+18002446224',
  Medicare: '+18006334227',
};

/** 555-0100 to 555-0199: the block reserved for fictional use. */
const fictional = (area: string, n: number) => `+1${area}55501${String(n % 100).padStart(2, '0')}`;

export const demoPatientId = (n: number) => `pat-${String(n).padStart(4, '0')}`;

function isChild(dob: string): boolean {
  return Number(dob.slice(0, 4)) > new Date().getFullYear() - 18;
}

export function demoPatientInputs(): { id: string; input: PatientInput }[] {
  return ROWS.map(([first, last, dob, gender, street, city, state, zip, area, payer], i) => {
    const n = i + 1;
    const id = demoPatientId(n);
    const mobile = fictional(area, n);
    const family = last === 'Garcia';
    const phones: PatientInput['phones'] = [];
    if (!isChild(dob)) phones.push({ type: 'mobile', number: mobile });
    if (family) phones.push({ type: 'home', number: FAMILY_HOME_PHONE });
    if (n % 5 === 0 && !family) phones.push({ type: 'work', number: fictional(area, 50 + n) });
    if (phones.length === 0) phones.push({ type: 'home', number: fictional(area, 60 + n) });
    const guardian = family ? 'Lucia Garcia' : `${n % 2 ? 'Pat' : 'Chris'} ${last}`;
    const input: PatientInput = {
      firstName: first,
      lastName: last,
      ...CHOSEN[id],
      dob,
      gender,
      email: `${first}.${last}`.toLowerCase().replace(/[^a-z.]/g, '') + '@example.com',
      phones,
      primaryPhoneNumber: phones[0].number,
      address: { line1: street, ...(n % 4 === 0 ? { line2: `Apt ${n}` } : {}), city, state, zip },
      healthInsurance: {
        payerName: payer,
        memberId: `${payer.replace(/[^A-Z]/g, '') || 'MBR'}${String(904_113 + n * 7_919).padStart(9, '0')}`,
        groupId: payer === 'Medicare' ? '' : `GRP-${1000 + (n % 7) * 37}`,
        payerPhoneNumber: PAYER_PHONES[payer],
      },
      emergencyContact: {
        name: family && first === 'Lucia' ? 'Carlos Garcia' : guardian,
        phoneNumber: family ? FAMILY_HOME_PHONE : fictional(area, 80 + (n % 20)),
      },
      preferredPharmacy: `${PHARMACIES[n % PHARMACIES.length]}, ${city} ${state}`,
      hipaaAuthorizationAccepted: n % 6 !== 0,
      // The demo clinicians (demo-users.ts) share the panel, so {{primary provider}} has a name.
      practitioner: { name: n % 3 === 0 ? 'Priya Raman' : 'Daniel Okafor' },
    };
    return { id, input };
  });
}

/**
 * Seeds the demo patients of a practice through the patient repository. Idempotent: fixed ids,
 * existing patients are left as they are (a restart never undoes an edit). Returns how many
 * patients this call created.
 */
export async function seedDemoPatients(practiceId: string): Promise<number> {
  let created = 0;
  for (const { id, input } of demoPatientInputs()) {
    try {
      await createPatient(practiceId, id, input);
    } catch (error) {
      if (error instanceof ConflictError) continue;
      throw error;
    }
    created++;
    if (ARCHIVED.has(id)) await archivePatient(practiceId, id);
  }
  return created;
}
