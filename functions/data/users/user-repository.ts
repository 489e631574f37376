import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { PERMISSION_GROUPS, USER_STATUSES } from '../../../shared/practice/user-constants.js';
import * as z from '../../../shared/zod.js';
import { documentClient } from '../../lib/table/client.js';
import { parseItem, type Item } from '../../lib/table/item.js';
import { optionalStoredText } from '../../lib/table/stored-fields.js';
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
  userStatus: (typeof USER_STATUSES)[number];
  educationDegree: string | null;
  npiNumber: string | null;
  signatureKey?: string | undefined;
  permissionGroup: (typeof PERMISSION_GROUPS)[number];
  createdAt: string;
  veradigmUserType: string | null;
  /** Set by an admin in settings; else the partner secret's `dosespot.users` map is used. */
  doseSpotUserId: string | null;
}

/** GET /v1/practices/users/me adds the profile's superUser flag (spec shell §3 Practice). */
export type CurrentUser = PracticeUser & { superUser: boolean };

const textOrNull = z._default(z.nullable(z.string()), null);

/**
 * The user item's own fields. A field the seed, a first-admin run or an older version did not
 * write (the seed writes no DoseSpot id, an admin's null clears one) reads as its default.
 */
const StoredUser = z.object({
  userId: z.string(),
  firstName: z._default(z.string(), ''),
  lastName: z._default(z.string(), ''),
  name: z.optional(z.nullable(z.string())),
  emailAddress: z._default(z.string(), ''),
  cellNumber: textOrNull,
  userStatus: z._default(z.enum(USER_STATUSES), 'active'),
  educationDegree: textOrNull,
  npiNumber: textOrNull,
  signatureKey: optionalStoredText,
  permissionGroup: z._default(z.enum(PERMISSION_GROUPS), 'employee'),
  createdAt: z._default(z.string(), ''),
  veradigmUserType: textOrNull,
  doseSpotUserId: textOrNull,
});

/** An item without a userId (none is written so) is the user its key names; one without a name is called by first and last name. */
export function userFromItem(item: Item): PracticeUser {
  const user = parseItem('user', StoredUser, { userId: String(item.sk).slice(USER_KEY_PREFIX.length), ...item });
  return { ...user, name: user.name ?? `${user.firstName} ${user.lastName}`.trim() };
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
