import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../lib/table/client.js';
import { tableName, TTL_ATTRIBUTE } from '../../lib/table/definition.js';

/*
 * One marker per announced notification version (docs/access-patterns.md):
 *   sk NOTIFPUB#<notificationId>#V#<version, 10 digits>, expiresAt two days on
 * The stream keeps records for 24 hours, so a marker outlives every possible redelivery.
 */
const MARKER_DAYS = 2;
const pad = (v: number) => String(v).padStart(10, '0');
export const publishedMarkerKey = (notificationId: string, version: number) => `NOTIFPUB#${notificationId}#V#${pad(version)}`;

export interface VersionRef {
  practiceId: string;
  notificationId: string;
  notificationVersion?: number | null;
}

export interface PublishedMarkers {
  wasPublished(ref: VersionRef): Promise<boolean>;
  markPublished(ref: VersionRef, at?: Date): Promise<void>;
}

const keyOf = (ref: VersionRef) => ({ practiceId: ref.practiceId, sk: publishedMarkerKey(ref.notificationId, ref.notificationVersion ?? 1) });

/**
 * Stream delivery is at least once: a retried batch replays records whose event already went
 * out. The marker is written after the publish, so a version is never skipped unannounced; a
 * crash between the two repeats one event, which browsers drop by version.
 */
export const tablePublishedMarkers: PublishedMarkers = {
  async wasPublished(ref) {
    const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: keyOf(ref), ConsistentRead: true }));
    return Boolean(out.Item);
  },
  async markPublished(ref, at = new Date()) {
    try {
      await documentClient().send(
        new PutCommand({
          TableName: tableName(),
          Item: {
            ...keyOf(ref),
            entityType: 'NOTIFICATION_PUBLISHED',
            publishedAt: at.toISOString(),
            [TTL_ATTRIBUTE]: Math.floor(at.getTime() / 1000) + MARKER_DAYS * 86_400,
          },
          ConditionExpression: 'attribute_not_exists(sk)',
        }),
      );
    } catch (error) {
      // Already marked by an earlier delivery of the same record: the work is done either way.
      if ((error as { name?: string })?.name !== 'ConditionalCheckFailedException') throw error;
    }
  },
};
