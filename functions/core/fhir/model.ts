import type { Appointment, BookingLocation } from '../../../shared/calendar/calendar-schema.js';
import type { PhoneCall } from '../../../shared/calls/call-schema.js';
import type {
  Allergy,
  Diagnosis,
  FamilyHistory,
  FreeformMedication,
  General,
  Medication,
  SocialHistory,
  Surgery,
  Vaccine,
} from '../../../shared/chart/sections.js';
import type { InventoryItem } from '../../../shared/sales/sales-schema.js';
import type { Note } from '../../../shared/notes/note-schema.js';
import type { Patient } from '../../../shared/patients/patient-schema.js';
import type { FhirResource, Reference } from './fhir-core.js';

/** Everything Tidewell keeps about one patient, as the export reads it. */
export interface ChartSource {
  practiceId: string;
  patient: Patient;
  allergies: Allergy[];
  diagnoses: Diagnosis[];
  medications: Medication[];
  freeformMedications: FreeformMedication[];
  vaccines: Vaccine[];
  surgeries: Surgery[];
  familyHistory: FamilyHistory[];
  socialHistory: SocialHistory[];
  general: General[];
  /** The patient's calendar appointment series. */
  appointments: Appointment[];
  /** Who and what the chart names by id: the practice's users, appointment types, booking locations and calendar zone. */
  directory?: PracticeDirectory;
  /** The patient's phone calls (a call is the patient's once the call record names them), oldest first. */
  calls: PhoneCall[];
  /** The names of the users calls were assigned to or placed by, by user id. */
  userNames: Map<string, string>;
  /** Every note of the patient but deleted ones and templates, oldest first. */
  notes: Note[];
  /** The inventory items sales and prescriptions name, by id. */
  inventory: Map<string, InventoryItem>;
  /** Files attached to notes, and calls' voicemails: the zip path each binary is written under, by storage key. */
  filePaths: Map<string, string>;
}

/** A practice user as the export names them (Practitioner name, NPI, email). */
export interface DirectoryUser {
  name: string;
  firstName: string;
  lastName: string;
  npi: string | null;
  email: string;
}
export interface PracticeDirectory {
  users: Map<string, DirectoryUser>;
  appointmentTypes: Map<string, string>;
  locations: Map<string, BookingLocation>;
  timeZone: string;
}

/** What a mapper gets besides its source: the patient's reference and a shared author lookup. */
export interface MapContext {
  practiceId: string;
  patientRef: Reference;
  /** A Practitioner for a Tidewell user (added to the bundle once), referenced by notes, orders and prescriptions. */
  practitioner: (person: { userId?: string; name?: string; npi?: string } | null | undefined) => Reference | undefined;
}

/**
 * One kind of Tidewell data to FHIR: each kind is one small module, so a new kind of data (an
 * appointment, a form) is one more module in mappers.ts.
 */
export interface ChartMapper {
  kind: string;
  map: (source: ChartSource, ctx: MapContext) => FhirResource[];
}
