import type { SaleLine } from '../../../shared/sales/sales-schema.js';
import { clean, fhirInstant, sourceIdentifier, stableUuid, SYSTEMS } from './fhir-core.js';
import type { ChartMapper } from './model.js';

const HANDED_OVER = new Set(['SIGNED', 'ADDENDED', 'FULFILLED', 'DELIVERED']);

/** Inventory items sold on a signed sales note were handed to the patient: one MedicationDispense per line. */
export const saleDispenses: ChartMapper = {
  kind: 'sale-dispense',
  map: (src, ctx) =>
    src.notes
      .filter((n) => n.noteType === 'SALES' && HANDED_OVER.has(n.status))
      .flatMap((note) =>
        ((note.data.items ?? []) as SaleLine[])
          .filter((line) => line.kind === 'inventory')
          .map((line, i) => {
            const item = src.inventory.get(line.refId);
            const ndc = item?.ndcNumber ?? line.code ?? undefined;
            return clean({
              resourceType: 'MedicationDispense',
              id: stableUuid('MedicationDispense', src.practiceId, 'sale', note.noteId, String(i)),
              identifier: [sourceIdentifier(src.practiceId, 'sale-line', `${note.noteId}/${i}`)],
              status: 'completed',
              medicationCodeableConcept: {
                coding: ndc ? [{ system: SYSTEMS.ndc, code: ndc }] : [],
                text: line.name || [item?.brandName || item?.genericName, item?.strength, item?.form].filter(Boolean).join(' '),
              },
              subject: ctx.patientRef,
              performer: ctx.practitioner(note.author) ? [{ actor: ctx.practitioner(note.author) }] : [],
              quantity: { value: line.quantity },
              whenHandedOver: fhirInstant(note.signed ?? note.eventTimestamp),
            });
          }),
      ),
};
