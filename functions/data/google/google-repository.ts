/**
 * The table items of the push into Google (google-push.ts): only the lazily loaded Google code
 * reads them, so they stay out of the calendar's own chunk (which the chart group imports too).
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { queryAll } from '../../lib/table/query-all.js';
import { documentClient } from '../../lib/table/client.js';
import { tableName } from '../../lib/table/definition.js';
import { googleLinkKey, type GoogleLinkItem } from '../calendar/calendar-repository.js';

/** Sets fields of an existing link only: a write that finishes after an unlink does not bring the link back. */
export async function updateGoogleLink(
  practiceId: string,
  userId: string,
  fields: Partial<Pick<GoogleLinkItem, 'calendarId' | 'lastSyncAt' | 'lastSyncError'>>,
): Promise<boolean> {
  const names = Object.keys(fields);
  if (!names.length) return true;
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { practiceId, sk: googleLinkKey(userId) },
        UpdateExpression: `SET ${names.map((n, i) => `#f${i} = :v${i}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(sk)',
        ExpressionAttributeNames: Object.fromEntries(names.map((n, i) => [`#f${i}`, n])),
        ExpressionAttributeValues: Object.fromEntries(names.map((n, i) => [`:v${i}`, (fields as Record<string, unknown>)[n] ?? null])),
      }),
    );
    return true;
  } catch (error) {
    if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}

export const googleEventKey = (appointmentId: string) => `GOOGLE_EVENT#${appointmentId}`;
/** Where an appointment was written in Google, so a change patches (or a cancel deletes) that same event. */
export interface GoogleEventItem {
  appointmentId: string;
  /** The provider whose link wrote it. */
  userId: string;
  calendarId: string;
  eventId: string;
  syncedAt: string;
}
const eventOf = (item: Record<string, unknown>): GoogleEventItem => ({
  appointmentId: String(item.appointmentId),
  userId: String(item.userId),
  calendarId: String(item.calendarId),
  eventId: String(item.eventId),
  syncedAt: String(item.syncedAt),
});
export async function getGoogleEvent(practiceId: string, appointmentId: string): Promise<GoogleEventItem | null> {
  const item = (
    await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: googleEventKey(appointmentId) }, ConsistentRead: true }))
  ).Item;
  return item ? eventOf(item) : null;
}
/** Every event written under one user's link (a provider-wide resync, or the cleanup after an unlink). */
export async function listGoogleEventsOf(practiceId: string, userId: string): Promise<GoogleEventItem[]> {
  const items = await queryAll({
    KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :prefix)',
    FilterExpression: 'userId = :user',
    ExpressionAttributeValues: { ':p': practiceId, ':prefix': googleEventKey(''), ':user': userId },
    ConsistentRead: true,
  });
  return items.map(eventOf);
}
/** Forgets an event unless it was written again since it was read: a newer write belongs to a newer link. */
export async function deleteGoogleEventIf(practiceId: string, event: GoogleEventItem): Promise<void> {
  try {
    await documentClient().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: { practiceId, sk: googleEventKey(event.appointmentId) },
        ConditionExpression: 'userId = :user AND syncedAt = :synced',
        ExpressionAttributeValues: { ':user': event.userId, ':synced': event.syncedAt },
      }),
    );
  } catch (error) {
    if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
  }
}
export const putGoogleEvent = (practiceId: string, event: GoogleEventItem) =>
  documentClient().send(
    new PutCommand({ TableName: tableName(), Item: { ...event, practiceId, sk: googleEventKey(event.appointmentId), entityType: 'GOOGLE_EVENT' } }),
  );
export const deleteGoogleEvent = (practiceId: string, appointmentId: string) =>
  documentClient().send(new DeleteCommand({ TableName: tableName(), Key: { practiceId, sk: googleEventKey(appointmentId) } }));

/**
 * An unlinked user's refresh token, kept only until the unlink's cleanup has deleted the events
 * written with it and revoked it at Google (google-resync.ts). Nothing else reads it.
 */
const parkedTokenKey = (userId: string, unlinkedAt: string) => `GOOGLE_UNLINKED#${userId}#${unlinkedAt}`;
export const parkGoogleToken = (practiceId: string, userId: string, unlinkedAt: string, refreshToken: string) =>
  documentClient().send(
    new PutCommand({
      TableName: tableName(),
      Item: { practiceId, sk: parkedTokenKey(userId, unlinkedAt), entityType: 'GOOGLE_UNLINKED', userId, unlinkedAt, refreshToken },
    }),
  );
export async function getParkedGoogleToken(practiceId: string, userId: string, unlinkedAt: string): Promise<{ refreshToken: string } | null> {
  const item = (
    await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: parkedTokenKey(userId, unlinkedAt) }, ConsistentRead: true }))
  ).Item;
  return item?.refreshToken ? { refreshToken: String(item.refreshToken) } : null;
}
export const deleteParkedGoogleToken = (practiceId: string, userId: string, unlinkedAt: string) =>
  documentClient().send(new DeleteCommand({ TableName: tableName(), Key: { practiceId, sk: parkedTokenKey(userId, unlinkedAt) } }));
