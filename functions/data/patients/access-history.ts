import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { AccessHistoryEntry } from '../../../shared/audit/access-history.js';
import { patientAuditPartition } from '../../lib/audit/audit-repository.js';
import { documentClient } from '../../lib/table/client.js';
import { INDEXES, tableName } from '../../lib/table/definition.js';
import type { Item } from '../../lib/table/item.js';

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** An audit row as the history shows it; refusal rows (action 'refused', written by the auth check) keep their reason and route. */
export function toEntry(item: Item): AccessHistoryEntry {
  const refused = item.action === 'refused';
  return {
    at: String(item.at ?? item.gsi1sk ?? ''),
    actor: {
      userId: String(item.actorUserId ?? ''),
      email: String(item.actorEmail ?? ''),
      ...(text(item.actorName) ? { name: text(item.actorName) } : {}),
      ...(text(item.actorRole) ? { role: text(item.actorRole) } : {}),
      ...(item.actorSuperUser ? { superUser: true } : {}),
    },
    action: String(item.action ?? (refused ? 'refused' : '')),
    entity: String(item.entity ?? ''),
    ...(text(item.entityId) ? { entityId: text(item.entityId) } : {}),
    ...(text(item.routeKey ?? item.route) ? { routeKey: text(item.routeKey ?? item.route) } : {}),
    ...(text(item.sourceIp) ? { sourceIp: text(item.sourceIp) } : {}),
    ...(text(item.userAgent) ? { userAgent: text(item.userAgent) } : {}),
    outcome: refused ? 'refused' : 'allowed',
    ...(text(item.reason) ? { reason: text(item.reason) } : {}),
  };
}

/**
 * One page of the patient's audit partition (gsi1 AUDIT#PATIENT#<id>), newest first, optionally
 * before a time; `more` when the table has further entries past this page.
 */
export async function patientAuditPage(
  patientId: string,
  before: string | undefined,
  limit: number,
): Promise<{ entries: AccessHistoryEntry[]; more: boolean }> {
  const values: Record<string, string> = { ':pk': patientAuditPartition(patientId) };
  let condition = 'gsi1pk = :pk';
  if (before) {
    condition += ' AND gsi1sk < :before';
    values[':before'] = before;
  }
  const out = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: INDEXES.gsi1.indexName,
      KeyConditionExpression: condition,
      ExpressionAttributeValues: values,
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return { entries: (out.Items ?? []).map(toEntry), more: Boolean(out.LastEvaluatedKey) };
}
