import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { PhoneCall } from '../../../shared/calls/call-schema.js';
import { documentClient } from '../../lib/table/client.js';
import { parseItem, withDefaults, type Item } from '../../lib/table/item.js';
import { INDEXES, tableName } from '../../lib/table/definition.js';
import { queryAll } from '../../lib/table/query-all.js';
import { countDated, countOnDay, datedIndexKeys, readDatedPage, readDatedStretch, type DatedList, type DatedRange } from '../dated-list/dated-list.js';

/**
 * Phone call items: pk practiceId, sk CALL#<ident> (README access patterns); the vendor's call id
 * finds its record through a pointer item sk CALLSID#<callSid> written with it, so a callback needs
 * one read. Names of numbers are not stored: they are resolved from contacts and patients on read.
 * The unread calls are counted in one item, sk CALL_COUNTS (`unread`), moved by each write by what
 * it replaced, so the polled badge reads one item (`indexed` once backfillCallCounts counted the
 * calls written before it was kept).
 *
 * The list reads one page of a dated list (dated-list.ts): each call is on gsi1 `CALLS#<practiceId>` /
 * `<createdAt>#<ident>`, counted in CALL_COUNTS (`total`) and per day in CALL_DAYS#<yyyy-mm>
 * (`listed` once backfillCallListKeys gave the older calls their keys and counts).
 *
 * A call given a patient is also on gsi2 `CALLPATIENT#<practiceId>#<patientId>` / `<createdAt>#<ident>`,
 * so a chart's export reads that patient's calls only (CALL_KEYS#PATIENT marks a practice whose
 * older calls have the key, written by backfillCallPatientKeys).
 */
export const CALL_PREFIX = 'CALL#';
export const CALL_COUNTS_KEY = 'CALL_COUNTS';
export const callKey = (ident: string) => `${CALL_PREFIX}${ident}`;
export const callSidKey = (callSid: string) => `CALLSID#${callSid}`;
export const CALL_LIST: DatedList = { itemPrefix: CALL_PREFIX, indexName: 'CALLS', countsKey: CALL_COUNTS_KEY, daysEntity: 'CALL_DAYS' };
export const callIndexKeys = (practiceId: string, call: { ident: string; createdAt: string }) => datedIndexKeys(CALL_LIST, practiceId, call);
export const CALL_PATIENT_KEYS_MARKER = 'CALL_KEYS#PATIENT';
export const callPatientIndexPk = (practiceId: string, patientId: string) => `CALLPATIENT#${practiceId}#${patientId}`;
/** Only a call naming a patient is on the patient's index: a call without one stays off it. */
export const callPatientKeys = (practiceId: string, call: { ident: string; createdAt: string; patientId: string | null }) =>
  call.patientId ? { gsi2pk: callPatientIndexPk(practiceId, call.patientId), gsi2sk: `${call.createdAt}#${call.ident}` } : {};

/** What a call written before a field existed reads as. */
const CALL_DEFAULTS: Item = {
  callSid: null,
  callStatus: 'queued',
  caller: '',
  recipient: '',
  patientId: null,
  patientName: null,
  assigned: null,
  placedBy: null,
  voicemailKey: null,
  voicemailSeconds: null,
  durationSeconds: null,
  noteId: null,
};

/** The names of its numbers are not stored: they are resolved from contacts and patients on read. */
export const callFromItem = (item: Item): PhoneCall =>
  parseItem('call', PhoneCall, { ...withDefaults(item, CALL_DEFAULTS), callerName: null, recipientName: null });

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
  const present = (item: Record<string, unknown> | undefined) => (item && item.deleted !== true ? 1 : 0);
  const listed = present(after) - present(before);
  if (change === 0 && listed === 0) return;
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { practiceId, sk: CALL_COUNTS_KEY },
      UpdateExpression: 'ADD unread :n, #total :t',
      ExpressionAttributeNames: { '#total': 'total' },
      ExpressionAttributeValues: { ':n': change, ':t': listed },
    }),
  );
  await countOnDay(CALL_LIST, practiceId, String((after ?? before)?.createdAt ?? ''), listed);
}

