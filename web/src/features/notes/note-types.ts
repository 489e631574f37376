import type { NoteType } from '../../../../shared/notes/note-constants.js';

export const NOTE_TYPE_LABEL: Record<NoteType, string> = {
  NOTE: 'Note',
  DOCUMENT: 'Document',
  FAX: 'Fax',
  EMAIL: 'Email',
  PHONE_CALL: 'Phone Call',
  FORM: 'Form',
  LAB: 'Lab Order',
  RX: 'In-house Prescription',
  VITALS: 'Vitals',
  PARTNER: 'Partner App',
  SMS: 'SMS',
  SMS_LOG: 'SMS Log',
  SALES: 'Sales',
  RX_VERADIGM: 'Prescription (Veradigm)',
  RX_DOSESPOT: 'Prescription (DoseSpot)',
  ECONSULT_THEA: 'eConsult',
  STICKY: 'Sticky Note',
  COPILOT_CHAT: 'Copilot Chat',
};

/** The types the "New" menus create in this release, in menu order. */
export const CREATABLE_NOTE_TYPES = [
  'NOTE',
  'PHONE_CALL',
  'EMAIL',
  'DOCUMENT',
  'VITALS',
  'SMS_LOG',
  'STICKY',
  'SALES',
  'RX',
  'LAB',
  'FORM',
] as const satisfies readonly NoteType[];

export const STATUS_LABEL = (status: string) => status.charAt(0) + status.slice(1).toLowerCase();
