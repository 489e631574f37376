import { ALLERGY_SEVERITY_LABELS } from '../../../shared/chart/constants.js';
import { clean, fhirDate, fhirInstant, sourceIdentifier, stableUuid, SYSTEMS } from './fhir-core.js';
import type { ChartMapper } from './model.js';

const SEVERITY: Record<string, 'mild' | 'moderate' | 'severe'> = { mild: 'mild', moderate: 'moderate', severe: 'severe' };

/** US Core AllergyIntolerance: clinicalStatus, verificationStatus, code, patient. */
export const allergies: ChartMapper = {
  kind: 'allergy',
  map: (src, ctx) =>
    src.allergies.map((a) =>
      clean({
        resourceType: 'AllergyIntolerance',
        id: stableUuid('AllergyIntolerance', src.practiceId, a.ident),
        identifier: [sourceIdentifier(src.practiceId, 'allergy', a.ident)],
        clinicalStatus: { coding: [{ system: SYSTEMS.allergyClinical, code: a.active ? 'active' : 'inactive' }] },
        verificationStatus: { coding: [{ system: SYSTEMS.allergyVerification, code: 'confirmed' }] },
        code: {
          coding: a.icd10Code ? [{ system: SYSTEMS.icd10cm, code: a.icd10Code.code, display: a.icd10Code.description }] : [],
          text: a.name,
        },
        patient: ctx.patientRef,
        onsetDateTime: fhirDate(a.startDate),
        lastOccurrence: undefined,
        recordedDate: fhirInstant(a.createdAt),
        reaction: a.severity || a.description ? [{ manifestation: [{ text: a.description || ALLERGY_SEVERITY_LABELS[a.severity!] }], severity: a.severity ? SEVERITY[a.severity] : undefined }] : [],
        note: a.endDate ? [{ text: `Ended ${a.endDate}` }] : [],
      }),
    ),
};
