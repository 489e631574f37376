import { clean, fhirDate, fhirInstant, outsideCodings, sourceIdentifier, stableUuid, SYSTEMS, type Coding, type FhirResource } from './fhir-core.js';
import type { ChartMapper, ChartSource, MapContext } from './model.js';

interface ConditionLike {
  ident: string;
  name: string;
  description?: string;
  details?: string;
  active?: boolean;
  start?: string;
  end?: string;
  icd10Code?: { code: string; description?: string };
  codings?: Coding[];
  createdAt: string;
}

const US_CORE_CATEGORY = 'http://hl7.org/fhir/us/core/CodeSystem/condition-category';

function condition(
  src: ChartSource,
  ctx: MapContext,
  kind: string,
  category: { system: string; code: string; display: string },
  c: ConditionLike,
): FhirResource {
  const ended = Boolean(c.end) || c.active === false;
  return clean({
    resourceType: 'Condition',
    id: stableUuid('Condition', src.practiceId, kind, c.ident),
    identifier: [sourceIdentifier(src.practiceId, kind, c.ident)],
    clinicalStatus: { coding: [{ system: SYSTEMS.conditionClinical, code: ended ? 'resolved' : 'active' }] },
    verificationStatus: { coding: [{ system: SYSTEMS.conditionVerification, code: 'confirmed' }] },
    category: [{ coding: [category] }],
    // ICD-10-CM from the chart's own field, beside the SNOMED CT code an outside record sent.
    code: {
      coding: [
        ...(c.icd10Code ? [{ system: SYSTEMS.icd10cm, code: c.icd10Code.code, display: c.icd10Code.description }] : []),
        ...outsideCodings(c.codings, c.icd10Code ? [SYSTEMS.icd10cm] : []),
      ],
      text: c.name,
    },
    subject: ctx.patientRef,
    onsetDateTime: fhirDate(c.start),
    abatementDateTime: fhirDate(c.end),
    recordedDate: fhirInstant(c.createdAt),
    note: c.description || c.details ? [{ text: c.description || c.details }] : [],
  });
}

/** Diagnoses are the problem list (US Core Condition Problems and Health Concerns). */
export const conditions: ChartMapper = {
  kind: 'diagnosis',
  map: (src, ctx) =>
    src.diagnoses.map((d) =>
      condition(
        src,
        ctx,
        'diagnosis',
        { system: SYSTEMS.conditionCategory, code: 'problem-list-item', display: 'Problem List Item' },
        { ...d, start: d.date, end: d.endDate },
      ),
    ),
};

/** General information items are the chart's health concerns. */
export const healthConcerns: ChartMapper = {
  kind: 'general',
  map: (src, ctx) =>
    src.general.map((g) =>
      condition(
        src,
        ctx,
        'general',
        { system: US_CORE_CATEGORY, code: 'health-concern', display: 'Health Concern' },
        { ...g, start: g.startDate, end: g.endDate },
      ),
    ),
};
