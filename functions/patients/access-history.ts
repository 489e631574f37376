import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { AccessHistoryEntry, AccessHistoryPage, AccessHistoryQuery } from '../../shared/audit/access-history.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { patientAuditPartition, writeAudit } from '../lib/audit/audit-repository.js';
import { NotFoundError } from '../lib/errors.js';
import { documentClient } from '../lib/table/client.js';
import { INDEXES, tableName } from '../lib/table/definition.js';
import { getPatient, PATIENT_NOT_FOUND } from '../data/patients/patient-repository.js';

type Item = Record<string, unknown>;
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
 * GET /v1/patients/{patientId}/access-history: every audit entry naming the patient (reads,
 * lists, changes, file and notification access, refused attempts), newest first, from the
 * patient's audit partition (gsi1 AUDIT#PATIENT#<id>). Reading it is itself recorded.
 */
export async function patientAccessHistory(auth: AuthContext, patientId: string, query: AccessHistoryQuery): Promise<AccessHistoryPage> {
  if (!(await getPatient(auth.practiceId, patientId))) throw new NotFoundError(PATIENT_NOT_FOUND);
  const values: Record<string, string> = { ':pk': patientAuditPartition(patientId) };
  let condition = 'gsi1pk = :pk';
  if (query.before) {
    condition += ' AND gsi1sk < :before';
    values[':before'] = query.before;
  }
  const out = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: INDEXES.gsi1.indexName,
      KeyConditionExpression: condition,
      ExpressionAttributeValues: values,
      ScanIndexForward: false,
      Limit: query.limit,
    }),
  );
  const entries = (out.Items ?? []).map(toEntry);
  await writeAudit(auth, { action: 'read', entity: 'access_history', patientId });
  const last = entries.at(-1);
  return { entries, ...(out.LastEvaluatedKey && last ? { next: last.at } : {}) };
}
