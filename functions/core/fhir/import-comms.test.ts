import { describe, expect, it } from 'vitest';
import { commsContext, planCall, planFax, planFormResponse } from './import-comms.js';

const PHONE = [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ParticipationMode', code: 'PHONE' }] }];
const FAX = [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ParticipationMode', code: 'FAXWRIT' }] }];
const text = (s: string) => Buffer.from(s).toString('base64');
const noteDoc = (system: string, value: string, type: string, body: string) => ({
  resourceType: 'DocumentReference',
  identifier: [{ system, value }],
  type: { text: type },
  content: [{ attachment: { contentType: 'text/plain; charset=utf-8', data: text(body) } }],
  context: { period: { start: '2025-01-01T08:00:00.000Z' } },
});

describe('calls, faxes and form responses from a bundle', () => {
  it("a Tidewell fax's own note and its PDF are left out, the fax comes in with the note's date and the PDF found by its path", () => {
    const note = noteDoc('https://tidewell.app/fhir/identifier/prc_a/note', 'n1', 'FAX', 'Records attached.');
    const pdf = {
      resourceType: 'DocumentReference',
      content: [{ attachment: { url: 'files/0001-fax.pdf', data: text('%PDF-1.4 x') } }],
      context: { related: [{ reference: 'urn:uuid:note' }] },
    };
    const fax = {
      resourceType: 'Communication',
      identifier: [{ system: 'https://tidewell.app/fhir/identifier/prc_a/fax', value: 'n1' }],
      status: 'completed',
      medium: FAX,
      sent: '2025-01-01T09:00:00.000Z',
      category: [{ text: 'Fax sent' }],
      note: [{ text: 'To fax +15035550199 (Dr. Lee)' }, { text: '2 pages' }],
      payload: [{ contentString: 'Records attached.' }, { contentAttachment: { contentType: 'application/pdf', title: 'fax.pdf', url: 'files/0001-fax.pdf' } }],
    };
    const ctx = commsContext([{ fullUrl: 'urn:uuid:note', resource: note }, { fullUrl: 'urn:uuid:pdf', resource: pdf }, { resource: fax }]);
    expect([ctx.leftOut.get(note), ctx.leftOut.get(pdf)]).toEqual(['Brought in through its fax', 'Brought in through its fax']);
    const planned = planFax(fax, ctx).planned!;
    expect(planned).toMatchObject({
      noteType: 'FAX',
      status: 'DELIVERED',
      at: '2025-01-01T08:00:00.000Z',
      data: { direction: 'OUTBOUND', to: '+15035550199', recipientName: 'Dr. Lee', text: 'Records attached.', pages: 2, sentAt: '2025-01-01T09:00:00.000Z' },
    });
    expect(planned.files.map((f) => [f.name, f.bytes.toString()])).toEqual([['fax.pdf', '%PDF-1.4 x']]);
  });

  it("another system's note with the same id is not taken for the fax's own", () => {
    const note = noteDoc('https://ehr.example/note', 'n1', 'FAX', 'Their note');
    const fax = {
      resourceType: 'Communication',
      identifier: [{ system: 'https://ehr.example/fax', value: 'n1' }],
      status: 'completed',
      medium: FAX,
      received: '2025-01-01T09:00:00Z',
      payload: [{ contentAttachment: { contentType: 'application/pdf', url: 'https://ehr.example/Binary/1' } }],
    };
    const ctx = commsContext([{ resource: note }, { resource: fax }]);
    expect(ctx.leftOut.size).toBe(0);
    expect(planFax(fax, ctx)).toMatchObject({
      summary: 'Fax received on 2025-01-01 (its PDF is not in the bundle)',
      planned: { data: { direction: 'INBOUND', text: 'Fax received' }, files: [] },
    });
  });

  it('a call names who took it and its outcome; a call too long to keep, or never held, is left out saying why', () => {
    const ctx = commsContext([]);
    const call = {
      resourceType: 'Communication',
      status: 'not-done',
      statusReason: { text: 'Missed call' },
      medium: PHONE,
      received: '2025-02-01T10:00:00Z',
      recipient: [{ reference: 'Practitioner/1', display: 'Sam Front' }],
      note: [{ text: 'From phone +15555550100' }],
    };
    expect(planCall(call, ctx, new Set())).toMatchObject({
      summary: 'Call on 2025-02-01: Missed call (from +15555550100)',
      planned: {
        noteType: 'PHONE_CALL',
        status: 'SIGNED',
        data: {
          text: 'Call from (555) 555-0100: Missed call',
          direction: 'INBOUND',
          from: '+15555550100',
          missed: true,
          importedCall: { userName: 'Sam Front', status: 'not-done', outcome: 'Missed call' },
        },
      },
    });
    expect(planCall({ ...call, payload: [{ contentString: 'x'.repeat(200_000) }] }, ctx, new Set()).reason).toMatch(/^Text must be at most/);
    expect(planCall({ ...call, status: 'entered-in-error' }, ctx, new Set()).reason).toBe('It was entered in error');
    expect(planCall({ ...call, received: undefined }, ctx, new Set()).reason).toBe('It has no date');
  });

  it('a form response keeps every answer, nested ones too, and is left out while unfinished', () => {
    const qr = {
      resourceType: 'QuestionnaireResponse',
      status: 'amended',
      questionnaire: 'https://ehr.example/Questionnaire/phq',
      authored: '2025-03-01T10:00:00Z',
      item: [
        {
          linkId: 'g',
          text: 'Group',
          item: [
            { linkId: 'a', text: 'Age', answer: [{ valueInteger: 42 }] },
            { linkId: 'b', text: 'Weight', answer: [{ valueQuantity: { value: 70, unit: 'kg' } }] },
          ],
        },
        { linkId: 'c', text: 'Empty' },
      ],
    };
    const planned = planFormResponse(qr, commsContext([])).planned!;
    expect(planned).toMatchObject({
      noteType: 'FORM',
      status: 'DELIVERED',
      data: { formId: 'phq', formName: 'phq', imported: true, dateSubmitted: '2025-03-01T10:00:00.000Z' },
    });
    expect((planned.data.submissionData as { Questions: unknown[] }).Questions).toEqual([
      { Id: 'a', Text: 'Age', Answer: '42', QuestionType: 'OpenQuestion' },
      { Id: 'b', Text: 'Weight', Answer: '70 kg', QuestionType: 'OpenQuestion' },
      { Id: 'c', Text: 'Empty', Answer: '', QuestionType: 'OpenQuestion' },
    ]);
    expect(planFormResponse({ ...qr, status: 'in-progress' }, commsContext([])).reason).toBe('The form was not finished');
  });
});
