import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Note } from '../../../shared/notes/note-schema.js';
import { startTestTable, TEST_PRACTICE } from '../../../test/support/test-table.js';
import { documentClient } from '../../lib/table/client.js';
import { tableName } from '../../lib/table/definition.js';
import { noteKey, toItem } from '../notes/note-repository.js';
import { formMappingKey, formQuestionsKey, getFormMappingRecords, putResentFormNote } from './form-intakes.js';

let table: { stop(): Promise<void> };
beforeAll(async () => {
  table = await startTestTable();
});
afterAll(async () => table?.stop());

const formNote = (noteVersion: number, data: Record<string, unknown>): Note =>
  ({
    noteId: 'form-1',
    noteType: 'FORM',
    status: 'SENT',
    patientId: 'pat-1',
    noteVersion,
    timestamp: '2026-12-01T10:00:00.000Z',
    data: { formName: 'Intake', ...data },
  }) as unknown as Note;
const stored = async () =>
  (await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId: TEST_PRACTICE, sk: noteKey('form-1') }, ConsistentRead: true })))
    .Item;

describe('a resent form note', () => {
  it('takes the new sending date only over the version read; a submission that landed meanwhile is kept and the caller is told', async () => {
    await documentClient().send(new PutCommand({ TableName: tableName(), Item: toItem(TEST_PRACTICE, formNote(1, {})) }));
    // The patient's submission lands between the resend's read (version 1) and its write.
    await documentClient().send(new PutCommand({ TableName: tableName(), Item: toItem(TEST_PRACTICE, formNote(2, { submitted: true })) }));
    expect(await putResentFormNote(TEST_PRACTICE, formNote(2, { dateSent: '2026-12-03T09:00:00.000Z' }), 1)).toBe(false);
    expect((await stored())?.data).toEqual({ formName: 'Intake', submitted: true });

    // Read again, the date goes on the note as it now is.
    expect(await putResentFormNote(TEST_PRACTICE, formNote(3, { submitted: true, dateSent: '2026-12-03T09:00:00.000Z' }), 2)).toBe(true);
    expect(await stored()).toMatchObject({ noteVersion: 3, data: { formName: 'Intake', submitted: true, dateSent: '2026-12-03T09:00:00.000Z' } });
  });
});

describe("a questionnaire's stored questions", () => {
  const put = (sk: string, item: Record<string, unknown>) =>
    documentClient().send(new PutCommand({ TableName: tableName(), Item: { practiceId: TEST_PRACTICE, sk, ...item } }));

  it('read as the mapping and the latest submission keep them; none stored reads as none', async () => {
    await put(formMappingKey('qn-1'), {
      entityType: 'FORM_MAPPING',
      formId: 'qn-1',
      questions: [{ id: 'q1', title: 'Allergies?', section: 'ALLERGIES', enabled: true, titleOverride: '', type: 'Text', subType: null }],
    });
    await put(formQuestionsKey('qn-1'), {
      entityType: 'FORM_QUESTIONS',
      formId: 'qn-1',
      questions: [{ id: 'q2', title: 'Smoke?', type: 'Text', subType: null }],
    });
    expect(await getFormMappingRecords(TEST_PRACTICE, 'qn-1')).toEqual({
      saved: [{ id: 'q1', title: 'Allergies?', section: 'ALLERGIES', enabled: true, titleOverride: '', type: 'Text', subType: null }],
      asked: [{ id: 'q2', title: 'Smoke?', type: 'Text', subType: null }],
    });
    expect(await getFormMappingRecords(TEST_PRACTICE, 'qn-none')).toEqual({ saved: [], asked: [] });
  });

  it('a question that does not fit is refused, naming the item and the field', async () => {
    await put(formMappingKey('qn-2'), { entityType: 'FORM_MAPPING', formId: 'qn-2', questions: [{ id: 'q1', section: 'NOWHERE', enabled: 'yes' }] });
    await expect(getFormMappingRecords(TEST_PRACTICE, 'qn-2')).rejects.toThrow(
      'Stored form mapping item FORMMAPPING#qn-2 does not fit its schema: questions.0.section, questions.0.enabled',
    );
  });
});
