import { MEDICATIONS } from '../../chart/sections.js';
import { SYSTEMS } from '../fhir-core.js';
import { planDispense } from '../import-comms.js';
import { sigOf } from '../import-values.js';
import { medicationKeys, medicationOf, type BundleContext } from './context.js';
import type { Json, PlanOutcome } from './planned.js';
import { codeIn, day, noteOf, outsideCodings, routeText, text } from './read.js';

const whole = (v: unknown) => (Number.isInteger(v) && (v as number) >= 0 ? v : undefined);

const NOT_PRESCRIBED: Record<string, string> = {
  draft: 'A draft prescription was never sent',
  cancelled: 'The prescription was cancelled',
  'entered-in-error': 'The prescription was entered in error',
};

/**
 * A prescription becomes a medication list entry (active, or complete once filled or stopped),
 * unless the bundle's own medication list has that medication already: Tidewell's export writes a
 * medication both ways when it was prescribed from the list.
 */
export function planPrescription(r: Json, bundle: BundleContext): PlanOutcome {
  const medication = medicationOf(r, bundle.medications);
  const name = text(medication);
  const summary = `Prescription: ${name ?? 'Medication'}${day(r.authoredOn) ? ` on ${day(r.authoredOn)}` : ''}`;
  if (!name) return { summary, reason: 'It names no medication' };
  if (NOT_PRESCRIBED[r.status]) return { summary, reason: NOT_PRESCRIBED[r.status] };
  if (medicationKeys(medication).some((k) => bundle.listedMedications.has(k))) return { summary, reason: 'Brought in through the medication list' };
  const ndc = codeIn(medication, SYSTEMS.ndc);
  const prescriber = r.requester?.display;
  return {
    summary,
    planned: {
      kind: 'section',
      section: 'medications',
      spec: MEDICATIONS,
      input: {
        productName: name,
        status: r.status === 'completed' || r.status === 'stopped' ? 'Complete' : 'Active',
        start: day(r.authoredOn),
        sigText: sigOf(r.dosageInstruction?.[0]),
        routeOfAdministration: routeText(r.dosageInstruction?.[0]?.route),
        refills: whole(r.dispenseRequest?.numberOfRepeatsAllowed),
        quantity: whole(r.dispenseRequest?.quantity?.value),
        daysSupply: whole(r.dispenseRequest?.expectedSupplyDuration?.value),
        description: [prescriber ? `Prescribed by ${prescriber}` : 'Prescribed', noteOf(r)].filter(Boolean).join('\n'),
        code: ndc ? { type: 'NDC', value: ndc } : undefined,
        codings: outsideCodings(medication),
      },
    },
  };
}

/** A medication list entry (MedicationStatement) becomes one on this chart's list, unless it is not taken or was entered in error. */
export function planMedicationStatement(r: Json, bundle: BundleContext): PlanOutcome {
  const medication = medicationOf(r, bundle.medications);
  const name = text(medication) ?? 'Medication';
  const ndc = codeIn(medication, SYSTEMS.ndc);
  if (r.status === 'entered-in-error') return { summary: `Medication: ${name}`, reason: 'The medication was entered in error' };
  if (r.status === 'not-taken') return { summary: `Medication: ${name}`, reason: 'The patient does not take it' };
  return {
    summary: `Medication: ${name}`,
    planned: {
      kind: 'section',
      section: 'medications',
      spec: MEDICATIONS,
      input: {
        productName: name,
        status: r.status === 'completed' || r.status === 'stopped' ? 'Complete' : 'Active',
        start: day(r.effectivePeriod?.start ?? r.effectiveDateTime),
        end: day(r.effectivePeriod?.end),
        sigText: sigOf(r.dosage?.[0]),
        routeOfAdministration: routeText(r.dosage?.[0]?.route),
        description: noteOf(r),
        code: ndc ? { type: 'NDC', value: ndc } : undefined,
        codings: outsideCodings(medication),
      },
    },
  };
}

/** A medication handed over (MedicationDispense) goes onto the medication list, as import-comms reads it. */
export function planMedicationDispense(r: Json, bundle: BundleContext): PlanOutcome {
  const p = planDispense(r, bundle.comms);
  return { ...p, planned: p.planned ? { kind: 'section', section: 'medications', spec: MEDICATIONS, input: p.planned.input } : undefined };
}
