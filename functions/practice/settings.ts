import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { resolveFeatureFlags } from '../../shared/constants/feature-flags.js';
import {
  completeDashboardLayout,
  SETTINGS_MESSAGES,
  type DashboardLayout,
  type FeatureGatesUpdate,
  type PracticeMetadataUpdate,
  type PracticeUserUpdate,
} from '../../shared/practice/settings-schema.js';
import { identityPoolFromEnv } from '../lib/adapters/identity-pool.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import { forgetAccessRecord, recordSignOut } from '../lib/auth/access-record.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { DependencyError, NotFoundError, ValidationError } from '../lib/errors.js';
import { log } from '../lib/log.js';
import { documentClient } from '../lib/table/client.js';
import { tableName } from '../lib/table/definition.js';
import { PRACTICE_KEY, practiceFromItem, type Practice } from '../data/practices/practice-repository.js';
import { getUser, userFromItem, userKey, type PracticeUser } from '../data/users/user-repository.js';
import { isConditionFailure } from '../lib/table/condition-failure.js';

/** Per-user dashboard layout: sk DASHBOARD#<userId> (not under USER#, which lists users). */
export const dashboardKey = (userId: string) => `DASHBOARD#${userId}`;

/** SET for the values given, REMOVE for nulls; undefined leaves a field as it is. */
function updateExpression(fields: Record<string, unknown>) {
  const set: string[] = [];
  const remove: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined) continue;
    names[`#${k}`] = k;
    if (v === null && k !== 'productDeactivatedAt' && k !== 'npiNumber' && k !== 'veradigmUserType') remove.push(`#${k}`);
    else {
      set.push(`#${k} = :${k}`);
      values[`:${k}`] = v;
    }
  }
  const expr = [set.length ? `SET ${set.join(', ')}` : '', remove.length ? `REMOVE ${remove.join(', ')}` : ''].filter(Boolean).join(' ');
  return { expr, names, values };
}

async function update(key: string, practiceId: string, fields: Record<string, unknown>, notFound: string): Promise<Record<string, unknown>> {
  const { expr, names, values } = updateExpression(fields);
  if (!expr) {
    const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: key }, ConsistentRead: true }));
    if (!out.Item) throw new NotFoundError(notFound);
    return out.Item;
  }
  try {
    const out = await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { practiceId, sk: key },
        UpdateExpression: expr,
        ConditionExpression: 'attribute_exists(sk)',
        ExpressionAttributeNames: names,
        ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
        ReturnValues: 'ALL_NEW',
      }),
    );
    return out.Attributes ?? {};
  } catch (error) {
    if (isConditionFailure(error)) throw new NotFoundError(notFound);
    throw error;
  }
}

export async function updatePracticeMetadata(auth: AuthContext, input: PracticeMetadataUpdate): Promise<Practice> {
  const item = await update(PRACTICE_KEY, auth.practiceId, { ...input, lastUpdated: new Date().toISOString(), lastUpdatedBy: auth.userId }, 'Practice not found');
  await writeAudit(auth, { action: 'update', entity: 'practice' });
  return practiceFromItem(item);
}

export async function updatePracticeUser(auth: AuthContext, userId: string, input: PracticeUserUpdate): Promise<PracticeUser> {
  if (userId === auth.userId && input.permissionGroup !== undefined && input.permissionGroup !== 'admin') {
    throw new ValidationError(SETTINGS_MESSAGES.ownAdminRole, { permissionGroup: SETTINGS_MESSAGES.ownAdminRole });
  }
  const item = await update(userKey(userId), auth.practiceId, { ...input }, SETTINGS_MESSAGES.userNotFound);
  await writeAudit(auth, { action: 'update', entity: 'user', entityId: userId });
  const user = userFromItem(item);
  await applyAccessChange(auth.practiceId, user);
  return user;
}

export const IDENTITY_SYNC_FAILED = 'The change was saved, but signing the user in or out could not be updated. Save it again to retry.';

/**
 * The record just saved is what the API enforces (within 30 s on every instance, at once
 * here); the pool follows it so new tokens carry the same role, and a removal (no_access or
 * deleted) ends every session now and refuses new sign-ins until an admin restores the user.
 */
async function applyAccessChange(practiceId: string, user: PracticeUser): Promise<void> {
  const removed = user.userStatus === 'deleted' || user.permissionGroup === 'no_access';
  forgetAccessRecord(practiceId, user.userId);
  try {
    if (removed) await recordSignOut(practiceId, user.userId);
    const pool = identityPoolFromEnv();
    await pool.setRoleGroup(user.userId, user.permissionGroup);
    if (removed) await pool.shutOut(user.userId);
    else await pool.letIn(user.userId);
  } catch (error) {
    log.warn('Identity pool update failed', { error: (error as Error)?.name });
    // The saved record already decides access; saving again repeats every step, each idempotent.
    throw new DependencyError(502, IDENTITY_SYNC_FAILED, 'identity_sync_failed');
  }
}

export const MFA_RESET_FAILED = 'Two-step sign-in could not be reset. Try again.';

/**
 * An admin turns a user's authenticator app off (a lost phone): the pool stops asking for its code,
 * and a practice that requires two-step sign-in has the user set up a new one at the next sign-in.
 * Only users of this practice: the pool is the practice's own, but the record is the one checked.
 */
export async function resetUserMfa(auth: AuthContext, userId: string): Promise<void> {
  const user = await getUser(auth.practiceId, userId);
  if (!user) throw new NotFoundError(SETTINGS_MESSAGES.userNotFound);
  try {
    await identityPoolFromEnv().resetMfa(userId);
  } catch (error) {
    log.warn('Identity pool MFA reset failed', { error: (error as Error)?.name });
    throw new DependencyError(502, MFA_RESET_FAILED, 'identity_sync_failed');
  }
  const { forgetMfaEnrolment } = await import('../lib/auth/mfa-enrolment.js');
  forgetMfaEnrolment(userId);
  await writeAudit(auth, { action: 'update', entity: 'user-mfa', entityId: userId, detail: 'Two-step sign-in reset: set up again at next sign-in' });
}

export async function updateFeatureGates(auth: AuthContext, input: FeatureGatesUpdate): Promise<{ flags: Record<string, boolean> }> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId: auth.practiceId, sk: PRACTICE_KEY }, ConsistentRead: true }));
  if (!out.Item) throw new NotFoundError('Practice not found');
  const flags = { ...((out.Item.featureFlags as Record<string, boolean> | undefined) ?? {}), ...input.flags };
  const item = await update(PRACTICE_KEY, auth.practiceId, { featureFlags: flags }, 'Practice not found');
  await writeAudit(auth, { action: 'update', entity: 'feature-gates' });
  return { flags: resolveFeatureFlags(item.featureFlags as Record<string, unknown>) };
}

export async function getDashboard(auth: AuthContext): Promise<DashboardLayout> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId: auth.practiceId, sk: dashboardKey(auth.userId) } }));
  return completeDashboardLayout(out.Item as DashboardLayout | undefined);
}

export async function putDashboard(auth: AuthContext, layout: DashboardLayout): Promise<DashboardLayout> {
  const complete = completeDashboardLayout(layout);
  await documentClient().send(
    new PutCommand({ TableName: tableName(), Item: { practiceId: auth.practiceId, sk: dashboardKey(auth.userId), entityType: 'DASHBOARD', userId: auth.userId, widgets: complete.widgets } }),
  );
  return complete;
}
