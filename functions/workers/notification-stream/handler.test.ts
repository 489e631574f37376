import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import type { NotificationEvent, NotificationPublisher } from '../../lib/adapters/notification-publisher.js';
import { notificationStreamHandler } from './handler.js';
import { markerKeyOf, type PublishedMarkers, type VersionRef } from '../../data/notifications/published-markers.js';

function insert(id: string, v: number, seq: string): DynamoDBRecord {
  return {
    eventName: 'INSERT',
    eventID: `e-${seq}`,
    dynamodb: {
      SequenceNumber: seq,
      NewImage: {
        practiceId: { S: 'prc_demo' },
        sk: { S: `NOTIFICATION#${id}#V#${v}` },
        entityType: { S: 'NOTIFICATION' },
        notificationId: { S: id },
        notificationVersion: { N: String(v) },
        isLatestVersion: { BOOL: true },
        notificationType: { S: 'SMS' },
        notificationStatus: { S: 'UNREAD' },
        createdAt: { S: '2026-11-24T08:00:00.000Z' },
      },
    },
  };
}

/** Markers kept in memory, counting the table requests they stand for. */
function memoryMarkers(): PublishedMarkers & { keys: Set<string>; reads: number; writes: number } {
  const markers = {
    keys: new Set<string>(),
    reads: 0,
    writes: 0,
    publishedAmong: async (refs: readonly VersionRef[]) => {
      markers.reads++;
      return new Set(refs.map(markerKeyOf).filter((k) => markers.keys.has(k)));
    },
    markPublished: async (refs: readonly VersionRef[]) => {
      markers.writes++;
      for (const r of refs) markers.keys.add(markerKeyOf(r));
    },
  };
  return markers;
}

function recordingPublisher(failFor = new Set<string>()) {
  const sent: string[] = [];
  const publisher: NotificationPublisher = {
    publishCreated: async (n: NotificationEvent) => {
      if (failFor.has(n.notificationId)) throw new Error('AppSync unavailable');
      sent.push(`created ${n.notificationId}@${n.notificationVersion}`);
    },
    publishUpdated: async (n: NotificationEvent) => {
      if (failFor.has(n.notificationId)) throw new Error('AppSync unavailable');
      sent.push(`updated ${n.notificationId}@${n.notificationVersion}`);
    },
  };
  return { publisher, sent };
}

describe('notification stream consumer', () => {
  it('publishes each version in stream order and skips versions already announced', async () => {
    const markers = memoryMarkers();
    const { publisher, sent } = recordingPublisher();
    const handle = notificationStreamHandler({ publisher: () => publisher, markers, practiceId: () => 'prc_demo' });
    const batch = { Records: [insert('a', 1, '1'), insert('a', 2, '2'), insert('b', 1, '3')] };
    expect(await handle(batch)).toEqual({ batchItemFailures: [] });
    expect(await handle(batch)).toEqual({ batchItemFailures: [] });
    expect(sent).toEqual(['created a@1', 'updated a@2', 'created b@1']);
  });

  it('reads and records the markers of a burst once each, not once per notification', async () => {
    const markers = memoryMarkers();
    const { publisher, sent } = recordingPublisher();
    const handle = notificationStreamHandler({ publisher: () => publisher, markers, practiceId: () => 'prc_demo' });
    const burst = Array.from({ length: 25 }, (_, i) => insert(`n${i}`, 1, String(i + 1)));
    expect(await handle({ Records: burst })).toEqual({ batchItemFailures: [] });
    expect(sent).toHaveLength(25);
    expect({ reads: markers.reads, writes: markers.writes }).toEqual({ reads: 1, writes: 1 });
  });

  it('stops at the first failed publish and reports it, leaving later records for the retry', async () => {
    const markers = memoryMarkers();
    const failing = new Set(['b']);
    const { publisher, sent } = recordingPublisher(failing);
    const handle = notificationStreamHandler({ publisher: () => publisher, markers, practiceId: () => 'prc_demo' });
    const batch = { Records: [insert('a', 1, '1'), insert('b', 1, '2'), insert('c', 1, '3')] };
    expect(await handle(batch)).toEqual({ batchItemFailures: [{ itemIdentifier: '2' }] });
    expect(sent).toEqual(['created a@1']);
    // What went out before the failure is recorded, so a replay of the whole batch does not repeat it.
    expect([...markers.keys]).toEqual([markerKeyOf({ practiceId: 'prc_demo', notificationId: 'a', notificationVersion: 1 })]);
    failing.clear();
    expect(await handle({ Records: batch.Records.slice(1) })).toEqual({ batchItemFailures: [] });
    expect(sent).toEqual(['created a@1', 'created b@1', 'created c@1']);
  });

  it('never announces a notification of another practice, whatever the table holds', async () => {
    const markers = memoryMarkers();
    const { publisher, sent } = recordingPublisher();
    const handle = notificationStreamHandler({ publisher: () => publisher, markers, practiceId: () => 'prc_other' });
    expect(await handle({ Records: [insert('a', 1, '1')] })).toEqual({ batchItemFailures: [] });
    expect(sent).toEqual([]);
  });
});
