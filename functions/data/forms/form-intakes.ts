import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Note } from '../../../shared/notes/note-schema.js';
import { documentClient } from '../../lib/table/client.js';
import { tableName } from '../../lib/table/definition.js';
import { getNote } from '../notes/note-repository.js';

/*
 * Items (docs/access-patterns.md): pk practiceId, sk FORMINTAKE#<intakeId> → the FORM note an
 * IntakeQ intake belongs to (written with the note, read by resend and the webhook);
 * sk FORMMAPPING#<formId> → the practice's saved mapping of a questionnaire's questions;
 * sk FORMQUESTIONS#<formId> → the questions of the questionnaire's latest submission (IntakeQ's API
 * lists questionnaires without their questions, so the mapping editor knows them from submissions).
 */
export const formIntakeKey = (intakeId: string) => `FORMINTAKE#${intakeId}`;
export const formMappingKey = (formId: string) => `FORMMAPPING#${formId}`;
export const formQuestionsKey = (formId: string) => `FORMQUESTIONS#${formId}`;

export async function formNoteOfIntake(practiceId: string, intakeId: string): Promise<Note | null> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: formIntakeKey(intakeId) }, ConsistentRead: true }));
  if (!out.Item) return null;
  const note = await getNote(practiceId, String(out.Item.noteId));
  return note && note.noteType === 'FORM' && note.status !== 'DELETED' ? note : null;
}

export interface FormQuestion {
  id: unknown;
  title: unknown;
  type: unknown;
  subType: unknown;
}

/** The questionnaire's questions as its latest submission asked them, for the mapping editor. */
export async function putFormQuestions(practiceId: string, formId: string, questions: FormQuestion[], at: string): Promise<void> {
  await documentClient().send(new PutCommand({ TableName: tableName(), Item: { practiceId, sk: formQuestionsKey(formId), entityType: 'FORM_QUESTIONS', formId, questions, updatedAt: at } }));
}
