import type { Json, PlanOutcome } from './planned.js';
import { day, text } from './read.js';
import { SYSTEMS } from '../fhir-core.js';

/**
 * What other systems write that a Tidewell chart has no place for, named so the preview reads plainly.
 * What was recorded at an encounter (its diagnoses, vitals, notes…) comes in as resources of its own.
 */
const NOT_KEPT: Record<string, { label: string; reason: string; name: (r: Json) => string | undefined; when: (r: Json) => unknown }> = {
  Encounter: {
    label: 'Visit',
    reason: 'Tidewell does not keep visits (encounters); what was recorded at them comes in on its own',
    name: (r) => text(r.type?.[0]),
    when: (r) => r.period?.start,
  },
  Organization: { label: 'Organization', reason: 'Named on what it wrote', name: (r) => r.name, when: () => undefined },
  PractitionerRole: { label: 'Practitioner role', reason: 'Named on what it wrote', name: (r) => r.practitioner?.display, when: () => undefined },
  CarePlan: {
    label: 'Care plan',
    reason: 'Tidewell does not keep care plans',
    name: (r) =>
      ((r.category as Json[] | undefined) ?? []).map((c) => (c.coding?.some((x: Json) => x.system === SYSTEMS.snomed) ? text(c) : undefined)).find(Boolean) ??
      r.title,
    when: (r) => r.period?.start ?? r.created,
  },
  CareTeam: { label: 'Care team', reason: 'Tidewell does not keep care teams', name: (r) => r.name, when: (r) => r.period?.start },
  Goal: { label: 'Goal', reason: 'Tidewell does not keep goals', name: (r) => text(r.description), when: (r) => r.startDate },
  Claim: { label: 'Claim', reason: 'Billing records are not imported', name: () => undefined, when: (r) => r.billablePeriod?.start ?? r.created },
  ExplanationOfBenefit: {
    label: 'Explanation of benefit',
    reason: 'Billing records are not imported',
    name: (r) => r.insurer?.display,
    when: (r) => r.billablePeriod?.start ?? r.created,
  },
  Coverage: { label: 'Insurance coverage', reason: 'Insurance records are not imported', name: (r) => r.payor?.[0]?.display, when: (r) => r.period?.start },
  Provenance: { label: 'Record of where the data came from', reason: 'Not part of the chart', name: () => undefined, when: (r) => r.recorded },
  ImagingStudy: {
    label: 'Imaging study',
    reason: 'Tidewell does not keep imaging studies',
    name: (r) => text(r.procedureCode?.[0]) ?? r.description,
    when: (r) => r.started,
  },
  Device: { label: 'Device', reason: 'Tidewell does not keep devices', name: (r) => r.deviceName?.[0]?.name ?? text(r.type), when: () => undefined },
  SupplyDelivery: {
    label: 'Supply delivery',
    reason: 'Tidewell does not keep supply deliveries',
    name: (r) => text(r.suppliedItem?.itemCodeableConcept),
    when: (r) => r.occurrenceDateTime,
  },
  Medication: { label: 'Medication', reason: 'Brought in through the prescription naming it', name: (r) => text(r.code), when: () => undefined },
};

/** A resource no planner takes: named, and left out with the reason the chart has no place for it. */
export function planNotKept(r: Json): PlanOutcome {
  const type = String(r.resourceType);
  // Own keys only: a resourceType such as "toString" names no entry of the table.
  const notKept = Object.hasOwn(NOT_KEPT, type) ? NOT_KEPT[type] : undefined;
  if (!notKept) return { summary: String(r.resourceType), reason: `${String(r.resourceType)} is not imported yet` };
  const what = notKept.name(r);
  const when = day(notKept.when(r));
  return { summary: `${notKept.label}${what ? `: ${what}` : ''}${when ? ` on ${when}` : ''}`, reason: notKept.reason };
}
