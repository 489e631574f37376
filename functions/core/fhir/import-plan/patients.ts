import { demographicsOf } from '../demographics.js';
import { patientName, type BundleContext } from './context.js';
import type { Json, PlanOutcome } from './planned.js';

/** The bundle's Patient brings what it says of the patient (race, ethnicity, birth sex, identifiers) into this chart's patient. */
export function planPatient(r: Json, bundle: BundleContext): PlanOutcome {
  const demographics = demographicsOf(r, bundle.practiceId);
  if (!demographics) return { summary: `Patient: ${patientName(r)}`.trim(), reason: 'The chart it goes into is this one' };
  const kept = [
    demographics.race && 'race',
    demographics.ethnicity && 'ethnicity',
    demographics.birthSex && 'birth sex',
    demographics.identifiers && `${demographics.identifiers.length} identifier${demographics.identifiers.length === 1 ? '' : 's'}`,
  ]
    .filter(Boolean)
    .join(', ');
  return { summary: `Patient: ${patientName(r)} (${kept})`, planned: { kind: 'demographics', demographics } };
}

/** A Practitioner is named on what it wrote, not kept apart. */
export const planPractitioner = (r: Json): PlanOutcome => ({ summary: `Practitioner: ${patientName(r)}`.trim(), reason: 'Named on what it wrote' });
