/**
 * An admin of a deployed practice: the Cognito user (AdminCreateUser, which emails the temporary
 * password) in the admin group, its USER# item, and the practice's PRACTICE item, each written
 * only when absent, so running it again changes nothing and never resets a password.
 */
import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminGetUserCommand,
  AdminListGroupsForUserCommand,
  type AttributeType,
  type CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { PracticeFirstAdmin } from '../../infra/config/practice-config.js';
import { userItem } from '../../infra/local/seed/seed-practice.js';

export const ADMIN_GROUP = 'admin';

export interface AdminTarget {
  userPoolId: string;
  tableName: string;
  practiceId: string;
  practiceName: string;
}

export interface AdminOutcome {
  /** created: new pool user (invitation sent); existing: the pool already had this email. */
  poolUser: 'created' | 'existing';
  userId: string;
  /** added: put in the admin group now; kept: already admin; other-role: left in its own group. */
  group: 'added' | 'kept' | 'other-role';
  otherGroups: string[];
  userItem: 'written' | 'existing' | 'skipped';
  practiceItem: 'written' | 'existing';
}

const errorName = (e: unknown) => (e as { name?: string }).name ?? '';
const attribute = (attrs: AttributeType[] | undefined, name: string) => attrs?.find((a) => a.Name === name)?.Value;

/** The PRACTICE item the app reads for its name and flags (practice-repository), as a new practice starts. */
export function newPracticeItem(practiceId: string, practiceName: string, now: string): Record<string, unknown> {
  return { practiceId, sk: 'PRACTICE', practiceName, productDeactivatedAt: null, additionalPhoneNumbers: [], featureFlags: {}, createdAt: now };
}

async function putIfAbsent(ddb: DynamoDBDocumentClient, tableName: string, item: Record<string, unknown>): Promise<'written' | 'existing'> {
  try {
    await ddb.send(new PutCommand({ TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(sk)' }));
    return 'written';
  } catch (e) {
    if (errorName(e) === 'ConditionalCheckFailedException') return 'existing';
    throw e;
  }
}

export async function ensureAdmin(
  clients: { cognito: CognitoIdentityProviderClient; ddb: DynamoDBDocumentClient },
  target: AdminTarget,
  admin: PracticeFirstAdmin,
  now: Date,
): Promise<AdminOutcome> {
  const { cognito, ddb } = clients;
  const email = admin.email.toLowerCase();
  let poolUser: AdminOutcome['poolUser'];
  let userId: string | undefined;
  try {
    const { User } = await cognito.send(
      new AdminCreateUserCommand({
        UserPoolId: target.userPoolId,
        Username: email,
        DesiredDeliveryMediums: ['EMAIL'],
        UserAttributes: [
          { Name: 'email', Value: email },
          { Name: 'email_verified', Value: 'true' },
          { Name: 'given_name', Value: admin.firstName },
          { Name: 'family_name', Value: admin.lastName },
          { Name: 'custom:practiceId', Value: target.practiceId },
        ],
      }),
    );
    poolUser = 'created';
    userId = attribute(User?.Attributes, 'sub');
  } catch (e) {
    if (errorName(e) !== 'UsernameExistsException') throw e;
    poolUser = 'existing';
    const existing = await cognito.send(new AdminGetUserCommand({ UserPoolId: target.userPoolId, Username: email }));
    const practiceId = attribute(existing.UserAttributes, 'custom:practiceId');
    if (practiceId !== target.practiceId) {
      throw new Error(`${email} already exists in the pool with practice id ${practiceId ?? '(none)'}, not ${target.practiceId}; it was left unchanged.`);
    }
    userId = attribute(existing.UserAttributes, 'sub');
  }
  if (!userId) throw new Error(`Cognito returned no sub for ${email}; nothing was written to the table.`);

  let group: AdminOutcome['group'] = 'added';
  let otherGroups: string[] = [];
  if (poolUser === 'existing') {
    const { Groups } = await cognito.send(new AdminListGroupsForUserCommand({ UserPoolId: target.userPoolId, Username: email }));
    const names = (Groups ?? []).map((g) => g.GroupName ?? '');
    otherGroups = names.filter((n) => n !== ADMIN_GROUP);
    group = names.includes(ADMIN_GROUP) ? 'kept' : names.length ? 'other-role' : 'added';
  }
  if (group === 'added') await cognito.send(new AdminAddUserToGroupCommand({ UserPoolId: target.userPoolId, Username: email, GroupName: ADMIN_GROUP }));

  const at = now.toISOString();
  // A user someone already gave another role keeps it: the team settings change roles, not this step.
  const user =
    group === 'other-role'
      ? 'skipped'
      : await putIfAbsent(
          ddb,
          target.tableName,
          userItem(target.practiceId, userId, { email, firstName: admin.firstName, lastName: admin.lastName, group: ADMIN_GROUP }, at),
        );
  const practice = await putIfAbsent(ddb, target.tableName, newPracticeItem(target.practiceId, target.practiceName, at));
  return { poolUser, userId, group, otherGroups, userItem: user, practiceItem: practice };
}

/** One line an operator reads after the step. */
export function describeOutcome(email: string, o: AdminOutcome): string {
  const pool =
    o.poolUser === 'created' ? 'created in the pool (Cognito emailed the temporary password)' : 'already in the pool (kept as is, password untouched)';
  const group =
    o.group === 'added'
      ? 'added to the admin group'
      : o.group === 'kept'
        ? 'already an admin'
        : `left in its group ${o.otherGroups.join(', ')} (change the role in Settings > Team)`;
  const item = o.userItem === 'written' ? 'USER# item written' : o.userItem === 'existing' ? 'USER# item already there' : 'USER# item not written';
  return `${email}: ${pool}; ${group}; ${item}${o.practiceItem === 'written' ? '; practice item written' : ''}.`;
}
