import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { PhoneCall } from '../../shared/calls/call-schema.js';
import { documentClient } from '../lib/table/client.js';
import { tableName } from '../lib/table/definition.js';
import { queryAll } from '../lib/table/query-all.js';

/**
 * Phone call items: pk practiceId, sk CALL#<ident> (README access patterns); the vendor's call id
 * finds its record through a pointer item sk CALLSID#<callSid> written with it, so a callback needs
 * one read. Names of numbers are not stored: they are resolved from contacts and patients on read.
 * The unread calls are counted in one item, sk CALL_COUNTS (`unread`), moved by each write by what
 * it replaced, so the polled badge reads one item (`indexed` once backfillCallCounts counted the
 * calls written before it was kept).
 */
export const CALL_PREFIX = 'CALL#';
export const CALL_COUNTS_KEY = 'CALL_COUNTS';
export const callKey = (ident: string) => `${CALL_PREFIX}${ident}`;
export const callSidKey = (callSid: string) => `CALLSID#${callSid}`;

export function callFromItem(item: Record<string, unknown>): PhoneCall {
  return PhoneCall.parse({
    ident: item.ident,
    callSid: item.callSid ?? null,
    direction: item.direction,
    status: item.status,
    callStatus: item.callStatus ?? 'queued',
    caller: item.caller ?? '',
    recipient: item.recipient ?? '',
    callerName: null,
    recipientName: null,
    patientId: item.patientId ?? null,
    patientName: item.patientName ?? null,
    assigned: item.assigned ?? null,
    placedBy: item.placedBy ?? null,
    voicemailKey: item.voicemailKey ?? null,
    voicemailSeconds: item.voicemailSeconds ?? null,
    durationSeconds: item.durationSeconds ?? null,
    noteId: item.noteId ?? null,
    ...(typeof item.missed === 'boolean' ? { missed: item.missed } : {}),
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  });
}

export async function getCall(practiceId: string, ident: string): Promise<PhoneCall | null> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: callKey(ident) }, ConsistentRead: true }));
  return out.Item && out.Item.deleted !== true ? callFromItem(out.Item) : null;
}

export async function getCallBySid(practiceId: string, callSid: string): Promise<PhoneCall | null> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: callSidKey(callSid) }, ConsistentRead: true }));
  return out.Item ? getCall(practiceId, String(out.Item.ident)) : null;
}

/** 1 for a call the unread count holds. */
export const unreadOf = (item: Record<string, unknown> | null | undefined): number => (item && item.deleted !== true && item.status === 'UNREAD' ? 1 : 0);

/** Each write returns the exact item it replaced, so concurrent changes of one call add up right. */
async function countChange(practiceId: string, before: Record<string, unknown> | undefined, after: Record<string, unknown> | undefined): Promise<void> {
  const change = unreadOf(after) - unreadOf(before);
  if (change === 0) return;
  await documentClient().send(
    new UpdateCommand({ TableName: tableName(), Key: { practiceId, sk: CALL_COUNTS_KEY }, UpdateExpression: 'ADD unread :n', ExpressionAttributeValues: { ':n': change } }),
  );
}

/** The unread calls, or null before the practice's calls were counted (then the count reads them all). */
export async function getUnreadCallCount(practiceId: string): Promise<number | null> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: CALL_COUNTS_KEY }, ConsistentRead: true }));
  return out.Item?.indexed ? Math.max(Number(out.Item.unread) || 0, 0) : null;
}

export async function putCall(practiceId: string, call: PhoneCall): Promise<void> {
  const { callerName: _callerName, recipientName: _recipientName, ...stored } = call;
  const item = { ...stored, practiceId, sk: callKey(call.ident), entityType: 'CALL' };
  const out = await documentClient().send(new PutCommand({ TableName: tableName(), Item: item, ReturnValues: 'ALL_OLD' }));
  await countChange(practiceId, out.Attributes, item);
  if (call.callSid) await documentClient().send(new PutCommand({ TableName: tableName(), Item: { practiceId, sk: callSidKey(call.callSid), entityType: 'CALL_SID', ident: call.ident } }));
}

/** A deleted call leaves the list; its vendor pointer stays so a late callback finds nothing to change. */
export async function deleteCall(practiceId: string, ident: string): Promise<void> {
  const out = await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: { practiceId, sk: callKey(ident) }, ReturnValues: 'ALL_OLD' }));
  await countChange(practiceId, out.Attributes, undefined);
}

export async function listCalls(practiceId: string): Promise<PhoneCall[]> {
  const items = await queryAll({ KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :prefix)', ExpressionAttributeValues: { ':p': practiceId, ':prefix': CALL_PREFIX } });
  return items.map(callFromItem);
}
