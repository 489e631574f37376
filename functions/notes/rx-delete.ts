import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { NOTE_MESSAGES } from '../../shared/notes/note-constants.js';
import type { Note } from '../../shared/notes/note-schema.js';
import { chartItemKey, listSection } from '../chart/chart-repository.js';
import { ConflictError, NotFoundError } from '../lib/errors.js';
import { documentClient } from '../lib/table/client.js';
import { tableName } from '../lib/table/definition.js';
import { getNote, toItem } from './note-repository.js';

/** DynamoDB's limit of items in one TransactWriteItems call. */
const MAX_TRANSACT_ITEMS = 100;

/**
 * The chart medications a prescription note added: an in-house RX names its medication
 * (data.medicationId); a DoseSpot prescription's medication carries the note's id. Both are found
 * by the noteId link, so a medication an older sync wrote without the name on the note goes too.
 */
async function medicationsOf(practiceId: string, note: Note): Promise<string[]> {
  if (!note.patientId) return [];
  const linked = (await listSection<{ ident: string; noteId?: string; rxId?: string }>(practiceId, note.patientId, 'medications'))
    .filter((m) => m.noteId === note.noteId || m.rxId === note.noteId)
    .map((m) => m.ident);
  const named = typeof note.data.medicationId === 'string' ? [note.data.medicationId] : [];
  return [...new Set([...named, ...linked])];
}

/**
 * Deletes a prescription note and, in the same transaction, the chart medications it added: if
 * the note changed meanwhile nothing is written (409 with the stored version), and a medication
 * already removed from the card is simply gone (Delete of a missing item succeeds).
 */
export async function writeDeletedPrescription(
  practiceId: string,
  current: Note,
  changes: Partial<Note>,
  now: Date,
): Promise<{ saved: Note; removedMedications: { patientId: string; ident: string }[] }> {
  const next: Note = { ...current, ...changes, noteVersion: current.noteVersion + 1, timestamp: now.toISOString() };
  const patientId = current.patientId;
  const idents = patientId ? (await medicationsOf(practiceId, current)).slice(0, MAX_TRANSACT_ITEMS - 1) : [];
  try {
    await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: tableName(),
              Item: toItem(practiceId, next),
              ConditionExpression: 'attribute_exists(sk) AND noteVersion = :seen',
              ExpressionAttributeValues: { ':seen': current.noteVersion },
            },
          },
          ...idents.map((ident) => ({ Delete: { TableName: tableName(), Key: { practiceId, sk: chartItemKey(patientId!, 'medications', ident) } } })),
        ],
      }),
    );
  } catch (error) {
    const e = error as { name?: string; CancellationReasons?: ({ Code?: string } | null)[] };
    if (e?.name !== 'TransactionCanceledException' || e.CancellationReasons?.[0]?.Code !== 'ConditionalCheckFailed') throw error;
    const still = await getNote(practiceId, current.noteId);
    if (!still) throw new NotFoundError(NOTE_MESSAGES.notFound);
    throw new ConflictError(NOTE_MESSAGES.staleVersion, { noteVersion: still.noteVersion });
  }
  return { saved: next, removedMedications: idents.map((ident) => ({ patientId: patientId!, ident })) };
}
