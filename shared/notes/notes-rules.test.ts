import { describe, expect, it } from 'vitest';
import { emailSaveError, emailSendMissing, emailSendMissingMessage } from './email.js';
import { uploadError } from './files.js';
import { isLockable, NOTE_MESSAGES, NOTE_STATUS_TONE } from './note-constants.js';
import { noteSaveProblem, statusAfterSave, statusAfterSign } from './note-rules.js';
import { NotesPageQuery } from './note-schema.js';
import { bmi, normalizeVitals, showsHeadCircumference, vitalsLines } from './vitals.js';
import { hasWildcard, nextWildcardOffset, wildcardOffsets } from './wildcard.js';

const on = new Date('2026-06-01T12:00:00Z');

describe('vitals', () => {
  it('computes BMI as weight × 703 / height², two decimals', () => {
    expect(bmi(180, 70)).toBe(25.82);
    expect(bmi(150, 65)).toBe(24.96);
    expect(bmi(180, null)).toBeNull();
    expect(bmi(180, 0)).toBeNull();
  });
  it('normalises typed values and fills BMI with fixed units', () => {
    const v = normalizeVitals({ weight: '180', height: 70, systolic: '120', diastolic: '' });
    expect(v).toMatchObject({ weight: 180, height: 70, systolic: 120, bmi: 25.82, tempUnit: '°F', heightUnit: 'in', weightUnit: 'lb' });
    expect(v.diastolic).toBeUndefined();
  });
  it('shows head circumference up to age 20 or without a dob', () => {
    expect(showsHeadCircumference('2006-06-01', on)).toBe(true);
    expect(showsHeadCircumference('2005-05-31', on)).toBe(false);
    expect(showsHeadCircumference(undefined, on)).toBe(true);
  });
  it('prints vitals with their units', () => {
    expect(vitalsLines({ systolic: 120, diastolic: 80, temp: 98.6, spo2: 99 })).toEqual([
      'Blood pressure: 120/80 mmHg',
      'SpO2: 99%',
      'Temperature: 98.6 °F',
    ]);
  });
});

describe('wildcards', () => {
  it('finds every *** and walks forwards and backwards with wrap', () => {
    const t = 'a *** b *** c';
    expect(hasWildcard(t)).toBe(true);
    expect(wildcardOffsets(t)).toEqual([2, 8]);
    expect(nextWildcardOffset(t, 0)).toBe(2);
    expect(nextWildcardOffset(t, 2)).toBe(8);
    expect(nextWildcardOffset(t, 9)).toBe(2);
    expect(nextWildcardOffset(t, 8, true)).toBe(2);
    expect(nextWildcardOffset(t, 0, true)).toBe(8);
    expect(nextWildcardOffset('none', 0)).toBeNull();
  });
});

describe('save rules', () => {
  it('refuses no patient, no data, empty text and a wildcard with the spec messages', () => {
    expect(noteSaveProblem({ noteType: 'NOTE', patientId: null, data: { text: 'x' } })?.message).toBe(NOTE_MESSAGES.missingPatient);
    expect(noteSaveProblem({ noteType: 'NOTE', patientId: 'p', data: {} })?.message).toBe(NOTE_MESSAGES.noData);
    expect(noteSaveProblem({ noteType: 'NOTE', patientId: 'p', data: { text: ' ', formattedText: '<p></p>' } })?.message).toBe(
      NOTE_MESSAGES.emptyText,
    );
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
});

describe('email, files, lock, colours, paging', () => {
  it('lists what an email send is missing', () => {
    expect(emailSaveError({ subject: ' ' })).toBe('Subject is required');
    const missing = emailSendMissing(null, { to: 'a@b.c', subject: 's' });
    expect(missing).toEqual(['patient', 'from', 'body']);
    expect(emailSendMissingMessage(missing)).toBe('The email cannot be sent without patient, from, body.');
  });
  it('checks extension and size', () => {
    expect(uploadError('scan.PDF', 1000)).toBeNull();
    expect(uploadError('run.exe')).toBe('This file is not a supported file format');
    expect(uploadError('page.html')).toBe('This file is not a supported file format');
    expect(uploadError('thing.qqq')).toBe('This file is not a supported file format');
    expect(uploadError('big.pdf', 250_000_001)).toBe('This file is too large');
  });
  it('locks only document, note, phone call and lab; colours per status', () => {
    expect(['DOCUMENT', 'NOTE', 'PHONE_CALL', 'LAB'].every((t) => isLockable(t as never))).toBe(true);
    expect(isLockable('EMAIL')).toBe(false);
    expect(NOTE_STATUS_TONE.DRAFT).toBe('info');
    expect(NOTE_STATUS_TONE.WRITTEN).toBe('warning');
    expect(NOTE_STATUS_TONE.TEMPLATE).toBe('dark');
    expect(NOTE_STATUS_TONE.FAILED).toBe('danger');
  });
  it('pages 50 by default and parses comma lists', () => {
    const q = NotesPageQuery.parse({ patientId: 'p', noteTypes: 'NOTE,VITALS', statuses: 'DRAFT' });
    expect(q).toMatchObject({ limit: 50, offset: 0, noteTypes: ['NOTE', 'VITALS'], statuses: ['DRAFT'] });
    expect(NotesPageQuery.safeParse({ patientId: 'p', noteTypes: 'BOGUS' }).success).toBe(false);
  });
});
