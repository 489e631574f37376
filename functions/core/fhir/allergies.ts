import { ALLERGY_SEVERITY_LABELS } from '../../../shared/chart/constants.js';
import type { Allergy } from '../../../shared/chart/sections.js';
import { clean, fhirDate, fhirInstant, sourceIdentifier, stableUuid, SYSTEMS, type Coding } from './fhir-core.js';
import type { ChartMapper } from './model.js';

const SEVERITY: Record<string, 'mild' | 'moderate' | 'severe'> = { mild: 'mild', moderate: 'moderate', severe: 'severe' };

/*
 * What a Tidewell allergy holds that AllergyIntolerance has no element for, so a Tidewell → Tidewell
 * move keeps it: the day it ended, the allergen the allergy checks read, and the ICD-10-CM allergy
 * status code (a Z code names the patient's status, not the substance, so it is not the allergy's code).
 */
export const ALLERGY_EXTENSIONS = {
  end: 'https://tidewell.app/fhir/StructureDefinition/allergy-end',
  allergen: 'https://tidewell.app/fhir/StructureDefinition/allergy-allergen',
  icd10: 'https://tidewell.app/fhir/StructureDefinition/allergy-icd10',
} as const;

/** The substance as coded: the allergen's RxNorm ingredient, then the codes an outside record sent (SNOMED CT, RxNorm). */
export function allergyCodings(a: Pick<Allergy, 'allergen' | 'codings'>): Coding[] {
  const out: Coding[] = [];
  const add = (c: Coding) => {
    if (!out.some((x) => x.system === c.system && x.code === c.code)) out.push(c);
  };
  if (a.allergen?.rxcui) add({ system: SYSTEMS.rxnorm, code: a.allergen.rxcui, display: a.allergen.name });
  for (const c of a.codings ?? []) if (c.system !== SYSTEMS.icd10cm) add({ system: c.system, code: c.code, display: c.display });
  return out;
}

/** US Core AllergyIntolerance: clinicalStatus, verificationStatus, code, patient. */
export const allergies: ChartMapper = {
  kind: 'allergy',
  map: (src, ctx) =>
    src.allergies.map((a) =>
      clean({
        resourceType: 'AllergyIntolerance',
        id: stableUuid('AllergyIntolerance', src.practiceId, a.ident),
        extension: [
          ...(fhirDate(a.endDate) ? [{ url: ALLERGY_EXTENSIONS.end, valueDate: fhirDate(a.endDate) }] : []),
          ...(a.allergen
            ? [
                {
                  url: ALLERGY_EXTENSIONS.allergen,
                  extension: [
                    { url: 'kind', valueCode: a.allergen.kind },
                    { url: 'name', valueString: a.allergen.name },
                    ...(a.allergen.rxcui ? [{ url: 'rxcui', valueString: a.allergen.rxcui }] : []),
                  ],
                },
              ]
            : []),
          ...(a.icd10Code
            ? [{ url: ALLERGY_EXTENSIONS.icd10, valueCoding: { system: SYSTEMS.icd10cm, code: a.icd10Code.code, display: a.icd10Code.description } }]
            : []),
        ],
        identifier: [sourceIdentifier(src.practiceId, 'allergy', a.ident)],
        clinicalStatus: { coding: [{ system: SYSTEMS.allergyClinical, code: a.active ? 'active' : 'inactive' }] },
        verificationStatus: { coding: [{ system: SYSTEMS.allergyVerification, code: 'confirmed' }] },
        category: a.allergen && a.allergen.kind !== 'substance' ? ['medication'] : [],
        code: { coding: allergyCodings(a), text: a.name },
        patient: ctx.patientRef,
        onsetDateTime: fhirDate(a.startDate),
        recordedDate: fhirInstant(a.createdAt),
        reaction:
          a.severity || a.description
            ? [{ manifestation: [{ text: a.description || ALLERGY_SEVERITY_LABELS[a.severity!] }], severity: a.severity ? SEVERITY[a.severity] : undefined }]
            : [],
      }),
    ),
};
