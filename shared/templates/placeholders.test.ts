import { describe, expect, it } from 'vitest';
import type { Note } from '../notes/note-schema.js';
import type { Patient } from '../patients/patient-schema.js';
import {
  ALL_PLACEHOLDER_TOKENS,
  emptyChart,
  expandPlaceholders,
  htmlToText,
  normalizeToken,
  placeholderKeys,
  type PlaceholderContext,
} from './placeholders.js';

const patient: Patient = {
  id: 'p1',
  firstName: 'Ana',
  lastName: 'Ruiz',
  dob: '2000-06-15',
  gender: 'female',
  membershipStatus: 'active',
  status: 'active',
  createdAt: '',
  updatedAt: '',
};
const note = (over: Partial<Note>): Note => ({
  noteId: 'n',
  noteType: 'NOTE',
  status: 'SIGNED',
  signed: null,
  eventTimestamp: '2026-01-01T12:00:00.000Z',
  timestamp: '',
  createdAt: '',
  data: { text: 'body' },
  patientId: 'p1',
  hidden: false,
  files: [],
  author: { userId: 'u', name: 'Dr. Lee' },
  onBehalfOf: null,
  noteVersion: 1,
  ...over,
});
const ctx = (over: Partial<PlaceholderContext> = {}): PlaceholderContext => ({
  now: new Date('2026-06-01T15:04:00Z'),
  user: { name: 'Dr. Lee' },
  patient,
  chart: emptyChart(),
  notes: [],
  ...over,
});