/** The unread calls, or null before the practice's calls were counted (then the count reads them all). */
export async function getUnreadCallCount(practiceId: string): Promise<number | null> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: CALL_COUNTS_KEY }, ConsistentRead: true }));
  return out.Item?.indexed ? Math.max(Number(out.Item.unread) || 0, 0) : null;
}

export async function putCall(practiceId: string, call: PhoneCall): Promise<void> {
  const { callerName: _callerName, recipientName: _recipientName, ...stored } = call;
  const item = { ...stored, practiceId, sk: callKey(call.ident), entityType: 'CALL', ...callIndexKeys(practiceId, call), ...callPatientKeys(practiceId, call) };
  const out = await documentClient().send(new PutCommand({ TableName: tableName(), Item: item, ReturnValues: 'ALL_OLD' }));
  await countChange(practiceId, out.Attributes, item);
  if (call.callSid)
    await documentClient().send(
      new PutCommand({ TableName: tableName(), Item: { practiceId, sk: callSidKey(call.callSid), entityType: 'CALL_SID', ident: call.ident } }),
    );
}

/** A deleted call leaves the list; its vendor pointer stays so a late callback finds nothing to change. */
export async function deleteCall(practiceId: string, ident: string): Promise<void> {
  const out = await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: { practiceId, sk: callKey(ident) }, ReturnValues: 'ALL_OLD' }));
  await countChange(practiceId, out.Attributes, undefined);
}

/** Every call of the practice: for exports, never a screen (the list reads listCallPage). */
export async function listCalls(practiceId: string): Promise<PhoneCall[]> {
  const items = await queryAll({
    KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':p': practiceId, ':prefix': CALL_PREFIX },
  });
  return items.map(callFromItem);
}

/**
 * One patient's calls, oldest first, from the patient's index (eventually consistent, as an export
 * reads). A practice whose older calls have no patient key yet reads every call, kept to the patient's.
 */
export async function listPatientCalls(practiceId: string, patientId: string): Promise<PhoneCall[]> {
  const marker = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: { practiceId, sk: CALL_PATIENT_KEYS_MARKER }, ConsistentRead: true }),
  );
  if (!marker.Item) return (await listCalls(practiceId)).filter((c) => c.patientId === patientId).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  const items = await queryAll({
    IndexName: INDEXES.gsi2.indexName,
    KeyConditionExpression: 'gsi2pk = :pk',
    ExpressionAttributeValues: { ':pk': callPatientIndexPk(practiceId, patientId) },
  });
  return items.filter((item) => item.deleted !== true && item.patientId === patientId).map(callFromItem);
}

export type CallRange = DatedRange;

/**
 * The calls of a range in creation order (newest first unless ascending), read page by page from
 * the index: with `keep`, until that many passed it (and no further), so a page reads its offset
 * and itself; without, the whole range (a text search, which must see every call of the range).
 */
export async function listCallPage(
  practiceId: string,
  range: CallRange,
  options: { ascending: boolean; keep?: (call: PhoneCall) => boolean; wanted: number; pageSize?: number },
): Promise<PhoneCall[]> {
  return readDatedPage(CALL_LIST, practiceId, range, callFromItem, options);
}

/**
 * One stretch of a range's calls in creation order, at most `max`, after the call at `after` (an
 * index sort key, `<createdAt>#<ident>`); `next` is where the range goes on, null at its end.
 */
export async function listCallStretch(
  practiceId: string,
  range: CallRange,
  options: { ascending: boolean; after?: string | undefined; max: number },
): Promise<{ calls: PhoneCall[]; next: string | null }> {
  const { items, next } = await readDatedStretch(CALL_LIST, practiceId, range, callFromItem, options);
  return { calls: items, next };
}

/**
 * How many calls the list holds, in a date range or all: the counts item, plus the month items
 * the range spans. Null before backfillCallListKeys ran (then the list counts what it reads).
 */
export const countCalls = (practiceId: string, range: CallRange): Promise<number | null> => countDated(CALL_LIST, practiceId, range);
