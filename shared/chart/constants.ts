/** Chart sections of spec chart-data §1, in the order the health summary shows them. */
export const CHART_SECTIONS = [
  'general',
  'allergies',
  'medications',
  'vaccines',
  'diagnosis_history',
  'surgical_history',
  'family_history',
  'social_history',
] as const;
export type ChartSection = (typeof CHART_SECTIONS)[number];

/** Allergy severity (spec §3): the wire value and its code. */
export const ALLERGY_SEVERITIES = ['mild', 'moderate', 'severe'] as const;
export type AllergySeverity = (typeof ALLERGY_SEVERITIES)[number];
export const ALLERGY_SEVERITY_CODES: Record<AllergySeverity, 'MI' | 'MO' | 'SV'> = { mild: 'MI', moderate: 'MO', severe: 'SV' };
export const ALLERGY_SEVERITY_LABELS: Record<AllergySeverity, string> = { mild: 'Mild', moderate: 'Moderate', severe: 'Severe' };

/** Family relation codes (spec §3). */
export const FAMILY_RELATIONS = ['GRPRN', 'MGRFTH', 'PGRFTH', 'MGRMTH', 'PGRMTH', 'FTH', 'MTH', 'BRO', 'SIS'] as const;
export type FamilyRelation = (typeof FAMILY_RELATIONS)[number];
export const FAMILY_RELATION_LABELS: Record<FamilyRelation, string> = {
  GRPRN: 'Grandparent',
  MGRFTH: 'Maternal grandfather',
  PGRFTH: 'Paternal grandfather',
  MGRMTH: 'Maternal grandmother',
  PGRMTH: 'Paternal grandmother',
  FTH: 'Father',
  MTH: 'Mother',
  BRO: 'Brother',
  SIS: 'Sister',
};

/** Routes of administration (spec §3). */
export const ADMINISTRATION_ROUTES = ['IM', 'SC', 'ID', 'IN', 'PO', 'IV', 'TD', 'BUC', 'SL', 'NAS'] as const;
export type AdministrationRoute = (typeof ADMINISTRATION_ROUTES)[number];
export const ADMINISTRATION_ROUTE_LABELS: Record<AdministrationRoute, string> = {
  IM: 'Intramuscular',
  SC: 'Subcutaneous',
  ID: 'Intradermal',
  IN: 'Intranasal',
  PO: 'Oral',
  IV: 'Intravenous',
  TD: 'Transdermal',
  BUC: 'Buccal',
  SL: 'Sublingual',
  NAS: 'Nasal',
};

/** Vaccine administration sites: the HL7 table 0163 body-site codes (spec §3 names LA and RD). */
export const ADMINISTRATION_SITE_LABELS = {
  BE: 'Bilateral ears',
  OU: 'Bilateral eyes',
  BN: 'Bilateral nares',
  BU: 'Buttock',
  LA: 'Left arm',
  LAC: 'Left anterior chest',
  LACF: 'Left antecubital fossa',
  LD: 'Left deltoid',
  LE: 'Left ear',
  LEJ: 'Left external jugular',
  LF: 'Left foot',
  LG: 'Left gluteus medius',
  LH: 'Left hand',
  LIJ: 'Left internal jugular',
  LLAQ: 'Left lower abdominal quadrant',
  LLFA: 'Left lower forearm',
  LMFA: 'Left mid forearm',
  LN: 'Left naris',
  LPC: 'Left posterior chest',
  LSC: 'Left subclavian',
  LT: 'Left thigh',
  LUA: 'Left upper arm',
  LUAQ: 'Left upper abdominal quadrant',
  LUFA: 'Left upper forearm',
  LVG: 'Left ventrogluteal',
  LVL: 'Left vastus lateralis',
  OS: 'Left eye',
  OD: 'Right eye',
  RA: 'Right arm',
  RAC: 'Right anterior chest',
  RACF: 'Right antecubital fossa',
  RD: 'Right deltoid',
  RE: 'Right ear',
  REJ: 'Right external jugular',
  RF: 'Right foot',
  RG: 'Right gluteus medius',
  RH: 'Right hand',
  RIJ: 'Right internal jugular',
  RLAQ: 'Right lower abdominal quadrant',
  RLFA: 'Right lower forearm',
  RMFA: 'Right mid forearm',
  RN: 'Right naris',
  RPC: 'Right posterior chest',
  RSC: 'Right subclavian',
  RT: 'Right thigh',
  RUA: 'Right upper arm',
  RUAQ: 'Right upper abdominal quadrant',
  RUFA: 'Right upper forearm',
  RVG: 'Right ventrogluteal',
  RVL: 'Right vastus lateralis',
} as const;
export type AdministrationSite = keyof typeof ADMINISTRATION_SITE_LABELS;
export const ADMINISTRATION_SITES = Object.keys(ADMINISTRATION_SITE_LABELS) as AdministrationSite[];

export const MEDICATION_STATUSES = ['Active', 'Complete'] as const;
export type MedicationStatus = (typeof MEDICATION_STATUSES)[number];

export const RELATIONSHIP_STATUSES = ['SINGLE', 'MARRIED', 'DIVORCED', 'RELATIONSHIP', 'COMPLICATED'] as const;
export const SUBSTANCE_KEYS = ['alcohol', 'illicitDrugs', 'marijuana', 'sexuallyActive', 'smoke', 'everSmoked', 'quit', 'packsPerDay'] as const;

export const NOTE_DATA_LINK_TYPES = ['task', 'medication', 'diagnosis', 'allergy', 'vaccine'] as const;

/** Spec §9: ICD-10 search starts at 3 characters, pages of 25; medication search above 3 characters; both debounced 500 ms. */
export const ICD10_SEARCH_MIN_LENGTH = 3;
export const ICD10_PAGE_SIZE = 25;
export const ICD10_MAX_PAGE_SIZE = 100;
export const DRUG_SEARCH_MIN_LENGTH_EXCLUSIVE = 3;
export const CODE_SEARCH_DEBOUNCE_MS = 500;

/** Texts the spec fixes word for word (chart-data §2, §5, §8). */
export const CHART_MESSAGES = {
  staleVersion: 'This item was changed by someone else. Reload it to see the latest version.',
  startDateInvalid: 'Start Date is not valid',
  endDateInvalid: 'End Date is not valid',
  dateInvalid: 'Date is not valid',
  dateInFuture: 'Date cannot be in the future',
  endDateInFuture: 'End Date cannot be in the future',
  endBeforeStart: 'End Date must come after Start Date',
  groupNameInvalid: 'Group Name is not valid',
  expirationDateInvalid: 'Expiration Date is not valid',
  nameRequired: 'Name is required',
  diagnosisRequired: 'Diagnosis is required',
  questionRequired: 'Question is required',
  pinnedRequired: 'Pinned is required',
  unsavedChanges: 'You have unsaved changes, are you sure you want to leave?',
  noResults: 'No results found.',
  noSurgeries: 'No surgeries found.',
  noAllergies: 'No allergies',
  noDiagnoses: 'No diagnoses',
  noAllergiesOf: (filter: 'Active' | 'Resolved') => `No ${filter} allergies`,
  deletedLinked: (type: string) => `This ${type} has been deleted`,
  ndcHint: 'required to sync with the e-prescribing system',
  ndcPlaceholder: '0000-0000-00',
  notText: (label: string) => `${label} must be text`,
  notBoolean: (label: string) => `${label} must be true or false`,
  notNumber: (label: string) => `${label} must be a non-negative number`,
  notOneOf: (label: string) => `${label} is not a valid choice`,
} as const;
