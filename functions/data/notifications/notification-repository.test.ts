import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestTable, TEST_PRACTICE } from '../../../test/support/test-table.js';
import {
  countUnread,
  countUnreadByReading,
  createNotification,
  deleteNotification,
  findLatestBySource,
  getLatestNotification,
  listChangedSince,
  listConversationNotifications,
  listLatest,
  listNotificationVersions,
  NOTIFICATION_SMS_PAIR_MARKER,
  notificationVersionKey,
  updateNotification,
} from './notification-repository.js';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../lib/table/client.js';
import { tableName } from '../../lib/table/definition.js';
import { backfillNotificationCounts, backfillSmsPairKeys } from './notification-backfill.js';

let table: { stop(): Promise<void> };
const actor = { userId: 'u-1' };

beforeAll(async () => {
  table = await startTestTable();
});
afterAll(async () => {
  await table?.stop();
});

describe('notification repository', () => {
  it('keeps every version, and flags only the latest', async () => {
    const created = await createNotification(TEST_PRACTICE, { notificationType: 'DRAFT', sourceId: 'note-1', relatedTo: 'u-2', patientId: 'pat-1' }, actor);
    expect(created).toMatchObject({ notificationVersion: 1, isLatestVersion: true, notificationStatus: 'UNREAD', author: 'u-1' });
    const updated = await updateNotification(TEST_PRACTICE, created.notificationId, { notificationStatus: 'UPDATED', text: 'Saved again' }, { userId: 'u-2' });
    expect(updated).toMatchObject({ notificationVersion: 2, notificationStatus: 'UPDATED', lastUpdatedBy: 'u-2', createdAt: created.createdAt });
    const versions = await listNotificationVersions(TEST_PRACTICE, created.notificationId);
    expect(versions.map((v) => [v.notificationVersion, v.isLatestVersion])).toEqual([
      [1, false],
      [2, true],
    ]);
    expect((await findLatestBySource(TEST_PRACTICE, 'DRAFT', 'note-1')).map((n) => n.notificationVersion)).toEqual([2]);
    expect((await listLatest(TEST_PRACTICE, { types: ['DRAFT'], relatedTo: 'u-2' })).map((n) => n.notificationId)).toEqual([created.notificationId]);
  });

  it('lists a notification once while a query sees an update half applied', async () => {
    // The indexes are the practice's own in a deployed table; this one is shared with the cases below, so both versions go at the end.
    const HALFWAY = `${TEST_PRACTICE}-halfway`;
    const created = await createNotification(HALFWAY, { notificationType: 'LAB_RESULTS', sourceId: 'note-halfway', assigned: 'u-halfway' }, actor);
    const old = (await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId: HALFWAY, sk: created.sk } }))).Item!;
    // The update's new version as its transaction puts it, before the same transaction retires the old one.
    await documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...old, sk: notificationVersionKey(created.notificationId, 2), notificationVersion: 2, text: 'Second report in' },
      }),
    );
    expect((await findLatestBySource(HALFWAY, 'LAB_RESULTS', 'note-halfway')).map((n) => [n.notificationVersion, n.text])).toEqual([[2, 'Second report in']]);
    const bySource = await listLatest(HALFWAY, { types: ['LAB_RESULTS'], sourceId: 'note-halfway' });
    expect(bySource.map((n) => n.notificationVersion)).toEqual([2]);
    const byStatus = await listLatest(HALFWAY, { types: ['LAB_RESULTS'], assigned: 'u-halfway' });
    expect(byStatus.map((n) => [n.notificationId, n.notificationVersion])).toEqual([[created.notificationId, 2]]);
    for (const version of [1, 2]) {
      await documentClient().send(
        new DeleteCommand({ TableName: tableName(), Key: { practiceId: HALFWAY, sk: notificationVersionKey(created.notificationId, version) } }),
      );
    }
  });

  it('refuses a stale update with 409 and leaves the latest as it was', async () => {
    const n = await createNotification(TEST_PRACTICE, { notificationType: 'SMS' }, actor);
    await updateNotification(TEST_PRACTICE, n.notificationId, { notificationStatus: 'READ' }, actor, { expectedVersion: 1 });
    await expect(updateNotification(TEST_PRACTICE, n.notificationId, { notificationStatus: 'UNREAD' }, actor, { expectedVersion: 1 })).rejects.toMatchObject({
      statusCode: 409,
    });
    expect(await getLatestNotification(TEST_PRACTICE, n.notificationId)).toMatchObject({ notificationVersion: 2, notificationStatus: 'READ' });
  });

  it('writes over the version a caller found without reading it again, and over the latest when what it found is behind', async () => {
    const n = await createNotification(TEST_PRACTICE, { notificationType: 'DRAFT', sourceId: 'note-found', assigned: 'u-1' }, actor);
    const [found] = await findLatestBySource(TEST_PRACTICE, 'DRAFT', 'note-found');
    expect(await updateNotification(TEST_PRACTICE, n.notificationId, { text: 'Saved' }, actor, { latest: found })).toMatchObject({ notificationVersion: 2 });
    // A lagging index (or a change meanwhile) answers version 1 after 2 was written: the update goes over 2, and nothing is lost.
    await updateNotification(TEST_PRACTICE, n.notificationId, { notificationStatus: 'READ' }, { userId: 'u-2' });
    const third = await updateNotification(TEST_PRACTICE, n.notificationId, { text: 'Saved again' }, actor, { latest: found });
    expect(third).toMatchObject({ notificationVersion: 4, notificationStatus: 'READ', text: 'Saved again' });
    expect((await listNotificationVersions(TEST_PRACTICE, n.notificationId)).map((v) => [v.notificationVersion, v.isLatestVersion])).toEqual([
      [1, false],
      [2, false],
      [3, false],
      [4, true],
    ]);
  });

  it('refuses a second create with the same id', async () => {
    await createNotification(TEST_PRACTICE, { notificationType: 'TASK', notificationId: 'reminder-r1' }, actor);
    await expect(createNotification(TEST_PRACTICE, { notificationType: 'TASK', notificationId: 'reminder-r1' }, actor)).rejects.toMatchObject({
      statusCode: 409,
    });
  });

  it('lists latest versions merged updated, unread, read and answers changes since a time', async () => {
    const before = new Date().toISOString();
    const read = await createNotification(TEST_PRACTICE, { notificationType: 'FAX', notificationStatus: 'READ' }, actor);
    const unread = await createNotification(TEST_PRACTICE, { notificationType: 'FAX', assigned: 'u-9' }, actor);
    const upd = await createNotification(TEST_PRACTICE, { notificationType: 'FAX' }, actor);
    await updateNotification(TEST_PRACTICE, upd.notificationId, { notificationStatus: 'UPDATED' }, actor);
    const gone = await createNotification(TEST_PRACTICE, { notificationType: 'FAX' }, actor);
    await deleteNotification(TEST_PRACTICE, gone.notificationId, actor);
    const list = await listLatest(TEST_PRACTICE, { types: ['FAX'] });
    expect(list.map((n) => n.notificationId)).toEqual([upd.notificationId, unread.notificationId, read.notificationId]);
    expect(list.every((n) => n.isLatestVersion)).toBe(true);
    const { notifications: changed, complete } = await listChangedSince(TEST_PRACTICE, { since: before, types: ['FAX'] });
    expect(complete).toBe(true);
    expect(changed.find((n) => n.notificationId === gone.notificationId)).toMatchObject({ notificationStatus: 'DELETED', notificationVersion: 2 });
    expect(changed.find((n) => n.notificationId === upd.notificationId)).toMatchObject({ notificationVersion: 2 });
    const counts = await countUnread(TEST_PRACTICE, 'u-9');
    expect(counts.byType.FAX).toBe(2);
    expect(counts.assignedToMe).toBe(1);
  });

  it('a catch-up reads at most its limit of changes, newest first, and says when more changed', async () => {
    const before = new Date().toISOString();
    const made = [];
    for (let i = 0; i < 4; i++) made.push(await createNotification(TEST_PRACTICE, { notificationType: 'FORM' }, actor));
    await updateNotification(TEST_PRACTICE, made[0]!.notificationId, { notificationStatus: 'READ' }, actor);
    const all = await listChangedSince(TEST_PRACTICE, { since: before, types: ['FORM'] });
    expect(all.complete).toBe(true);
    expect(all.notifications.map((n) => n.notificationId).sort()).toEqual(made.map((n) => n.notificationId).sort());
    const page = await listChangedSince(TEST_PRACTICE, { since: before, types: ['FORM'], limit: 2 });
    expect(page.complete).toBe(false);
    // The newest changes: none left out changed later than one answered.
    expect(page.notifications).toHaveLength(2);
    const answered = new Set(page.notifications.map((n) => n.notificationId));
    const oldestAnswered = page.notifications.map((n) => n.lastUpdated).sort()[0]!;
    for (const n of all.notifications.filter((x) => !answered.has(x.notificationId))) expect(n.lastUpdated <= oldestAnswered).toBe(true);
  });

  it('finds a conversation’s texts by its id and, without a sourceId, by its two numbers either way round; older ones once backfilled', async () => {
    const numbers = { from: '(541) 555-0177', to: '+15035550123' };
    const bySource = await createNotification(
      TEST_PRACTICE,
      { notificationType: 'SMS', sourceId: 'cnv_pair1', data: { from: '+15415550177', to: '+15035550123' } },
      actor,
    );
    const byNumbers = await createNotification(TEST_PRACTICE, { notificationType: 'SMS', data: { from: '5035550123', to: '+1 541 555 0177' } }, actor);
    const elsewhere = await createNotification(TEST_PRACTICE, { notificationType: 'SMS', data: { from: '+15415550178', to: '+15035550123' } }, actor);
    const found = async () => (await listConversationNotifications(['cnv_pair1'], numbers)).map((n) => n.notificationId).sort();
    expect(await found()).toEqual([bySource.notificationId, byNumbers.notificationId].sort());
    expect(await found()).not.toContain(elsewhere.notificationId);

    // One written before the numbers were keys: found once the backfill ran, and the backfill runs once.
    await documentClient().send(
      new UpdateCommand({ TableName: tableName(), Key: { practiceId: TEST_PRACTICE, sk: byNumbers.sk }, UpdateExpression: 'REMOVE gsi1pk, gsi1sk' }),
    );
    expect(await found()).toEqual([bySource.notificationId]);
    expect(await backfillSmsPairKeys(TEST_PRACTICE)).toBe(1);
    expect(await found()).toEqual([bySource.notificationId, byNumbers.notificationId].sort());
    const marker = await documentClient().send(
      new GetCommand({ TableName: tableName(), Key: { practiceId: TEST_PRACTICE, sk: NOTIFICATION_SMS_PAIR_MARKER } }),
    );
    expect(marker.Item).toMatchObject({ written: 1 });
    expect(await backfillSmsPairKeys(TEST_PRACTICE)).toBe(0);
  });

  it('keeps the unread counts in one item as notifications are written, agreeing with reading them all', async () => {
    // Counted once (what a practice wrote before the counts item), then kept by each write.
    await backfillNotificationCounts(TEST_PRACTICE);
    const a = await createNotification(TEST_PRACTICE, { notificationType: 'LAB_RESULTS', assigned: 'u-7' }, actor);
    const b = await createNotification(TEST_PRACTICE, { notificationType: 'LAB_RESULTS' }, actor);
    await updateNotification(TEST_PRACTICE, a.notificationId, { notificationStatus: 'UPDATED', assigned: 'u-8' }, actor);
    await updateNotification(TEST_PRACTICE, b.notificationId, { notificationStatus: 'READ' }, actor);
    const c = await createNotification(TEST_PRACTICE, { notificationType: 'LAB_RESULTS', assigned: 'u-8' }, actor);
    await deleteNotification(TEST_PRACTICE, c.notificationId, actor);
    for (const user of ['u-7', 'u-8', 'u-9']) expect(await countUnread(TEST_PRACTICE, user)).toEqual(await countUnreadByReading(TEST_PRACTICE, user));
    const counts = await countUnread(TEST_PRACTICE, 'u-8');
    expect(counts.byType.LAB_RESULTS).toBe(1);
    expect(counts.assignedToMe).toBe(1);
  });

  it('lists the newest of each status first across types, updated before unread before read', async () => {
    const made = [];
    for (let i = 0; i < 12; i++) {
      const type = (['FORM', 'PHONE_CALL', 'TASK'] as const)[i % 3];
      made.push(
        await createNotification(
          TEST_PRACTICE,
          { notificationType: type, notificationStatus: i % 4 === 0 ? 'READ' : 'UNREAD', relatedTo: 'merge-test' },
          actor,
          new Date(Date.UTC(2030, 0, 1, 0, i)),
        ),
      );
    }
    const page = await listLatest(TEST_PRACTICE, { types: ['FORM', 'PHONE_CALL', 'TASK'], relatedTo: 'merge-test', limit: 7 });
    const unread = made.filter((_, i) => i % 4 !== 0).reverse();
    expect(page.map((n) => n.notificationId)).toEqual(unread.slice(0, 7).map((n) => n.notificationId));
    const all = await listLatest(TEST_PRACTICE, { types: ['FORM', 'PHONE_CALL', 'TASK'], relatedTo: 'merge-test' });
    expect(all.map((n) => n.notificationId)).toEqual([...unread, ...made.filter((_, i) => i % 4 === 0).reverse()].map((n) => n.notificationId));
  });
});
