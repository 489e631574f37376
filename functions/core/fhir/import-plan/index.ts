import { planLabOrder, planLabReport } from '../import-labs.js';
import { planAllergy } from './allergies.js';
import { planCommunication, planQuestionnaireResponse } from './communications.js';
import { planCondition } from './conditions.js';
import type { BundleContext } from './context.js';
import { planDocument } from './documents.js';
import { planFamilyHistory } from './family-history.js';
import { planImmunization } from './immunizations.js';
import { planMedicationDispense, planMedicationStatement, planPrescription } from './medications.js';
import { planNotKept } from './not-kept.js';
import { planObservation } from './observations.js';
import { planPatient, planPractitioner } from './patients.js';
import type { Json, PlanOutcome } from './planned.js';
import { planProcedure } from './procedures.js';

/*
 * What each kind of FHIR resource becomes in a chart, or why it is left out: one planner a resource
 * type, each in its own module. The bundle as a whole (BundleContext) is read once, before any plan.
 */

export { bundleContext, patientName, refsTo, type BundleContext } from './context.js';
export type { ImportedAuthor, Json, Planned, PlanOutcome, TextingNumbers } from './planned.js';

type Planner = (r: Json, bundle: BundleContext) => PlanOutcome;

// A Map, not an object: a resourceType such as "constructor" must not find a planner on the prototype.
const PLANNERS = new Map<string, Planner>([
  ['Communication', planCommunication],
  ['QuestionnaireResponse', planQuestionnaireResponse],
  ['MedicationDispense', planMedicationDispense],
  ['DiagnosticReport', (r, bundle) => planLabReport(r, bundle.labs)],
  ['ServiceRequest', (r, bundle) => planLabOrder(r, bundle.labs)],
  ['MedicationRequest', planPrescription],
  // Matched against the practice's users, types and locations in planAppointments().
  ['Appointment', () => ({ summary: 'Appointment', planned: { kind: 'appointment' } })],
  [
    'Location',
    (r) => ({ summary: `Location: ${String(r.name ?? '')}`.trim(), reason: "Its appointments are booked at this practice's location of that name" }),
  ],
  ['AllergyIntolerance', planAllergy],
  ['Condition', planCondition],
  ['MedicationStatement', planMedicationStatement],
  ['Immunization', planImmunization],
  ['Procedure', planProcedure],
  ['FamilyMemberHistory', planFamilyHistory],
  ['Observation', planObservation],
  ['DocumentReference', planDocument],
  ['Patient', planPatient],
  ['Practitioner', planPractitioner],
]);

/** What a resource becomes, or why it is left out. */
export function plan(r: Json, bundle: BundleContext): PlanOutcome {
  const planner = typeof r.resourceType === 'string' ? PLANNERS.get(r.resourceType) : undefined;
  return planner ? planner(r, bundle) : planNotKept(r);
}
