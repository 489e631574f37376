import type { StreamSubscription } from '../../lib/table/stream.js';

/**
 * The notification publisher reads the table's stream. Every change of a notification is a new
 * version item (an INSERT with entityType NOTIFICATION); flipping the old version's
 * isLatestVersion, the change-log copy and the publisher's own markers are not announced.
 */
export const NOTIFICATION_STREAM: StreamSubscription = {
  name: 'notification-stream',
  entry: 'functions/workers/notification-stream/handler.ts',
  batchSize: 25,
  bisectBatchOnError: true,
  retryAttempts: 5,
  // Browsers catch up from GET /v1/notifications?since= on reconnect; an hour-old live event is noise.
  maxRecordAgeSeconds: 3600,
  reportBatchItemFailures: true,
  filters: [{ eventName: ['INSERT'], dynamodb: { NewImage: { entityType: { S: ['NOTIFICATION'] } } } }],
};
