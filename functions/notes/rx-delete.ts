import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { NOTE_MESSAGES } from '../../shared/notes/note-constants.js';
import type { Note } from '../../shared/notes/note-schema.js';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { chartItemKey, CHART_SECTION_KEYS, listSection } from '../chart/chart-repository.js';
import { queryAll } from '../lib/table/query-all.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { ConflictError, NotFoundError } from '../lib/errors.js';
import { documentClient } from '../lib/table/client.js';
import { tableName } from '../lib/table/definition.js';
import { getNote, toItem } from './note-repository.js';

/** DynamoDB's limit of items in one TransactWriteItems call: the note, and two writes per medication. */
const MAX_MEDICATIONS = 49;

/*
 * A removed medication is kept, whole, beside its deleted note (pk practiceId, sk
 * REMOVED_MEDICATION#<noteId>#<ident>), written in the delete's transaction, so an admin who
 * restores the note gets the same medication back.
 */
const removedPrefix = (noteId: string) => `REMOVED_MEDICATION#${noteId}#`;

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
 * Deletes a prescription note and, in the same transaction, the chart medications it added (kept
 * beside the note for a restore): if the note changed meanwhile nothing is written (409 with the
 * stored version); a medication already removed from the card is simply not there to remove.
 */
export async function writeDeletedPrescription(auth: AuthContext, current: Note, changes: Partial<Note>, now: Date): Promise<Note> {
  const practiceId = auth.practiceId;
  const next: Note = { ...current, ...changes, noteVersion: current.noteVersion + 1, timestamp: now.toISOString() };
  const patientId = current.patientId;
  const idents = patientId ? (await medicationsOf(practiceId, current)).slice(0, MAX_MEDICATIONS) : [];
  const stored = [];
  for (const ident of idents) {
    const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: chartItemKey(patientId!, 'medications', ident) }, ConsistentRead: true }));
    if (out.Item) stored.push(out.Item);
  }
  await transactNoteWith(practiceId, current, next, [
    ...stored.flatMap((item) => [
      { Delete: { TableName: tableName(), Key: { practiceId, sk: item.sk } } },
      { Put: { TableName: tableName(), Item: { ...item, sk: `${removedPrefix(current.noteId)}${String(item.ident)}`, entityType: 'REMOVED_MEDICATION', removedAt: now.toISOString() } } },
    ]),
  ]);
  for (const item of stored) await writeAudit(auth, { action: 'delete', entity: 'medication', entityId: String(item.ident), patientId: patientId! });
  return next;
}

/** Restoring a deleted prescription puts back the chart medications its delete removed, in the same transaction. */
export async function writeRestoredPrescription(auth: AuthContext, current: Note, changes: Partial<Note>, now: Date): Promise<Note> {
  const practiceId = auth.practiceId;
  const next: Note = { ...current, ...changes, noteVersion: current.noteVersion + 1, timestamp: now.toISOString() };
  const kept = (
    await queryAll({
      KeyConditionExpression: 'practiceId = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': practiceId, ':prefix': removedPrefix(current.noteId) },
      ConsistentRead: true,
    })
  ).slice(0, MAX_MEDICATIONS);
  await transactNoteWith(practiceId, current, next, [
    ...kept.flatMap((item) => {
      // eslint-disable-next-line @typescript-eslint/no-unused-vars
      const { removedAt, ...medication } = item;
      const patientId = String(item.patientId);
      return [
        { Delete: { TableName: tableName(), Key: { practiceId, sk: item.sk } } },
        {
          Put: {
            TableName: tableName(),
            Item: { ...medication, sk: chartItemKey(patientId, 'medications', String(item.ident)), entityType: `CHART_${CHART_SECTION_KEYS.medications}` },
            ConditionExpression: 'attribute_not_exists(sk)',
          },
        },
      ];
    }),
  ]);
  for (const item of kept) await writeAudit(auth, { action: 'restore', entity: 'medication', entityId: String(item.ident), patientId: String(item.patientId) });
  return next;
}

/** The note's next version and `others` in one transaction; a note changed meanwhile is a 409 with the stored version. */
async function transactNoteWith(practiceId: string, current: Note, next: Note, others: NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>): Promise<void> {
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
          ...others,
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
}
