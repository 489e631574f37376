import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { TranscriptionRecord, type TranscriptionStatus, type TranscriptionStatusResponse } from '../../../shared/ai/transcription-schema.js';
import { NotFoundError } from '../../lib/errors.js';
import { documentClient } from '../../lib/table/client.js';
import { tableName } from '../../lib/table/definition.js';
import { parseItem, type Item } from '../../lib/table/item.js';

/*
 * Transcription items (README access patterns):
 *   item   pk practiceId, sk TRANSCRIPTION#<transcriptionId>
 * Read by id only: a note names its run in data.transcriptionId. The transcript and the generated
 * note live in the files bucket beside the recording (they can outgrow an item); the item keeps the
 * status, the keys of those objects and the chart proposals (their decisions are item writes).
 */
export const transcriptionKey = (transcriptionId: string) => `TRANSCRIPTION#${transcriptionId}`;

export type { TranscriptionRecord };

const fromItem = (item: Item): TranscriptionRecord => parseItem('transcription', TranscriptionRecord, item);

export function statusOf(r: TranscriptionRecord): TranscriptionStatusResponse {
  return {
    transcriptionId: r.transcriptionId,
    noteId: r.noteId,
    patientId: r.patientId,
    status: r.status,
    ...(r.message ? { message: r.message } : {}),
    updatedAt: r.updatedAt,
  };
}

export async function getTranscription(practiceId: string, transcriptionId: string): Promise<TranscriptionRecord | null> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: { practiceId, sk: transcriptionKey(transcriptionId) }, ConsistentRead: true }),
  );
  return out.Item ? fromItem(out.Item) : null;
}

export async function requireTranscription(practiceId: string, transcriptionId: string): Promise<TranscriptionRecord> {
  const found = await getTranscription(practiceId, transcriptionId);
  if (!found) throw new NotFoundError('Transcription not found');
  return found;
}

export async function insertTranscription(practiceId: string, record: TranscriptionRecord): Promise<void> {
  await documentClient().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...record, practiceId, sk: transcriptionKey(record.transcriptionId), entityType: 'TRANSCRIPTION' },
      ConditionExpression: 'attribute_not_exists(sk)',
    }),
  );
}

/** Sets the given fields (undefined ones are removed) and updatedAt; `onlyIf` guards a status race. */
export async function updateTranscription(
  practiceId: string,
  transcriptionId: string,
  changes: Partial<Omit<TranscriptionRecord, 'transcriptionId' | 'updatedAt'>>,
  opts: { now?: Date; onlyIfStatusIn?: readonly TranscriptionStatus[]; onlyIfProposal?: { index: number; status: string } } = {},
): Promise<TranscriptionRecord> {
  const names: Record<string, string> = { '#updatedAt': 'updatedAt' };
  const values: Record<string, unknown> = { ':updatedAt': (opts.now ?? new Date()).toISOString() };
  const sets = ['#updatedAt = :updatedAt'];
  const removes: string[] = [];
  for (const [field, value] of Object.entries(changes)) {
    names[`#${field}`] = field;
    if (value === undefined) removes.push(`#${field}`);
    else {
      values[`:${field}`] = value;
      sets.push(`#${field} = :${field}`);
    }
  }
  const conditions = ['attribute_exists(sk)'];
  if (opts.onlyIfStatusIn) {
    names['#status'] = 'status';
    conditions.push(`#status IN (${opts.onlyIfStatusIn.map((_s, i) => `:only${i}`).join(', ')})`);
    opts.onlyIfStatusIn.forEach((s, i) => (values[`:only${i}`] = s));
  }
  if (opts.onlyIfProposal) {
    names['#proposals'] = 'proposals';
    names['#pstatus'] = 'status';
    values[':pstatus'] = opts.onlyIfProposal.status;
    conditions.push(`#proposals[${opts.onlyIfProposal.index}].#pstatus = :pstatus`);
  }
  const out = await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { practiceId, sk: transcriptionKey(transcriptionId) },
      UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
      ConditionExpression: conditions.join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ReturnValues: 'ALL_NEW',
    }),
  );
  return fromItem(out.Attributes ?? {});
}
