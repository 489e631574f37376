import { describe, expect, it } from 'vitest';
import type { NoteStatus, NoteType } from './note-constants.js';
import { NOTE_MESSAGES } from './note-constants.js';
import { canEditNote, noteSaveProblem, statusAfterSave, statusAfterSign } from './note-rules.js';

const on = new Date('2026-06-01T12:00:00Z');

describe('save rules', () => {
  it('refuses no patient, no data, empty text and a wildcard with the spec messages', () => {
    expect(noteSaveProblem({ noteType: 'NOTE', patientId: null, data: { text: 'x' } })?.message).toBe(NOTE_MESSAGES.missingPatient);
    expect(noteSaveProblem({ noteType: 'NOTE', patientId: 'p', data: {} })?.message).toBe(NOTE_MESSAGES.noData);
    expect(noteSaveProblem({ noteType: 'NOTE', patientId: 'p', data: { text: ' ', formattedText: '<p></p>' } })?.message).toBe(NOTE_MESSAGES.emptyText);
    expect(noteSaveProblem({ noteType: 'NOTE', patientId: 'p', data: { text: 'BP ***', formattedText: '<p>BP ***</p>' } })?.message).toBe(
      'There is still a wildcard in the note',
    );
    expect(noteSaveProblem({ noteType: 'NOTE', patientId: 'p', data: { text: 'ok' } })).toBeNull();
  });
  it('requires an email subject and valid vitals', () => {
    expect(noteSaveProblem({ noteType: 'EMAIL', patientId: 'p', data: { text: 'hi' } })?.message).toBe('Subject is required');
    expect(noteSaveProblem({ noteType: 'VITALS', patientId: 'p', data: { weight: 'heavy' } })?.message).toBe('Weight must be a number');
    expect(noteSaveProblem({ noteType: 'VITALS', patientId: 'p', data: { weight: '' } })?.message).toBe('Enter at least one vital sign.');
    expect(noteSaveProblem({ noteType: 'VITALS', patientId: 'p', data: { headCircumference: 14 } }, '1970-01-01', on)?.message).toBe(
      'Head circumference is recorded only for patients 20 or younger.',
    );
    expect(noteSaveProblem({ noteType: 'DOCUMENT', patientId: 'p', data: { text: '' }, files: [{ key: 'k', name: 'a.pdf' }] })).toBeNull();
  });
  it('moves statuses as the spec says', () => {
    expect(statusAfterSave('NOTE', 'DRAFT')).toBe('DRAFT');
    expect(statusAfterSave('EMAIL', 'DRAFT')).toBe('WRITTEN');
    expect(statusAfterSave('SMS_LOG', 'DRAFT')).toBe('DELIVERED');
    expect(statusAfterSign('NOTE', 'DRAFT')).toBe('SIGNED');
    expect(statusAfterSign('SMS_LOG', 'DELIVERED')).toBe('DELIVERED');
    expect(statusAfterSign('FORM', 'SENT')).toBe('SENT');
  });
  it('lets a plain save edit drafts, written emails and delivered SMS logs, never a signed or sent note', () => {
    const note = (noteType: NoteType, status: NoteStatus, signed?: string) => ({ noteType, status, signed });
    expect([note('NOTE', 'DRAFT'), note('EMAIL', 'WRITTEN'), note('NOTE', 'HIDDEN'), note('SMS_LOG', 'DELIVERED')].map(canEditNote)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    // Spec notes §7: signed notes change only by addendum or update-signed; a delivered SMS log that was signed is signed.
    expect(
      [
        note('NOTE', 'SIGNED'),
        note('NOTE', 'ADDENDED'),
        note('SMS_LOG', 'DELIVERED', '2026-06-01T12:00:00Z'),
        note('NOTE', 'DRAFT', '2026-06-01T12:00:00Z'),
      ].map(canEditNote),
    ).toEqual([false, false, false, false]);
    // Only an SMS log is saved as delivered; any other delivered note has gone out and stays as sent.
    expect([note('EMAIL', 'DELIVERED'), note('FORM', 'DELIVERED'), note('FORM', 'SENT'), note('NOTE', 'DELETED')].map(canEditNote)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });
});
