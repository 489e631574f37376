import type { Patient } from '../../../shared/patients/patient-schema.js';
import { demographicsExtensions, demographicsIdentifiers } from './demographics.js';
import { clean, fhirDate, identifierSystem, stableUuid, type FhirResource } from './fhir-core.js';

const GENDERS: Record<string, string> = {
  male: 'male',
  female: 'female',
  other: 'other',
  unknown: 'unknown',
  M: 'male',
  F: 'female',
  O: 'other',
  U: 'unknown',
};

export const patientResourceId = (practiceId: string, patientId: string) => stableUuid('Patient', practiceId, patientId);

/** US Core Patient: identifier, name and gender are required; race, ethnicity and birth sex when the chart knows them. */
export function patientResource(practiceId: string, p: Patient): FhirResource {
  const phones = [
    ...(p.primaryPhoneNumber ? [{ system: 'phone', value: p.primaryPhoneNumber, rank: 1 }] : []),
    ...(p.phones ?? [])
      .filter((ph) => ph.number !== p.primaryPhoneNumber)
      .map((ph) => ({ system: 'phone', value: ph.number, use: ph.type === 'mobile' ? 'mobile' : ph.type === 'work' ? 'work' : 'home' })),
  ];
  const chosen = p.chosenFirstName || p.chosenLastName;
  return clean({
    resourceType: 'Patient',
    id: patientResourceId(practiceId, p.id),
    extension: demographicsExtensions(p.demographics),
    identifier: [{ use: 'usual', system: identifierSystem(practiceId, 'patient'), value: p.id }, ...demographicsIdentifiers(p.demographics)],
    active: p.status !== 'DELETED',
    name: [
      { use: 'official', family: p.lastName, given: [p.firstName, p.middleName].filter(Boolean) },
      ...(chosen ? [{ use: 'usual', family: p.chosenLastName || p.lastName, given: [p.chosenFirstName || p.firstName] }] : []),
    ],
    telecom: [...phones, ...(p.email ? [{ system: 'email', value: p.email }] : [])],
    gender: GENDERS[p.gender ?? ''] ?? 'unknown',
    birthDate: fhirDate(p.dob),
    address: p.address
      ? [{ use: 'home', line: [p.address.line1, p.address.line2].filter(Boolean), city: p.address.city, state: p.address.state, postalCode: p.address.zip }]
      : [],
    contact:
      p.emergencyContact?.name || p.emergencyContact?.phoneNumber
        ? [
            {
              relationship: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0131', code: 'C', display: 'Emergency Contact' }] }],
              name: p.emergencyContact.name ? { text: p.emergencyContact.name } : undefined,
              telecom: p.emergencyContact.phoneNumber ? [{ system: 'phone', value: p.emergencyContact.phoneNumber }] : [],
            },
          ]
        : [],
    generalPractitioner: undefined,
  });
}
