import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { AuthContext } from '../auth/auth-context.js';
import { documentClient } from '../table/client.js';
import { tableName } from '../table/definition.js';

export type AuditAction = 'read' | 'list' | 'search' | 'create' | 'update' | 'delete' | 'archive';

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
