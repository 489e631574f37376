import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../lib/table/client.js';
import { tableName } from '../../lib/table/definition.js';
import { queryAll } from '../../lib/table/query-all.js';

/** User items: pk practiceId, sk USER#<cognito sub> (docs/access-patterns.md). */
export const userKey = (userId: string) => `USER#${userId}`;
export const USER_KEY_PREFIX = 'USER#';

/** Spec shell §3 User. */
export interface PracticeUser {
  userId: string;
  firstName: string;
  lastName: string;
  name: string;
  emailAddress: string;
  cellNumber: string | null;
  userStatus: 'active' | 'invited' | 'unconfirmed' | 'deleted';
  educationDegree: string | null;
  npiNumber: string | null;
  signatureKey?: string;
  permissionGroup: 'admin' | 'provider' | 'employee' | 'no_access';
  createdAt: string;
  veradigmUserType: string | null;
  /** Set by an admin in settings; else the partner secret's `dosespot.users` map is used. */
  doseSpotUserId: string | null;
}

/** GET /v1/practices/users/me adds the profile's superUser flag (spec shell §3 Practice). */
export type CurrentUser = PracticeUser & { superUser: boolean };

export function userFromItem(item: Record<string, unknown>): PracticeUser {
  const firstName = String(item.firstName ?? '');
  const lastName = String(item.lastName ?? '');
  return {
    userId: String(item.userId ?? String(item.sk).slice(USER_KEY_PREFIX.length)),
    firstName,
    lastName,
    name: String(item.name ?? `${firstName} ${lastName}`.trim()),
    emailAddress: String(item.emailAddress ?? ''),
    cellNumber: (item.cellNumber as string | null | undefined) ?? null,
    userStatus: (item.userStatus as PracticeUser['userStatus'] | undefined) ?? 'active',
    educationDegree: (item.educationDegree as string | null | undefined) ?? null,
    npiNumber: (item.npiNumber as string | null | undefined) ?? null,
    ...(item.signatureKey ? { signatureKey: String(item.signatureKey) } : {}),
    permissionGroup: (item.permissionGroup as PracticeUser['permissionGroup'] | undefined) ?? 'employee',
    createdAt: String(item.createdAt ?? ''),
    veradigmUserType: (item.veradigmUserType as string | null | undefined) ?? null,
    doseSpotUserId: (item.doseSpotUserId as string | null | undefined) ?? null,
  };
}

export async function getUser(practiceId: string, userId: string): Promise<PracticeUser | null> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: userKey(userId) } }));
  return out.Item ? userFromItem(out.Item) : null;
}

/** All users of the practice, by name (Query begins_with USER#). */
export async function listUsers(practiceId: string): Promise<PracticeUser[]> {
  const items = await queryAll({
    KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :u)',
    ExpressionAttributeValues: { ':p': practiceId, ':u': USER_KEY_PREFIX },
  });
  return items.map(userFromItem).sort((a, b) => a.name.localeCompare(b.name) || a.userId.localeCompare(b.userId));
}
