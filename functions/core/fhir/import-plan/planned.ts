import type { PatientDemographics } from '../../../../shared/patients/patient-record.js';
import type { Note } from '../../../../shared/notes/note-schema.js';
import type { ChartSectionName } from '../../../data/chart/chart-repository.js';
import type { SectionSpec } from '../../chart/section-crud.js';
import type { ImportedFile } from '../import-comms.js';
import type { LabPlan } from '../import-labs.js';
import type { PlannedAppointment } from '../import-appointments.js';

/** One bundle resource as Tidewell will keep it. */
export type Planned =
  | { kind: 'section'; section: ChartSectionName; spec: SectionSpec<any>; input: Json } // eslint-disable-line @typescript-eslint/no-explicit-any
  | { kind: 'social'; question: string; answer: string; at?: string; startDate?: string; endDate?: string; notes?: string }
  | { kind: 'vital'; at: string; values: Record<string, number>; author?: string; authorUser?: ImportedAuthor }
  | { kind: 'file'; at: string; name: string; contentType: string; bytes: Buffer; related?: string; author?: string; authorUser?: ImportedAuthor }
  /** author: who wrote it at the source, when that is not a user here; authorUser: the user here it was matched to (a practice import matches by email). */
  /** texting: a conversation text's numbers, which a practice restore puts it back in the conversation of. */
  | {
      kind: 'note';
      noteType: Note['noteType'];
      status: Note['status'];
      at: string;
      text: string;
      formattedText?: string;
      subject?: string;
      data?: Record<string, unknown>;
      files?: ImportedFile[];
      signed?: boolean;
      author?: string;
      authorUser?: ImportedAuthor;
      texting?: TextingNumbers;
    }
  /** What the source's Patient says of the patient: merged into this chart's patient. */
  | { kind: 'demographics'; demographics: PatientDemographics }
  | PlannedAppointment
  | LabPlan;

export interface TextingNumbers {
  practicePhone: string;
  patientPhone: string;
}

export interface ImportedAuthor {
  userId: string;
  name: string;
  email: string;
}

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** What a resource becomes, or why it is left out. */
export interface PlanOutcome {
  planned?: Planned;
  summary: string;
  reason?: string;
}
