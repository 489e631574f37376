import { clean, fullUrlOf, identifierSystem, refTo, stableUuid, SYSTEMS, type FhirResource, type Reference } from './fhir-core.js';
import { CHART_MAPPERS } from './mappers.js';
import type { ChartMapper, ChartSource, MapContext } from './model.js';
import { patientResource } from './patient.js';

export interface FhirBundle {
  resourceType: 'Bundle';
  id: string;
  meta: { lastUpdated: string };
  type: 'collection';
  timestamp: string;
  entry: { fullUrl: string; resource: FhirResource }[];
}

type Person = { userId?: string; name?: string; npi?: string; email?: string; firstName?: string; lastName?: string };

const practitionerId = (practiceId: string, person: Person) =>
  stableUuid('Practitioner', practiceId, person.userId ? `user:${person.userId}` : person.npi ? `npi:${person.npi}` : `name:${person.name}`);

/** US Core Practitioner: an identifier (the NPI when Tidewell knows it), a name, and the user's email, by which another practice can tell who it is. */
function practitionerResource(practiceId: string, person: Person): FhirResource {
  return clean({
    resourceType: 'Practitioner',
    id: practitionerId(practiceId, person),
    identifier: [
      ...(person.npi ? [{ system: SYSTEMS.npi, value: person.npi }] : []),
      ...(person.userId ? [{ system: identifierSystem(practiceId, 'user'), value: person.userId }] : []),
      ...(!person.npi && !person.userId ? [{ system: identifierSystem(practiceId, 'person-name'), value: person.name }] : []),
    ],
    name: [{ text: person.name || 'Unknown', family: person.lastName, given: person.firstName ? [person.firstName] : undefined }],
    telecom: person.email ? [{ system: 'email', value: person.email }] : undefined,
  });
}

/** One patient's chart as a FHIR R4 collection Bundle whose references all resolve inside it. */
export function chartBundle(source: ChartSource, at = new Date(), mappers: readonly ChartMapper[] = CHART_MAPPERS): FhirBundle {
  const patient = patientResource(source.practiceId, source.patient);
  const practitioners = new Map<string, FhirResource>();
  const ctx: MapContext = {
    practiceId: source.practiceId,
    patientRef: refTo(patient),
    practitioner: (named): Reference | undefined => {
      if (!named || (!named.userId && !named.name && !named.npi)) return undefined;
      // A user of the practice is named, with their NPI and email, even where only their id was recorded (an appointment's provider).
      const user = named.userId ? source.directory?.users.get(named.userId) : undefined;
      const person: Person = user
        ? {
            ...named,
            name: named.name || user.name,
            npi: named.npi || user.npi || undefined,
            email: user.email || undefined,
            firstName: user.firstName || undefined,
            lastName: user.lastName || undefined,
          }
        : named;
      const id = practitionerId(source.practiceId, person);
      const known = practitioners.get(id);
      // A user first seen without the NPI a prescription names keeps one resource, now with the NPI.
      if (!known || (person.npi && !JSON.stringify(known.identifier).includes(SYSTEMS.npi))) {
        practitioners.set(
          id,
          practitionerResource(source.practiceId, { ...person, name: person.name || (known?.name as { text?: string }[] | undefined)?.[0]?.text }),
        );
      }
      return refTo({ id }, person.name || undefined);
    },
  };
  const resources = mappers.flatMap((m) => m.map(source, ctx));
  const all = [patient, ...practitioners.values(), ...resources];
  const timestamp = at.toISOString();
  return {
    resourceType: 'Bundle',
    id: stableUuid('Bundle', source.practiceId, source.patient.id, timestamp),
    meta: { lastUpdated: timestamp },
    type: 'collection',
    timestamp,
    entry: all.map((resource) => ({ fullUrl: fullUrlOf(resource), resource })),
  };
}
