import type { Note } from '../../../shared/notes/note-schema.js';
import { clean, fhirDate, fhirInstant, sourceIdentifier, stableUuid, SYSTEMS, type CodeableConcept, type FhirResource } from './fhir-core.js';
import type { ChartMapper, MapContext } from './model.js';

type Data = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function medication(d: Data): CodeableConcept {
  return {
    coding: [
      ...(str(d.rxNorm) ? [{ system: SYSTEMS.rxnorm, code: str(d.rxNorm) }] : []),
      ...(str(d.ndcNumber) ? [{ system: SYSTEMS.ndc, code: str(d.ndcNumber) }] : []),
    ],
    text: [str(d.medicationName), str(d.medicationName) ? undefined : str(d.strength)].filter(Boolean).join(' '),
  };
}

const REQUEST_STATUS: Partial<Record<Note['status'], string>> = {
  DRAFT: 'draft',
  WRITTEN: 'draft',
  SIGNED: 'active',
  ADDENDED: 'active',
  SENT: 'active',
  DELIVERED: 'active',
  FULFILLED: 'completed',
  FAILED: 'entered-in-error',
};

function request(practiceId: string, ctx: MapContext, note: Note, d: Data): FhirResource {
  const fulfilled = Boolean(fhirDate(d.dateFulfilled));
  const days = num(d.daysOfTreatment) ?? num(d.daysSupply);
  return clean({
    resourceType: 'MedicationRequest',
    id: stableUuid('MedicationRequest', practiceId, note.noteId),
    identifier: [sourceIdentifier(practiceId, 'prescription', note.noteId)],
    status: fulfilled ? 'completed' : (REQUEST_STATUS[note.status] ?? 'unknown'),
    intent: 'order',
    category: [{ coding: [{ system: SYSTEMS.medicationRequestCategory, code: 'community', display: 'Community' }] }],
    reportedBoolean: note.noteType !== 'RX',
    medicationCodeableConcept: medication(d),
    subject: ctx.patientRef,
    authoredOn: fhirDate(d.datePrescribed) ?? fhirInstant(note.eventTimestamp),
    requester: ctx.practitioner({ userId: str(d.providerId), name: str(d.providerName), npi: str(d.providerNpi) }) ?? ctx.practitioner(note.author),
    reasonCode: str(d.icD9Code) ? [{ text: str(d.icD9Code) }] : [],
    dosageInstruction:
      str(d.instructions) || str(d.frequency)
        ? [
            {
              text: [str(d.instructions), str(d.frequency)].filter(Boolean).join(', '),
              route: str(d.routeOfAdministration) ? { text: str(d.routeOfAdministration) } : undefined,
            },
          ]
        : [],
    dispenseRequest: {
      numberOfRepeatsAllowed: num(d.numberOfRefills),
      quantity: num(d.quantityPrescribed) !== undefined ? { value: num(d.quantityPrescribed) } : undefined,
      expectedSupplyDuration: days !== undefined ? { value: days, unit: 'days', system: SYSTEMS.ucum, code: 'd' } : undefined,
      validityPeriod: fhirDate(d.useByDate) ? { end: fhirDate(d.useByDate) } : undefined,
    },
    substitution:
      typeof d.daw === 'boolean' ? { allowedBoolean: !d.daw } : typeof d.noSubstitutions === 'boolean' ? { allowedBoolean: !d.noSubstitutions } : undefined,
  });
}

/**
 * In-house prescriptions (RX notes) are orders; a filled one was also dispensed from the practice's
 * inventory. DoseSpot's come in read-only and are exported as reported orders.
 */
export const prescriptions: ChartMapper = {
  kind: 'prescription',
  map: (src, ctx) =>
    src.notes.flatMap((note): FhirResource[] => {
      if (note.noteType === 'RX_DOSESPOT') {
        const p = (note.data.prescription ?? {}) as Data;
        return [request(src.practiceId, ctx, note, p)];
      }
      if (note.noteType !== 'RX') return [];
      const d = note.data as Data;
      const req = request(src.practiceId, ctx, note, d);
      const filled = fhirDate(d.dateFulfilled);
      if (!filled) return [req];
      return [
        req,
        clean({
          resourceType: 'MedicationDispense',
          id: stableUuid('MedicationDispense', src.practiceId, 'rx', note.noteId),
          identifier: [sourceIdentifier(src.practiceId, 'prescription-dispense', note.noteId)],
          status: 'completed',
          medicationCodeableConcept: medication(d),
          subject: ctx.patientRef,
          authorizingPrescription: [{ reference: `urn:uuid:${req.id}` }],
          quantity: num(d.quantityPrescribed) !== undefined ? { value: num(d.quantityPrescribed) } : undefined,
          daysSupply: num(d.daysOfTreatment) !== undefined ? { value: num(d.daysOfTreatment), unit: 'days', system: SYSTEMS.ucum, code: 'd' } : undefined,
          whenHandedOver: filled,
          dosageInstruction: (req.dosageInstruction as unknown[] | undefined) ?? [],
          note: str(d.lotNumber) ? [{ text: `Lot ${str(d.lotNumber)}` }] : [],
        }),
      ];
    }),
};
