import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { notificationPublisherFromEnv, type NotificationPublisher } from '../../lib/adapters/notification-publisher.js';
import { log } from '../../lib/log.js';
import { notificationChange } from './notification-change.js';
import { tablePublishedMarkers, type PublishedMarkers } from '../../data/notifications/published-markers.js';

export interface NotificationStreamDeps {
  publisher: () => NotificationPublisher;
  markers: PublishedMarkers;
  /** The stack's practice (PRACTICE_ID): subscribers of any other practice are never addressed. */
  practiceId: () => string | undefined;
}

/**
 * Announces each new notification version to the practice's subscribers, in stream order. On
 * the first failure it stops and reports that record, so Lambda retries from there (records
 * before it are done) and, after the bounded retries, sends the rest to the dead-letter queue.
 */
export function notificationStreamHandler(deps: NotificationStreamDeps) {
  return async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
    for (const record of event.Records ?? []) {
      const change = notificationChange(record);
      if (!change) continue;
      const n = change.notification;
      const practiceId = deps.practiceId();
      if (practiceId && n.practiceId !== practiceId) {
        log.error('notification of another practice in the stream: not announced', { notificationId: n.notificationId });
        continue;
      }
      try {
        if (await deps.markers.wasPublished(n)) continue;
        const publisher = deps.publisher();
        if (change.kind === 'created') await publisher.publishCreated(n);
        else await publisher.publishUpdated(n);
        await deps.markers.markPublished(n);
      } catch (error) {
        log.error('notification publish failed', {
          notificationId: n.notificationId,
          notificationVersion: n.notificationVersion,
          kind: change.kind,
          error: (error as Error)?.name,
          detail: (error as Error)?.message,
        });
        return { batchItemFailures: [{ itemIdentifier: record.dynamodb?.SequenceNumber ?? record.eventID ?? '' }] };
      }
    }
    return { batchItemFailures: [] };
  };
}

let envPublisher: { url: string | undefined; publisher: NotificationPublisher } | undefined;

/** One publisher per instance; a process that runs one local runtime after another (the bench) gets the current endpoint's. */
function publisherFromEnv(): NotificationPublisher {
  if (!envPublisher || envPublisher.url !== process.env.APPSYNC_URL) envPublisher = { url: process.env.APPSYNC_URL, publisher: notificationPublisherFromEnv() };
  return envPublisher.publisher;
}

export const handler = notificationStreamHandler({
  publisher: publisherFromEnv,
  markers: tablePublishedMarkers,
  practiceId: () => process.env.PRACTICE_ID,
});
