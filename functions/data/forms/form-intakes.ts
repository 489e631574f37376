import { GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import * as z from '../../../shared/zod.js';
import { MappingSectionSchema } from '../../../shared/forms/forms.js';
import type { Note } from '../../../shared/notes/note-schema.js';
import { documentClient } from '../../lib/table/client.js';
import { parseItem } from '../../lib/table/item.js';
import { tableName } from '../../lib/table/definition.js';
import { putIfUnchanged, unchangedSince } from '../../lib/table/put-if-unchanged.js';
import { getNote, toItem } from '../notes/note-repository.js';

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
  await documentClient().send(
    new PutCommand({
      TableName: tableName(),
      Item: { practiceId, sk: formQuestionsKey(formId), entityType: 'FORM_QUESTIONS', formId, questions, updatedAt: at },
    }),
  );
}

/**
 * A sent form's FORM note (the draft's next version over the version it was read at, or a new
 * note) and its intake's item, written once, in one transaction.
 */
export async function writeSentFormNote(
  practiceId: string,
  note: Note,
  draftVersion: number | null,
  intake: { intakeId: string; patientId: string; createdAt: string },
): Promise<void> {
  await documentClient().send(
    new TransactWriteCommand({
      TransactItems: [
        draftVersion !== null
          ? { Put: { TableName: tableName(), Item: toItem(practiceId, note), ...unchangedSince('noteVersion', draftVersion) } }
          : { Put: { TableName: tableName(), Item: toItem(practiceId, note), ConditionExpression: 'attribute_not_exists(sk)' } },
        {
          Put: {
            TableName: tableName(),
            Item: {
              practiceId,
              sk: formIntakeKey(intake.intakeId),
              entityType: 'FORM_INTAKE',
              intakeId: intake.intakeId,
              noteId: note.noteId,
              patientId: intake.patientId,
              createdAt: intake.createdAt,
            },
            ConditionExpression: 'attribute_not_exists(sk)',
          },
        },
      ],
    }),
  );
}

/** A resent form's FORM note, written only over the version it was read at. */
/** False when another write (the submission's webhook, an edit) changed the note since it was read. */
export function putResentFormNote(practiceId: string, next: Note, seenVersion: number): Promise<boolean> {
  return putIfUnchanged(toItem(practiceId, next), 'noteVersion', seenVersion);
}

/** A question as a mapping or a submission's question list keeps it. */
const StoredFormQuestion = z.looseObject({
  id: z.string(),
  title: z.optional(z.string()),
  type: z.optional(z.string()),
  subType: z.optional(z.nullable(z.string())),
  section: z.optional(z.nullable(MappingSectionSchema)),
  enabled: z.optional(z.boolean()),
  titleOverride: z.optional(z.string()),
});
export type StoredFormQuestion = z.output<typeof StoredFormQuestion>;
/** A FORMMAPPING or FORMQUESTIONS item: its question list (none when the item has none). */
const StoredFormQuestions = z.looseObject({ questions: z._default(z.array(StoredFormQuestion), []) });

const questionsOf = (item: Record<string, unknown> | undefined, entity: string) => (item ? parseItem(entity, StoredFormQuestions, item).questions : []);

/** The questionnaire's saved mapping and the questions its latest submission asked (each empty when absent). */
export async function getFormMappingRecords(practiceId: string, formId: string): Promise<{ saved: StoredFormQuestion[]; asked: StoredFormQuestion[] }> {
  const [mapping, known] = await Promise.all(
    [formMappingKey(formId), formQuestionsKey(formId)].map((sk) => documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk } }))),
  );
  return { saved: questionsOf(mapping!.Item, 'form mapping'), asked: questionsOf(known!.Item, 'form questions') };
}

/** Replaces the questionnaire's mapping for the whole practice. */
export async function putFormMapping(
  practiceId: string,
  formId: string,
  questions: readonly Record<string, unknown>[],
  updatedAt: string,
  updatedBy: string,
): Promise<void> {
  await documentClient().send(
    new PutCommand({
      TableName: tableName(),
      Item: { practiceId, sk: formMappingKey(formId), entityType: 'FORM_MAPPING', formId, questions, updatedAt, updatedBy },
    }),
  );
}
