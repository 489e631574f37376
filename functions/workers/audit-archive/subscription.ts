import type { StreamSubscription } from '../../lib/table/stream.js';

/**
 * The audit archiver reads every new audit entry, and every change to or removal of one, from the
 * table's stream, in commit order (all of a practice's entries share its partition key, so they
 * share a shard). It never gives a record
 * up early: a failing batch is retried, whole and in order, for as long as the stream keeps it
 * (24 hours), and only then reaches the dead-letter queue, whose alarm calls an operator.
 */
export const AUDIT_ARCHIVE_STREAM: StreamSubscription = {
  name: 'audit-archive',
  entry: 'functions/workers/audit-archive/handler.ts',
  batchSize: 100,
  // Halving a batch keeps the order, but a batch that fails is a store or key outage, not a bad record.
  bisectBatchOnError: false,
  retryAttempts: 10_000,
  maxRecordAgeSeconds: 86_400,
  reportBatchItemFailures: false,
  // New entries; and any change or removal at an audit entry's key, which becomes a tamper record.
  // The key decides it, not the image, so an entry rewritten as something else is caught too.
  filters: [
    { eventName: ['INSERT'], dynamodb: { NewImage: { entityType: { S: ['AUDIT'] } } } },
    { eventName: ['MODIFY', 'REMOVE'], dynamodb: { Keys: { sk: { S: [{ prefix: 'AUDIT#' }] } } } },
  ],
};

/**
 * Deployed, the mapping waits up to this long to fill a batch: at a clinic's pace that is one
 * archive object (one PUT, one chain-head write) per minute or per 100 entries instead of one per
 * request, which keeps ten years of archive in a few million objects. The local stream delivers at once.
 */
export const AUDIT_ARCHIVE_BATCHING_WINDOW_SECONDS = 60;
