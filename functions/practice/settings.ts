import { resolveFeatureFlags } from '../../shared/constants/feature-flags.js';
import {
  completeDashboardLayout,
  SETTINGS_MESSAGES,
  type DashboardLayout,
  type FeatureGatesUpdate,
  type PracticeMetadataUpdate,
  type PracticeUserUpdate,
} from '../../shared/practice/settings-schema.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import { forgetAccessRecord, recordSignOut } from '../lib/auth/access-record.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { DependencyError, NotFoundError, ValidationError } from '../lib/errors.js';
import { log } from '../lib/log.js';
import { PRACTICE_KEY, practiceFromItem, type Practice } from '../data/practices/practice-repository.js';
export { dashboardKey } from '../data/settings/settings-records.js';
import { getDashboardItem, getSettingsItem, putDashboardItem, updateSettingsItem } from '../data/settings/settings-records.js';
import { getUser, userFromItem, userKey, type PracticeUser } from '../data/users/user-repository.js';

export async function updatePracticeMetadata(auth: AuthContext, input: PracticeMetadataUpdate): Promise<Practice> {
  const item = await updateSettingsItem(
    PRACTICE_KEY,
    auth.practiceId,
    { ...input, lastUpdated: new Date().toISOString(), lastUpdatedBy: auth.userId },
    'Practice not found',
  );
  await writeAudit(auth, { action: 'update', entity: 'practice' });
  return practiceFromItem(item);
}

export async function updatePracticeUser(auth: AuthContext, userId: string, input: PracticeUserUpdate): Promise<PracticeUser> {
  if (userId === auth.userId && input.permissionGroup !== undefined && input.permissionGroup !== 'admin') {
    throw new ValidationError(SETTINGS_MESSAGES.ownAdminRole, { permissionGroup: SETTINGS_MESSAGES.ownAdminRole });
  }
  const item = await updateSettingsItem(userKey(userId), auth.practiceId, { ...input }, SETTINGS_MESSAGES.userNotFound);
  await writeAudit(auth, { action: 'update', entity: 'user', entityId: userId });
  const user = userFromItem(item);
  await applyAccessChange(auth.practiceId, user);
  return user;
}

export const IDENTITY_SYNC_FAILED = 'The change was saved, but signing the user in or out could not be updated. Save it again to retry.';

/** The Cognito client is loaded by the rare admin changes that need it, not on every cold start of the group. */
async function identityPool() {
  const { identityPoolFromEnv } = await import('../lib/adapters/identity-pool.js');
  return identityPoolFromEnv();
}

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
    const pool = await identityPool();
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
    await (await identityPool()).resetMfa(userId);
  } catch (error) {
    log.warn('Identity pool MFA reset failed', { error: (error as Error)?.name });
    throw new DependencyError(502, MFA_RESET_FAILED, 'identity_sync_failed');
  }
  const { forgetMfaEnrolment } = await import('../lib/auth/mfa-enrolment.js');
  forgetMfaEnrolment(userId);
  await writeAudit(auth, { action: 'update', entity: 'user-mfa', entityId: userId, detail: 'Two-step sign-in reset: set up again at next sign-in' });
}

export async function updateFeatureGates(auth: AuthContext, input: FeatureGatesUpdate): Promise<{ flags: Record<string, boolean> }> {
  const practice = await getSettingsItem(auth.practiceId, PRACTICE_KEY);
  if (!practice) throw new NotFoundError('Practice not found');
  const flags = { ...practiceFromItem(practice).featureFlags, ...input.flags };
  const item = await updateSettingsItem(PRACTICE_KEY, auth.practiceId, { featureFlags: flags }, 'Practice not found');
  await writeAudit(auth, { action: 'update', entity: 'feature-gates' });
  return { flags: resolveFeatureFlags(practiceFromItem(item).featureFlags) };
}

export async function getDashboard(auth: AuthContext): Promise<DashboardLayout> {
  return completeDashboardLayout((await getDashboardItem(auth.practiceId, auth.userId)) as DashboardLayout | undefined);
}

export async function putDashboard(auth: AuthContext, layout: DashboardLayout): Promise<DashboardLayout> {
  const complete = completeDashboardLayout(layout);
  await putDashboardItem(auth.practiceId, auth.userId, complete.widgets);
  return complete;
}
