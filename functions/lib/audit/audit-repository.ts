import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { AuthContext } from '../auth/auth-context.js';
import { documentClient } from '../table/client.js';
import { tableName } from '../table/definition.js';

export type AuditAction = 'read' | 'list' | 'search' | 'create' | 'update' | 'delete' | 'archive' | 'refused';

export interface AuditEntry {
  action: AuditAction;
  entity: string;
  entityId?: string;
  patientId?: string;
  /** For list/search: how many patient records were returned (the ids are not repeated here). */
  count?: number;
}

export const auditKey = (at: string, id: string) => `AUDIT#${at}#${id}`;
export const patientAuditPartition = (patientId: string) => `AUDIT#PATIENT#${patientId}`;

/** Every read or write of patient data leaves who, what, when and which patient. */
export async function writeAudit(auth: AuthContext, entry: AuditEntry): Promise<void> {
  const at = new Date().toISOString();
  const id = randomUUID();
  await documentClient().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        practiceId: auth.practiceId,
        sk: auditKey(at, id),
        entityType: 'AUDIT',
        auditId: id,
        at,
        actorUserId: auth.userId,
        actorEmail: auth.email,
        actorRole: auth.role,
        // Support staff act with admin rights; the practice can tell their actions apart.
        ...(auth.superUser ? { actorSuperUser: true } : {}),
        ...entry,
        ...(entry.patientId ? { gsi1pk: patientAuditPartition(entry.patientId), gsi1sk: at } : {}),
      },
    }),
  );
}

/** Who tried, as far as their verified token tells; the role is absent when it was never decided. */
export interface RefusedCaller {
  userId: string;
  email: string;
  role?: string;
  superUser?: boolean;
  /** The practice the token belongs to, recorded only when it is not this one. */
  tokenPracticeId?: string;
}

export interface RefusalEntry {
  /** API Gateway's route key ("GET /v1/patients/{patientId}") or the realtime subscription field. */
  route: string;
  reason: string;
  status: number;
  sourceIp?: string;
  /** When the refused request named a patient, it shows in that patient's access history too. */
  patientId?: string;
}

/**
 * A refused attempt (removed or no_access user, signed-out token, another practice's token, a
 * forbidden role) leaves a row in this practice's trail: the same shape as other entries, with
 * action 'refused', entity 'access' and the route, reason and status added.
 */
export async function writeRefusalAudit(practiceId: string, caller: RefusedCaller, entry: RefusalEntry): Promise<void> {
  const at = new Date().toISOString();
  const id = randomUUID();
  await documentClient().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        practiceId,
        sk: auditKey(at, id),
        entityType: 'AUDIT',
        auditId: id,
        at,
        actorUserId: caller.userId,
        actorEmail: caller.email,
        ...(caller.role ? { actorRole: caller.role } : {}),
        ...(caller.superUser ? { actorSuperUser: true } : {}),
        ...(caller.tokenPracticeId && caller.tokenPracticeId !== practiceId ? { actorPracticeId: caller.tokenPracticeId } : {}),
        action: 'refused' satisfies AuditAction,
        entity: 'access',
        route: entry.route,
        reason: entry.reason,
        status: entry.status,
        ...(entry.sourceIp ? { sourceIp: entry.sourceIp } : {}),
        ...(entry.patientId ? { patientId: entry.patientId, gsi1pk: patientAuditPartition(entry.patientId), gsi1sk: at } : {}),
      },
    }),
  );
}
