import { randomBytes } from 'node:crypto';
import type { DynamoDBRecord } from 'aws-lambda';

export type AttributeMap = Record<string, unknown>;

/** One committed change of one item, as the write path saw it. */
export interface ItemChange {
  tableName: string;
  /** The item's key attributes, in DynamoDB JSON. */
  keys: AttributeMap;
  /** The partition key's value; records of one partition keep their commit order. */
  partition: string;
  oldImage?: AttributeMap;
  newImage?: AttributeMap;
  /** Deleted by TTL expiry: the stream names the DynamoDB service as the actor. */
  expired?: boolean;
}

let lastSequence = BigInt(Date.now()) * 1_000_000n;

/** Increasing across the whole table, so also within every partition. */
function nextSequenceNumber(): string {
  lastSequence += 1n;
  return lastSequence.toString().padStart(21, '0');
}

/** JSON with object keys sorted, so equal items compare equal whatever the attribute order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value as AttributeMap)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as AttributeMap)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The stream record DynamoDB writes for a change (StreamViewType NEW_AND_OLD_IMAGES), or null
 * when nothing changed: like DynamoDB, a write that leaves the item as it was writes no record.
 */
export function streamRecord(change: ItemChange, region: string, streamLabel: string): DynamoDBRecord | null {
  const { oldImage, newImage } = change;
  if (!oldImage && !newImage) return null;
  if (oldImage && newImage && canonical(oldImage) === canonical(newImage)) return null;
  const eventName = !oldImage ? 'INSERT' : newImage ? 'MODIFY' : 'REMOVE';
  const dynamodb = {
    ApproximateCreationDateTime: Math.floor(Date.now() / 1000),
    Keys: change.keys,
    ...(newImage ? { NewImage: newImage } : {}),
    ...(oldImage ? { OldImage: oldImage } : {}),
    SequenceNumber: nextSequenceNumber(),
    SizeBytes: Buffer.byteLength(JSON.stringify([change.keys, newImage ?? null, oldImage ?? null])),
    StreamViewType: 'NEW_AND_OLD_IMAGES' as const,
  };
  return {
    eventID: randomBytes(16).toString('hex'),
    eventName,
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: region,
    dynamodb: dynamodb as DynamoDBRecord['dynamodb'],
    eventSourceARN: `arn:aws:dynamodb:${region}:000000000000:table/${change.tableName}/stream/${streamLabel}`,
    ...(change.expired ? { userIdentity: { type: 'Service', principalId: 'dynamodb.amazonaws.com' } } : {}),
  };
}
