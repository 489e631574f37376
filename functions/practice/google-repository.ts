/**
 * The table items of the push into Google (google-push.ts): only the lazily loaded Google code
 * reads them, so they stay out of the calendar's own chunk (which the chart group imports too).
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../lib/table/client.js';
import { tableName } from '../lib/table/definition.js';
import { googleLinkKey, type GoogleLinkItem } from './calendar-repository.js';

/** Sets fields of an existing link only: a write that finishes after an unlink does not bring the link back. */
export async function updateGoogleLink(practiceId: string, userId: string, fields: Partial<Pick<GoogleLinkItem, 'calendarId' | 'lastSyncAt' | 'lastSyncError'>>): Promise<boolean> {
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
export async function getGoogleEvent(practiceId: string, appointmentId: string): Promise<GoogleEventItem | null> {
  const item = (await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: googleEventKey(appointmentId) }, ConsistentRead: true }))).Item;
  return item
    ? { appointmentId: String(item.appointmentId), userId: String(item.userId), calendarId: String(item.calendarId), eventId: String(item.eventId), syncedAt: String(item.syncedAt) }
    : null;
}
export const putGoogleEvent = (practiceId: string, event: GoogleEventItem) =>
  documentClient().send(new PutCommand({ TableName: tableName(), Item: { ...event, practiceId, sk: googleEventKey(event.appointmentId), entityType: 'GOOGLE_EVENT' } }));
export const deleteGoogleEvent = (practiceId: string, appointmentId: string) =>
  documentClient().send(new DeleteCommand({ TableName: tableName(), Key: { practiceId, sk: googleEventKey(appointmentId) } }));
