import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { IDLE_LOCK_MINUTES_DEFAULT } from '../../../shared/practice/idle-lock.js';
import { documentClient } from '../../lib/table/client.js';
import { tableName } from '../../lib/table/definition.js';

/** The practice item: pk practiceId, sk PRACTICE (docs/access-patterns.md). */
export const PRACTICE_KEY = 'PRACTICE';

export interface Practice {
  practiceId: string;
  practiceName: string;
  productDeactivatedAt: string | null;
  phoneNumber?: string;
  additionalPhoneNumbers: { phoneNumber: string; owner: string }[];
  featureFlags: Record<string, boolean>;
  base64Logo?: string;
  /** Idle minutes before the web locks the screen (default when never set). */
  idleLockMinutes: number;
}

export function practiceFromItem(item: Record<string, unknown>): Practice {
  return {
    practiceId: String(item.practiceId),
    practiceName: String(item.practiceName ?? ''),
    productDeactivatedAt: (item.productDeactivatedAt as string | null | undefined) ?? null,
    ...(item.phoneNumber ? { phoneNumber: String(item.phoneNumber) } : {}),
    additionalPhoneNumbers: (item.additionalPhoneNumbers as Practice['additionalPhoneNumbers'] | undefined) ?? [],
    featureFlags: (item.featureFlags as Record<string, boolean> | undefined) ?? {},
    ...(item.base64Logo ? { base64Logo: String(item.base64Logo) } : {}),
    idleLockMinutes: typeof item.idleLockMinutes === 'number' ? item.idleLockMinutes : IDLE_LOCK_MINUTES_DEFAULT,
  };
}

export async function getPractice(practiceId: string): Promise<Practice | null> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: PRACTICE_KEY } }));
  return out.Item ? practiceFromItem(out.Item) : null;
}
