import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { markerWritten, setKeysIf, writeMarker } from '../../lib/table/backfill-marker.js';
import { documentClient } from '../../lib/table/client.js';
import { tableName } from '../../lib/table/definition.js';
import { queryAll } from '../../lib/table/query-all.js';
import { backfillDatedList } from '../dated-list/dated-list-backfill.js';
import { CALL_COUNTS_KEY, CALL_LIST, CALL_PATIENT_KEYS_MARKER, CALL_PREFIX, callPatientKeys, unreadOf } from './call-repository.js';

// Kept out of the repository so no Lambda bundle carries it.
/**
 * Maintenance, once per practice (the local runtime at start, `practice deploy` after the app stack): counts the unread calls
 * written before the counts item was kept. Until this has run, the call count reads every call.
 */
export async function backfillCallCounts(practiceId: string): Promise<number> {
  const marker = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: CALL_COUNTS_KEY }, ConsistentRead: true }));
  if (marker.Item?.indexed) return 0;
  const items = await queryAll({
    KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':p': practiceId, ':prefix': CALL_PREFIX },
    ProjectionExpression: '#s, deleted',
    ExpressionAttributeNames: { '#s': 'status' },
  });
  const unread = items.reduce((n, item) => n + unreadOf(item), 0);
  await documentClient().send(
    new PutCommand({ TableName: tableName(), Item: { practiceId, sk: CALL_COUNTS_KEY, entityType: 'CALL_COUNTS', unread, indexed: true } }),
  );
  return items.length;
}

/**
 * Maintenance, once per practice, after backfillCallCounts (the local runtime runs both at start):
 * gives the calls written before the list was paged their index keys, and counts them in all and
 * per day. Until this has run, the list reads every call of its range to count it.
 */
export const backfillCallListKeys = (practiceId: string): Promise<number> => backfillDatedList(CALL_LIST, practiceId);

/**
 * Maintenance, once per practice (the local runtime at start, `practice deploy` after the app stack):
 * puts the calls given a patient before the patient index was kept on it, then marks the practice so
 * a chart's export reads the patient's calls only. Until then it reads every call.
 */
export async function backfillCallPatientKeys(practiceId: string): Promise<number> {
  if (await markerWritten(practiceId, CALL_PATIENT_KEYS_MARKER)) return 0;
  const items = await queryAll({
    KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':p': practiceId, ':prefix': CALL_PREFIX },
    ProjectionExpression: 'sk, ident, createdAt, patientId, gsi2pk',
  });
  let written = 0;
  for (const item of items) {
    if (item.gsi2pk !== undefined || typeof item.patientId !== 'string' || !item.patientId) continue;
    const keys = callPatientKeys(practiceId, { ident: String(item.ident), createdAt: String(item.createdAt ?? ''), patientId: item.patientId });
    // Given another patient meanwhile: that write put the call on its own patient's index.
    if (!keys.gsi2pk) continue;
    if (await setKeysIf(practiceId, item.sk, { gsi2pk: keys.gsi2pk, gsi2sk: keys.gsi2sk }, 'patientId = :patient', { ':patient': item.patientId })) written++;
  }
  await writeMarker(practiceId, CALL_PATIENT_KEYS_MARKER, 'CALL_KEYS', written);
  return written;
}