describe('placeholders', () => {
  it('knows every token of the spec table and normalises spelling', () => {
    expect(ALL_PLACEHOLDER_TOKENS).toHaveLength(37);
    expect(normalizeToken(' First_Name ')).toBe('first name');
    expect(normalizeToken('lastVisitNote')).toBe('last visit note');
    expect(placeholderKeys('{{age}} {{ AGE }} {{labs}} {{nope}}')).toEqual(['age', 'labs']);
  });
  it('fills context and patient tokens, with the date in the given time zone', () => {
    const r = expandPlaceholders('{{date}} {{time}} {{first name}} {{preferred name}} {{age}} {{signature}}', ctx({ timeZone: 'America/Los_Angeles' }));
    expect(r.text).toBe('06/01/2026 8:04 AM Ana Ana 25 [Signature: added when the note is signed]');
  });
  it('leaves the signature lines to be written at signing, never naming anyone before', () => {
    const r = expandPlaceholders('<p>{{signature}}</p><p>{{provider signature}}</p>', ctx());
    expect(r.text).toBe('[Signature: added when the note is signed]\n[Provider signature: added when the note is signed]');
    expect(r.text).not.toContain('Electronically signed');
    expect(r.unresolved).toEqual([]);
  });
  it('keeps only signed, addended or sent notes of the extract types in final extract chart notes, never the current note', () => {
    const notes = [
      note({ noteId: 'a', data: { text: 'keep note' } }),
      note({ noteId: 'b', noteType: 'STICKY', data: { text: 'sticky' } }),
      note({ noteId: 'c', status: 'DRAFT', data: { text: 'draft' } }),
      note({ noteId: 'd', noteType: 'EMAIL', status: 'SENT', data: { text: 'mail', subject: 'Hi' } }),
      note({ noteId: 'e', noteType: 'SMS_LOG', status: 'DELIVERED', data: { text: 'sms' } }),
      note({ noteId: 'cur', data: { text: 'myself' } }),
    ];
    const r = expandPlaceholders('{{final extract chart notes}}', ctx({ notes, currentNoteId: 'cur' }));
    expect(r.text).toContain('keep note');
    expect(r.text).toContain('Subject: Hi');
    for (const gone of ['sticky', 'draft', 'sms', 'myself']) expect(r.text).not.toContain(gone);
  });
  it("expands {{form}} to the patient's latest submitted form: its name, date and each answer, the saved responses when the practice kept some", () => {
    const form = (over: Partial<Note>, data: Record<string, unknown>) =>
      note({ noteType: 'FORM', status: 'DELIVERED', ...over, data: { formName: 'New Patient Intake', ...data } as Note['data'] });
    const questions = [
      { Id: 'allergies', Text: 'Are you allergic to anything?', Answer: 'Penicillin\nLatex' },
      { Id: 'tobacco', Text: 'Do you smoke?', Answer: 'Former' },
      { Id: 'occupation', Text: 'Occupation?', Answer: '' },
    ];
    const notes = [
      form(
        { noteId: 'old' },
        { dateSubmitted: '2026-02-01T12:00:00.000Z', submissionData: { Questions: [{ Id: 'x', Text: 'Old question', Answer: 'old answer' }] } },
      ),
      form({ noteId: 'sent', status: 'SENT' }, { dateSubmitted: null }),
      form({ noteId: 'new', status: 'FULFILLED' }, { dateSubmitted: '2026-05-20T12:00:00.000Z', submissionData: { Questions: questions } }),
    ];
    expect(expandPlaceholders('{{form}}', ctx({ notes })).text).toBe(
      'New Patient Intake - submitted 05/20/2026\nAre you allergic to anything?: Penicillin; Latex\nDo you smoke?: Former',
    );
    const kept = notes.map((n) => (n.noteId === 'new' ? { ...n, data: { ...n.data, savedResponses: { questions: [questions[1]] } } } : n));
    expect(expandPlaceholders('{{form}}', ctx({ notes: kept as Note[] })).text).toBe('New Patient Intake - submitted 05/20/2026\nDo you smoke?: Former');
    // Only sent, never submitted: nothing to quote.
    const r = expandPlaceholders('A {{form}} B', ctx({ notes: [notes[1]!] }));
    expect(r.text).toBe('A  B');
    expect(r.unresolved).toEqual(['form']);
  });
  it('removes labs, keeps unknown tokens, lists missing data, escapes HTML and refuses {{form}} without a patient', () => {
    const r = expandPlaceholders('<p>{{labs}}x {{pharmacy}} {{nope}} {{last name}}</p>', ctx({ patient: { ...patient, lastName: '<b>' } }));
    expect(r.formattedText).toBe('<p>x  {{nope}} &lt;b&gt;</p>');
    expect(r.unresolved).toEqual(['pharmacy']);
    expect(r.unknown).toEqual(['nope']);
    expect(() => expandPlaceholders('{{form}}', ctx({ patient: null }))).toThrow('Please select a patient');
    expect(htmlToText('<h3>A</h3><p>b<br>c</p>')).toBe('A\nb\nc');
  });
  it('quotes the latest lab results for {{last lab}} and {{last 3 labs}}, flags out-of-range values, and skips orders still at the lab', () => {
    const result = (code: string, text: string, value: number, low: number, high: number, interpretation: string) => ({
      id: code,
      code,
      text,
      valueQuantity: { value, unit: 'mg/dL' },
      ranges: [{ low, high }],
      interpretation,
    });
    const notes = [
      note({
        noteId: 'l1',
        noteType: 'LAB',
        status: 'DELIVERED',
        eventTimestamp: '2026-01-01T10:00:00.000Z',
        data: { results: [result('2345-7', 'Glucose', 92, 70, 99, 'N')] },
      }),
      note({
        noteId: 'l2',
        noteType: 'LAB',
        status: 'DELIVERED',
        eventTimestamp: '2026-03-01T10:00:00.000Z',
        data: { results: [result('2345-7', 'Glucose', 128, 70, 99, 'H')] },
      }),
      note({ noteId: 'l3', noteType: 'LAB', status: 'SENT', eventTimestamp: '2026-04-01T10:00:00.000Z', data: { text: 'waiting' } }),
    ];
    const last = expandPlaceholders('{{last lab}}', ctx({ notes }));
    expect(last.text).toContain('Glucose: 128 mg/dL (H) [70–99]');
    expect(last.text).not.toContain('92 mg/dL');
    expect(last.text).not.toContain('waiting');
    const three = expandPlaceholders('{{last 3 labs}}', ctx({ notes }));
    expect(three.text).toContain('Glucose: 128 mg/dL (H) [70–99]');
    expect(three.text).toContain('Glucose: 92 mg/dL [70–99]');
  });
});
