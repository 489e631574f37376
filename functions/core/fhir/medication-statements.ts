import type { Medication } from '../../../shared/chart/sections.js';
import { clean, fhirDate, fhirInstant, outsideCodings, sourceIdentifier, stableUuid, SYSTEMS } from './fhir-core.js';
import type { ChartMapper } from './model.js';

/**
 * A medication's name with its strength and form, each added only when the name does not already say
 * it (a prescribed drug's name is "Amoxicillin 500 mg capsule", its strength 500 mg and form capsule).
 */
export function medicationName(m: Pick<Medication, 'productName' | 'strength' | 'strengthUOM' | 'dosageForm'>): string {
  const said = (part: string) => m.productName.toLowerCase().replace(/\s+/g, ' ').includes(part.toLowerCase().replace(/\s+/g, ' '));
  const strength = m.strength ? `${m.strength}${m.strengthUOM ? ` ${m.strengthUOM}` : ''}` : '';
  return [m.productName, strength && !said(strength) ? strength : '', m.dosageForm && !said(m.dosageForm) ? m.dosageForm : ''].filter(Boolean).join(' ');
}

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
          coding: [...(m.code?.value ? [{ system: SYSTEMS.ndc, code: m.code.value }] : []), ...outsideCodings(m.codings, [SYSTEMS.ndc])],
          text: medicationName(m),
        },
        subject: ctx.patientRef,
        effectivePeriod: m.start || m.end ? { start: fhirDate(m.start), end: fhirDate(m.end) } : undefined,
        dateAsserted: fhirInstant(m.createdAt),
        reasonCode: m.icD9Code ? [{ text: m.icD9Code }] : [],
        note: m.description ? [{ text: m.description }] : [],
        dosage:
          m.sigText || m.routeOfAdministration ? [{ text: m.sigText, route: m.routeOfAdministration ? { text: m.routeOfAdministration } : undefined }] : [],
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
