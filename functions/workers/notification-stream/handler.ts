import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { notificationPublisherFromEnv, type NotificationPublisher } from '../../lib/adapters/notification-publisher.js';
import { log } from '../../lib/log.js';
import { notificationChange, type NotificationChange } from './notification-change.js';
import { markerKeyOf, tablePublishedMarkers, type PublishedMarkers } from '../../data/notifications/published-markers.js';

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
 * Which versions went out already is read for the whole batch at once, and what this run
 * announced is recorded at once when it ends, failed or not.
 */
export function notificationStreamHandler(deps: NotificationStreamDeps) {
  return async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
    const practiceId = deps.practiceId();
    const changes = (event.Records ?? []).flatMap((record) => {
      const change = notificationChange(record);
      if (!change) return [];
      if (practiceId && change.notification.practiceId !== practiceId) {
        log.error('notification of another practice in the stream: not announced', { notificationId: change.notification.notificationId });
        return [];
      }
      return [{ record, change }];
    });
    if (!changes.length) return { batchItemFailures: [] };

    const announced: NotificationChange['notification'][] = [];
    let failure: DynamoDBBatchResponse['batchItemFailures'] = [];
    try {
      const published = await deps.markers.publishedAmong(changes.map(({ change }) => change.notification));
      for (const { record, change } of changes) {
        const n = change.notification;
        if (published.has(markerKeyOf(n))) continue;
        try {
          const publisher = deps.publisher();
          if (change.kind === 'created') await publisher.publishCreated(n);
          else await publisher.publishUpdated(n);
          announced.push(n);
        } catch (error) {
          logPublishFailure(n, change.kind, error);
          failure = [{ itemIdentifier: record.dynamodb?.SequenceNumber ?? record.eventID ?? '' }];
          break;
        }
      }
    } catch (error) {
      // The markers could not be read: nothing was announced, the whole batch is tried again.
      logPublishFailure(changes[0].change.notification, changes[0].change.kind, error);
      return { batchItemFailures: [{ itemIdentifier: changes[0].record.dynamodb?.SequenceNumber ?? changes[0].record.eventID ?? '' }] };
    }
    // Thrown if it fails: the batch is tried again, and announced versions go out once more (browsers drop them by version).
    if (announced.length) await deps.markers.markPublished(announced);
    return { batchItemFailures: failure };
  };
}

function logPublishFailure(n: NotificationChange['notification'], kind: NotificationChange['kind'], error: unknown) {
  log.error('notification publish failed', {
    notificationId: n.notificationId,
    notificationVersion: n.notificationVersion,
    kind,
    error: (error as Error)?.name,
    detail: (error as Error)?.message,
  });
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
