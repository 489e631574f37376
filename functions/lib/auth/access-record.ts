import { putSignOut, readAccessRecord } from '../../data/users/access-records.js';
import type { AccessRecord } from './access-rule.js';

export { sessionKey } from '../../data/users/access-records.js';

/**
 * How long a Lambda instance reuses a user's record: an admin's change reaches every instance
 * within this time, and a warm request costs no table read. With the web's recheck every 25 s
 * (web/src/lib/practice.ts), an open session of a removed user ends within a minute.
 */
export const ACCESS_CACHE_MS = 30_000;
const CACHE_LIMIT = 5_000;

const cache = new Map<string, { at: number; record: AccessRecord }>();
const cacheKey = (practiceId: string, userId: string) => `${practiceId}|${userId}`;

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
  await putSignOut(practiceId, userId, at);
  forgetAccessRecord(practiceId, userId);
}
