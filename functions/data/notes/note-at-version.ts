import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { NOTE_MESSAGES } from '../../../shared/notes/note-constants.js';
import type { Note } from '../../../shared/notes/note-schema.js';
import { ConflictError, NotFoundError } from '../../lib/errors.js';
import { documentClient } from '../../lib/table/client.js';
import { tableName } from '../../lib/table/definition.js';
import { unchangedSince } from '../../lib/table/put-if-unchanged.js';
import { getNote, toItem } from './note-repository.js';

/** One item of a TransactWriteItems call, as the data layer's item builders return them. */
export type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];
/** Why each item of a cancelled transaction failed, in the order they were written. */
export type CancellationReasons = ({ Code?: string } | null)[];

/**
 * The transaction item that writes a note's next version only over the version it was read at
 * (the optimistic lock of every note write), for writes that change other items with the note.
 */
export function putNoteAtVersion(practiceId: string, next: Note, seenVersion: number) {
  return {
    Put: {
      TableName: tableName(),
      Item: toItem(practiceId, next),
      ...unchangedSince('noteVersion', seenVersion),
    },
  };
}

/** What a failed putNoteAtVersion answers: 409 with the stored version, so the window can reload it (404 if the note is gone). */
export async function staleNoteVersion(practiceId: string, noteId: string): Promise<ConflictError | NotFoundError> {
  const still = await getNote(practiceId, noteId);
  return still ? new ConflictError(NOTE_MESSAGES.staleVersion, { noteVersion: still.noteVersion }) : new NotFoundError(NOTE_MESSAGES.notFound);
}

/**
 * The note's next version (over the version it was read at) first, then `others`, in one
 * transaction. A cancellation is thrown as DynamoDB answered it: what its reasons mean (the note
 * changed, stock ran out) depends on the write, so the caller maps them.
 */
export async function writeNoteWith(practiceId: string, next: Note, seenVersion: number, others: readonly TransactItem[] = []): Promise<void> {
  await documentClient().send(new TransactWriteCommand({ TransactItems: [putNoteAtVersion(practiceId, next, seenVersion), ...others] }));
}
