import type { AttributeValue } from 'aws-lambda';

/**
 * How a worker reads the table's change stream. The CDK event source mapping and the local
 * stream emitter both read this one object, so the filter, batching and retries cannot drift.
 */
export interface StreamSubscription {
  /** The worker's function name (locally the key of its handler module). */
  name: string;
  /** Handler module, relative to the repository root; exports `handler`. */
  entry: string;
  batchSize: number;
  /** Split a failing batch in two and retry each half (the split does not count as a retry). */
  bisectBatchOnError: boolean;
  /** Retries of a failing batch before it goes to the dead-letter queue. */
  retryAttempts: number;
  /** Records older than this go to the dead-letter queue instead of the function. */
  maxRecordAgeSeconds: number;
  /** The handler answers { batchItemFailures } and Lambda retries from the first failed record. */
  reportBatchItemFailures: boolean;
  /**
   * Lambda event filter patterns (any one matches), in the event filtering syntax: arrays of
   * accepted values, nested objects, and { exists } / { prefix } / { 'anything-but' } rules.
   * Records that match none are dropped before the function sees them.
   */
  filters: readonly Record<string, unknown>[];
}

/** A table item as the stream carries it (DynamoDB JSON). */
export type StreamImage = Record<string, AttributeValue>;

/** DynamoDB JSON to plain values, as the document client reads items (numbers become numbers). */
export function fromStreamImage(image: StreamImage): Record<string, unknown> {
  return Object.fromEntries(Object.entries(image).map(([name, value]) => [name, fromAttributeValue(value)]));
}

function fromAttributeValue(value: AttributeValue): unknown {
  if (value.S !== undefined) return value.S;
  if (value.N !== undefined) return Number(value.N);
  if (value.BOOL !== undefined) return value.BOOL;
  if (value.NULL !== undefined) return null;
  if (value.M !== undefined) return fromStreamImage(value.M);
  if (value.L !== undefined) return value.L.map(fromAttributeValue);
  if (value.SS !== undefined) return new Set(value.SS);
  if (value.NS !== undefined) return new Set(value.NS.map(Number));
  if (value.B !== undefined) return Buffer.from(value.B, 'base64');
  if (value.BS !== undefined) return new Set(value.BS.map((b) => Buffer.from(b, 'base64')));
  throw new Error(`Unknown attribute value type: ${Object.keys(value).join(',')}`);
}
