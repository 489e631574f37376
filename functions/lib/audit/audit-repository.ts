import { randomUUID } from 'node:crypto';
import type { AuthContext } from '../auth/auth-context.js';
import { currentRequestOrigin } from '../http/request-context.js';
import { putAuditBatch, putAuditItem } from '../../data/audit/audit-items.js';

export type AuditAction = 'read' | 'list' | 'search' | 'create' | 'update' | 'delete' | 'archive' | 'restore' | 'refused';

export interface AuditEntry {
  action: AuditAction;
  entity: string;
  entityId?: string;
  patientId?: string;
  /** For list/search: how many patient records were returned. */
  count?: number;
  /** For the patient directory (list/search): the ids of the patients shown, in one entry. */
  patientIds?: string[];
  /** What was decided and why, when the action alone does not say it (an overridden safety warning). */
  detail?: string;
}

export const auditKey = (at: string, id: string) => `AUDIT#${at}#${id}`;
export const patientAuditPartition = (patientId: string) => `AUDIT#PATIENT#${patientId}`;

function auditItem(auth: AuthContext, entry: AuditEntry): Record<string, unknown> {
  const at = new Date().toISOString();
  const id = randomUUID();
  const origin = currentRequestOrigin();
  return {
    practiceId: auth.practiceId,
    sk: auditKey(at, id),
    entityType: 'AUDIT',
    auditId: id,
    at,
    actorUserId: auth.userId,
    actorEmail: auth.email,
    actorName: auth.name,
    actorRole: auth.role,
    // Support staff act with admin rights; the practice can tell their actions apart.
    ...(auth.superUser ? { actorSuperUser: true } : {}),
    // From where: the route, the caller's address and browser, as the API saw them.
    ...(origin ? { routeKey: origin.routeKey } : {}),
    ...(origin?.sourceIp ? { sourceIp: origin.sourceIp } : {}),
    ...(origin?.userAgent ? { userAgent: origin.userAgent } : {}),
    ...entry,
    ...(entry.patientId ? { gsi1pk: patientAuditPartition(entry.patientId), gsi1sk: at } : {}),
  };
}

/** Every read or write of patient data leaves who, what, when, from where and which patient. */
export async function writeAudit(auth: AuthContext, entry: AuditEntry): Promise<void> {
  await putAuditItem(auditItem(auth, entry));
}

/**
 * A list or search that returned several patients' data: one entry per patient shown, so each
 * patient's access history has it (and one entry without a patient when none was shown).
 */
export async function writeAuditForPatients(
  auth: AuthContext,
  entry: Omit<AuditEntry, 'patientId'>,
  patientIds: readonly (string | null | undefined)[],
): Promise<void> {
  const distinct = [...new Set(patientIds.filter((p): p is string => typeof p === 'string' && p !== ''))];
  if (distinct.length === 0) return writeAudit(auth, entry);
  const items = distinct.map((patientId) => auditItem(auth, { ...entry, patientId }));
  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  // The batches of one page go out together: a page of 100 costs one round trip, not four.
  await Promise.all(batches.map(putAuditBatch));
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
  await putAuditItem({
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
  });
}
