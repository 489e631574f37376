import { BatchGetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { AccessRecord } from '../../lib/auth/access-rule.js';
import { documentClient } from '../../lib/table/client.js';
import { tableName } from '../../lib/table/definition.js';
import { parseItem } from '../../lib/table/item.js';
import * as z from '../../../shared/zod.js';

/** pk practiceId, sk SESSION#<cognito sub>: when the user's tokens stopped counting (docs/access-patterns.md). */
export const sessionKey = (userId: string) => `SESSION#${userId}`;
const userKey = (userId: string) => `USER#${userId}`;

/**
 * What the access check reads of the user item, as text: the access rule decides what a role or
 * status it does not know means. One that is missing reads as the default.
 */
const AccessUser = z.object({ permissionGroup: z._default(z.string(), 'employee'), userStatus: z._default(z.string(), 'active') });
/** A session item without a sign-out time counts as no sign-out. */
const Session = z.object({ tokensValidAfter: z._default(z.nullable(z.number()), null) });

/** The user's record and sign-out time in one round trip (BatchGetItem of two keys). */
export async function readAccessRecord(practiceId: string, userId: string): Promise<AccessRecord> {
  const table = tableName();
  const out = await documentClient().send(
    new BatchGetCommand({
      RequestItems: {
        [table]: {
          Keys: [
            { practiceId, sk: userKey(userId) },
            { practiceId, sk: sessionKey(userId) },
          ],
          ProjectionExpression: 'sk, permissionGroup, userStatus, tokensValidAfter',
        },
      },
    }),
  );
  const items = out.Responses?.[table] ?? [];
  const unprocessed = out.UnprocessedKeys?.[table]?.Keys?.length ?? 0;
  // A throttled half-answer must not read as "no record": fail closed and let the client retry.
  if (unprocessed > 0) throw new Error('The access record could not be read');
  const user = items.find((i) => i.sk === userKey(userId));
  const session = items.find((i) => i.sk === sessionKey(userId));
  return {
    user: user ? parseItem('user', AccessUser, user) : null,
    tokensValidAfter: session ? parseItem('session', Session, session).tokensValidAfter : null,
  };
}

/** Tokens whose sign-in is at or before `at` (to the second) stop counting. */
export async function putSignOut(practiceId: string, userId: string, at: Date): Promise<void> {
  await documentClient().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        practiceId,
        sk: sessionKey(userId),
        entityType: 'SESSION',
        userId,
        tokensValidAfter: Math.floor(at.getTime() / 1000),
        signedOutAt: at.toISOString(),
      },
    }),
  );
}
