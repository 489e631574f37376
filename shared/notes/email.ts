import { NOTE_MESSAGES } from './note-constants.js';

export interface EmailFields {
  subject?: string | null;
  to?: string | null;
  from?: string | null;
  text?: string | null;
}

const blank = (v: string | null | undefined) => !v || v.trim() === '';

/** Saving an email note requires a subject (spec notes §2, §5). */
export function emailSaveError(data: EmailFields): string | null {
  return blank(data.subject) ? NOTE_MESSAGES.subjectRequired : null;
}

export const EMAIL_SEND_REQUIREMENTS = ['patient', 'to', 'from', 'body', 'subject'] as const;
export type EmailSendRequirement = (typeof EMAIL_SEND_REQUIREMENTS)[number];

/** What is missing before an email can be sent: patient, to, from, body and subject are required. */
export function emailSendMissing(patientId: string | null | undefined, data: EmailFields): EmailSendRequirement[] {
  const missing: EmailSendRequirement[] = [];
  if (blank(patientId)) missing.push('patient');
  if (blank(data.to)) missing.push('to');
  if (blank(data.from)) missing.push('from');
  if (blank(data.text)) missing.push('body');
  if (blank(data.subject)) missing.push('subject');
  return missing;
}

export const emailSendMissingMessage = (missing: readonly EmailSendRequirement[]) => `The email cannot be sent without ${missing.join(', ')}.`;
