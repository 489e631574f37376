import { BatchGetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../table/client.js';
import { tableName } from '../table/definition.js';
import type { AccessRecord } from './access-rule.js';

/** pk practiceId, sk SESSION#<cognito sub>: when the user's tokens stopped counting (docs/access-patterns.md). */
export const sessionKey = (userId: string) => `SESSION#${userId}`;
const userKey = (userId: string) => `USER#${userId}`;

/**
 * How long a Lambda instance reuses a user's record: an admin's change reaches every instance
 * within this time, and a warm request costs no table read. With the web's recheck every 25 s
 * (web/src/lib/practice.ts), an open session of a removed user ends within a minute.
 */
export const ACCESS_CACHE_MS = 30_000;
const CACHE_LIMIT = 5_000;

const cache = new Map<string, { at: number; record: AccessRecord }>();
const cacheKey = (practiceId: string, userId: string) => `${practiceId}|${userId}`;

/** The user's record and sign-out time in one round trip (BatchGetItem of two keys). */
async function readAccessRecord(practiceId: string, userId: string): Promise<AccessRecord> {
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
    user: user ? { permissionGroup: String(user.permissionGroup ?? 'employee'), userStatus: String(user.userStatus ?? 'active') } : null,
    tokensValidAfter: typeof session?.tokensValidAfter === 'number' ? session.tokensValidAfter : null,
  };
}

export async function loadAccessRecord(practiceId: string, userId: string, now = Date.now()): Promise<AccessRecord> {
  const key = cacheKey(practiceId, userId);
  const hit = cache.get(key);
  if (hit && now - hit.at < ACCESS_CACHE_MS) return hit.record;
  const record = await readAccessRecord(practiceId, userId);
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(key, { at: now, record });
  return record;
}

/** Seeds this instance's cache as a warm Lambda holds it (handler tests, whose tables hold no user items). */
export function primeAccessRecord(practiceId: string, userId: string, record: AccessRecord, now = Date.now()): void {
  cache.set(cacheKey(practiceId, userId), { at: now, record });
}

/** A change made in this instance applies here at once; other instances see it when their entry expires. */
export function forgetAccessRecord(practiceId: string, userId: string): void {
  cache.delete(cacheKey(practiceId, userId));
}

/**
 * Ends every token the user holds now (sign-out everywhere, revocation, removal): tokens whose
 * sign-in is at or before this second are refused. A sign-in after it works again.
 */
export async function recordSignOut(practiceId: string, userId: string, at = new Date()): Promise<void> {
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
  forgetAccessRecord(practiceId, userId);
}
