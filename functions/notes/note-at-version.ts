import { NOTE_MESSAGES } from '../../shared/notes/note-constants.js';
import type { Note } from '../../shared/notes/note-schema.js';
import { ConflictError, NotFoundError } from '../lib/errors.js';
import { tableName } from '../lib/table/definition.js';
import { getNote, toItem } from '../data/notes/note-repository.js';

/**
 * The transaction item that writes a note's next version only over the version it was read at
 * (the optimistic lock of every note write), for writes that change other items with the note.
 */
export function putNoteAtVersion(practiceId: string, next: Note, seenVersion: number) {
  return {
    Put: {
      TableName: tableName(),
      Item: toItem(practiceId, next),
      ConditionExpression: 'attribute_exists(sk) AND noteVersion = :seen',
      ExpressionAttributeValues: { ':seen': seenVersion },
    },
  };
}

/** What a failed putNoteAtVersion answers: 409 with the stored version, so the window can reload it (404 if the note is gone). */
export async function staleNoteVersion(practiceId: string, noteId: string): Promise<ConflictError | NotFoundError> {
  const still = await getNote(practiceId, noteId);
  return still ? new ConflictError(NOTE_MESSAGES.staleVersion, { noteVersion: still.noteVersion }) : new NotFoundError(NOTE_MESSAGES.notFound);
}
