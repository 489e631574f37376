import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../lib/table/client.js';
import { isConditionFailure } from '../../lib/table/condition-failure.js';
import { tableName } from '../../lib/table/definition.js';
import { queryAll } from '../../lib/table/query-all.js';
import { CALL_COUNTS_KEY, CALL_PATIENT_KEYS_MARKER, CALL_PREFIX, callDayCounter, callIndexKeys, callPatientKeys, unreadOf } from './call-repository.js';

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
export async function backfillCallListKeys(practiceId: string): Promise<number> {
  const marker = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: CALL_COUNTS_KEY }, ConsistentRead: true }));
  if (marker.Item?.listed) return 0;
  const items = await queryAll({
    KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':p': practiceId, ':prefix': CALL_PREFIX },
    ProjectionExpression: 'sk, ident, createdAt, deleted, gsi1pk',
  });
  const days = new Map<string, Record<string, number>>();
  let total = 0;
  for (const item of items) {
    const call = { ident: String(item.ident), createdAt: String(item.createdAt ?? '') };
    if (item.gsi1pk === undefined) {
      const keys = callIndexKeys(practiceId, call);
      await documentClient()
        .send(
          new UpdateCommand({
            TableName: tableName(),
            Key: { practiceId, sk: item.sk },
            UpdateExpression: 'SET gsi1pk = :pk, gsi1sk = :sk',
            ConditionExpression: 'attribute_exists(sk)',
            ExpressionAttributeValues: { ':pk': keys.gsi1pk, ':sk': keys.gsi1sk },
          }),
        )
        .catch((error: unknown) => {
          if (!isConditionFailure(error)) throw error;
        });
    }
    if (item.deleted === true || !/^\d{4}-\d{2}-\d{2}/.test(call.createdAt)) continue;
    total += 1;
    const counter = callDayCounter(call.createdAt);
    const month = days.get(counter.sk) ?? {};
    month[counter.attribute] = (month[counter.attribute] ?? 0) + 1;
    days.set(counter.sk, month);
  }
  for (const [sk, counts] of days)
    await documentClient().send(new PutCommand({ TableName: tableName(), Item: { practiceId, sk, entityType: 'CALL_DAYS', ...counts } }));
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { practiceId, sk: CALL_COUNTS_KEY },
      UpdateExpression: 'SET #total = :t, listed = :y',
      ExpressionAttributeNames: { '#total': 'total' },
      ExpressionAttributeValues: { ':t': total, ':y': true },
    }),
  );
  return items.length;
}

/**
 * Maintenance, once per practice (the local runtime at start, `practice deploy` after the app stack):
 * puts the calls given a patient before the patient index was kept on it, then marks the practice so
 * a chart's export reads the patient's calls only. Until then it reads every call.
 */
export async function backfillCallPatientKeys(practiceId: string): Promise<number> {
  const marker = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: { practiceId, sk: CALL_PATIENT_KEYS_MARKER }, ConsistentRead: true }),
  );
  if (marker.Item) return 0;
  const items = await queryAll({
    KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':p': practiceId, ':prefix': CALL_PREFIX },
    ProjectionExpression: 'sk, ident, createdAt, patientId, gsi2pk',
  });
  let written = 0;
  for (const item of items) {
    if (item.gsi2pk !== undefined || typeof item.patientId !== 'string' || !item.patientId) continue;
    const keys = callPatientKeys(practiceId, { ident: String(item.ident), createdAt: String(item.createdAt ?? ''), patientId: item.patientId });
    await documentClient()
      .send(
        new UpdateCommand({
          TableName: tableName(),
          Key: { practiceId, sk: item.sk },
          UpdateExpression: 'SET gsi2pk = :pk, gsi2sk = :sk',
          // Given another patient meanwhile: that write put the call on its own patient's index.
          ConditionExpression: 'patientId = :patient',
          ExpressionAttributeValues: { ':pk': keys.gsi2pk, ':sk': keys.gsi2sk, ':patient': item.patientId },
        }),
      )
      .then(() => written++)
      .catch((error: unknown) => {
        if (!isConditionFailure(error)) throw error;
      });
  }
  await documentClient().send(
    new PutCommand({
      TableName: tableName(),
      Item: { practiceId, sk: CALL_PATIENT_KEYS_MARKER, entityType: 'CALL_KEYS', backfilledAt: new Date().toISOString(), written },
    }),
  );
  return written;
}
