import { batchGetAll, batchWriteAll } from '../../lib/table/batch.js';
import { TTL_ATTRIBUTE } from '../../lib/table/definition.js';

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
  /** The marker keys (publishedMarkerKey) of those of `refs` already announced. */
  publishedAmong(refs: readonly VersionRef[]): Promise<Set<string>>;
  markPublished(refs: readonly VersionRef[], at?: Date): Promise<void>;
}

export const markerKeyOf = (ref: VersionRef) => publishedMarkerKey(ref.notificationId, ref.notificationVersion ?? 1);

/**
 * Stream delivery is at least once: a retried batch replays records whose event already went
 * out. A batch's markers are read in one request and written in one after its publishes, so a
 * version is never skipped unannounced; a crash between the two repeats events, which browsers
 * drop by version. One write per batch rather than per record: a burst of notifications is
 * announced without waiting on a write for each.
 */
export const tablePublishedMarkers: PublishedMarkers = {
  async publishedAmong(refs) {
    const keys = [...new Map(refs.map((ref) => [`${ref.practiceId} ${markerKeyOf(ref)}`, { practiceId: ref.practiceId, sk: markerKeyOf(ref) }])).values()];
    return new Set((await batchGetAll(keys)).map((item) => String(item.sk)));
  },
  async markPublished(refs, at = new Date()) {
    const expiresAt = Math.floor(at.getTime() / 1000) + MARKER_DAYS * 86_400;
    // Writing a marker again (a replayed record) only moves its expiry: no condition needed.
    const items = new Map(
      refs.map((ref) => [
        `${ref.practiceId} ${markerKeyOf(ref)}`,
        { practiceId: ref.practiceId, sk: markerKeyOf(ref), entityType: 'NOTIFICATION_PUBLISHED', publishedAt: at.toISOString(), [TTL_ATTRIBUTE]: expiresAt },
      ]),
    );
    await batchWriteAll([...items.values()].map((Item) => ({ PutRequest: { Item } })));
  },
};
