import { clean, fhirDate, fhirInstant, sourceIdentifier, stableUuid, SYSTEMS } from './fhir-core.js';
import type { ChartMapper } from './model.js';

/** A chart medication as the patient takes it: NDC when it has one, RxNorm when a prescription named it. */
export const medicationStatements: ChartMapper = {
  kind: 'medication',
  map: (src, ctx) => [
    ...src.medications.map((m) =>
      clean({
        resourceType: 'MedicationStatement',
        id: stableUuid('MedicationStatement', src.practiceId, m.ident),
        identifier: [sourceIdentifier(src.practiceId, 'medication', m.ident)],
        status: m.status === 'Complete' ? 'completed' : 'active',
        medicationCodeableConcept: {
          coding: [
            ...(m.code?.value ? [{ system: SYSTEMS.ndc, code: m.code.value }] : []),
          ],
          text: [m.productName, m.strength && `${m.strength}${m.strengthUOM ? ` ${m.strengthUOM}` : ''}`, m.dosageForm].filter(Boolean).join(' '),
        },
        subject: ctx.patientRef,
        effectivePeriod: m.start || m.end ? { start: fhirDate(m.start), end: fhirDate(m.end) } : undefined,
        dateAsserted: fhirInstant(m.createdAt),
        reasonCode: m.icD9Code ? [{ text: m.icD9Code }] : [],
        note: m.description ? [{ text: m.description }] : [],
        dosage: m.sigText || m.routeOfAdministration ? [{ text: m.sigText, route: m.routeOfAdministration ? { text: m.routeOfAdministration } : undefined }] : [],
      }),
    ),
    ...src.freeformMedications.map((m) =>
      clean({
        resourceType: 'MedicationStatement',
        id: stableUuid('MedicationStatement', src.practiceId, 'freeform', m.ident),
        identifier: [sourceIdentifier(src.practiceId, 'freeform-medication', m.ident)],
        status: 'active',
        medicationCodeableConcept: { text: m.name },
        subject: ctx.patientRef,
        dateAsserted: fhirInstant(m.createdAt),
      }),
    ),
  ],
};
