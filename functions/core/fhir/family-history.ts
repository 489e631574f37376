import { FAMILY_RELATION_LABELS, type FamilyRelation } from '../../../shared/chart/constants.js';
import { clean, fhirInstant, sourceIdentifier, stableUuid, SYSTEMS, type FhirResource } from './fhir-core.js';
import type { ChartMapper } from './model.js';

/** FHIR has one FamilyMemberHistory per relative: an entry naming several relatives becomes one each (family-history.ts). */
export const familyHistory: ChartMapper = {
  kind: 'family-history',
  map: (src, ctx) =>
    src.familyHistory.flatMap((f) => {
      const relatives: (FamilyRelation | null)[] = f.family.length > 0 ? f.family : [null];
      return relatives.map((rel): FhirResource =>
        clean({
          resourceType: 'FamilyMemberHistory',
          id: stableUuid('FamilyMemberHistory', src.practiceId, f.ident, rel ?? ''),
          identifier: [sourceIdentifier(src.practiceId, 'family-history', rel ? `${f.ident}/${rel}` : f.ident)],
          status: 'completed',
          patient: ctx.patientRef,
          date: fhirInstant(f.createdAt),
          relationship: rel
            ? { coding: [{ system: SYSTEMS.roleCode, code: rel, display: FAMILY_RELATION_LABELS[rel] }] }
            : { coding: [{ system: SYSTEMS.roleCode, code: 'FAMMEMB', display: 'family member' }] },
          condition: [
            {
              code: { coding: f.icd10Code ? [{ system: SYSTEMS.icd10cm, code: f.icd10Code.code, display: f.icd10Code.description }] : [], text: f.diagnosis },
              note: f.details ? [{ text: f.details }] : [],
            },
          ],
        }),
      );
    }),
};
