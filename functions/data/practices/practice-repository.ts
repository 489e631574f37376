import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { IDLE_LOCK_MINUTES_DEFAULT } from '../../../shared/practice/idle-lock.js';
import * as z from '../../../shared/zod.js';
import { documentClient } from '../../lib/table/client.js';
import { tableName } from '../../lib/table/definition.js';
import { parseItem, type Item } from '../../lib/table/item.js';
import { optionalStoredText } from '../../lib/table/stored-fields.js';

/** The practice item: pk practiceId, sk PRACTICE (docs/access-patterns.md). */
export const PRACTICE_KEY = 'PRACTICE';

/**
 * The practice item's own fields. Items written by a first-admin run or the seed lack some (phone,
 * logo, lock time), and a practice may have cleared its phone or logo: those read as their defaults.
 */
const StoredPractice = z.object({
  practiceName: z._default(z.string(), ''),
  productDeactivatedAt: z._default(z.nullable(z.string()), null),
  phoneNumber: optionalStoredText,
  additionalPhoneNumbers: z._default(z.array(z.object({ phoneNumber: z.string(), owner: z.string() })), []),
  featureFlags: z._default(z.record(z.string(), z.boolean()), {}),
  base64Logo: optionalStoredText,
  /** Idle minutes before the web locks the screen (default when never set). */
  idleLockMinutes: z._default(z.number(), IDLE_LOCK_MINUTES_DEFAULT),
});

export type Practice = z.output<typeof StoredPractice> & { practiceId: string };

/** The practice's id is its item's partition key, which the parse leaves out. */
export const practiceFromItem = (item: Item): Practice => ({ practiceId: String(item.practiceId), ...parseItem('practice', StoredPractice, item) });

export async function getPractice(practiceId: string): Promise<Practice | null> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: PRACTICE_KEY } }));
  return out.Item ? practiceFromItem(out.Item) : null;
}
