import {
  AllergyInput,
  DiagnosisInput,
  FamilyHistoryInput,
  GeneralInput,
  MedicationInput,
  SurgeryInput,
  VaccineInput,
  FreeformMedicationInput,
} from '../../../shared/chart/sections.js';
import { compareVaccineDoses, orderChartItems } from '../../../shared/chart/ordering.js';
import { resolveIcd10 } from './icd10-ref.js';
import type { SectionSpec } from './section-crud.js';

/** An item's code fields: the derived copy is recomputed when one of them changes. */
const ICD10_SOURCES = ['icd10CodeId', 'icd10Code'] as const;

/** The simple sections: body rules, derived fields, list order. Groups and answers live in their own files. */
export const ALLERGIES: SectionSpec<AllergyInput, 'allergies'> = {
  section: 'allergies',
  label: 'Allergy',
  entity: 'allergy',
  input: AllergyInput,
  derive: resolveIcd10,
  deriveFrom: ICD10_SOURCES,
  order: (items) => orderChartItems(items, (i) => i.startDate),
};

export const DIAGNOSES: SectionSpec<DiagnosisInput, 'diagnoses'> = {
  section: 'diagnoses',
  label: 'Diagnosis',
  entity: 'diagnosis',
  input: DiagnosisInput,
  derive: resolveIcd10,
  deriveFrom: ICD10_SOURCES,
  order: (items) => orderChartItems(items, (i) => i.date),
};

export const MEDICATIONS: SectionSpec<MedicationInput, 'medications'> = {
  section: 'medications',
  label: 'Medication',
  entity: 'medication',
  input: MedicationInput,
  order: (items) => orderChartItems(items, (i) => i.start),
};

export const FREEFORM_MEDICATIONS: SectionSpec<{ name: string }, 'freeformMedications'> = {
  section: 'freeformMedications',
  label: 'Freeform medication',
  entity: 'freeform_medication',
  input: FreeformMedicationInput,
  order: (items) => [...items].sort((a, b) => a.name.localeCompare(b.name)),
};

export const SURGERIES: SectionSpec<SurgeryInput, 'surgeries'> = {
  section: 'surgeries',
  label: 'Surgery',
  entity: 'surgery',
  input: SurgeryInput,
  order: (items) => orderChartItems(items, (i) => i.date),
};

export const FAMILY_HISTORY: SectionSpec<FamilyHistoryInput, 'familyHistory'> = {
  section: 'familyHistory',
  label: 'Family history',
  entity: 'family_history',
  input: FamilyHistoryInput,
  derive: resolveIcd10,
  deriveFrom: ICD10_SOURCES,
  order: (items) => orderChartItems(items),
};

export const GENERAL: SectionSpec<GeneralInput, 'general'> = {
  section: 'general',
  label: 'General information',
  entity: 'general_info',
  input: GeneralInput,
  derive: resolveIcd10,
  deriveFrom: ICD10_SOURCES,
  order: (items) => orderChartItems(items, (i) => i.startDate),
};

export const VACCINES: SectionSpec<VaccineInput, 'vaccines'> = {
  section: 'vaccines',
  label: 'Vaccine',
  entity: 'vaccine',
  input: VaccineInput,
  order: (items) => [...items].sort(compareVaccineDoses),
};

/** Fields derived from icd10CodeId: recomputed on every save rather than merged from the stored copy. */
export const ICD10_DERIVED = ['icd10Code'] as const;
