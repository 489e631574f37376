import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { PhoneCall } from '../../../shared/calls/call-schema.js';
import { documentClient } from '../../lib/table/client.js';
import { INDEXES, tableName } from '../../lib/table/definition.js';
import { queryAll } from '../../lib/table/query-all.js';

/**
 * Phone call items: pk practiceId, sk CALL#<ident> (README access patterns); the vendor's call id
 * finds its record through a pointer item sk CALLSID#<callSid> written with it, so a callback needs
 * one read. Names of numbers are not stored: they are resolved from contacts and patients on read.
 * The unread calls are counted in one item, sk CALL_COUNTS (`unread`), moved by each write by what
 * it replaced, so the polled badge reads one item (`indexed` once backfillCallCounts counted the
 * calls written before it was kept).
 *
 * The list reads one page: each call is on gsi1 `CALLS#<practiceId>` / `<createdAt>#<ident>` (a
 * date range is a key condition), the practice's calls are counted in CALL_COUNTS (`total`) and
 * per day in one item per month, sk CALL_DAYS#<yyyy-mm> (attribute `d<dd>`), so the list's total is one or a few items
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
/** Practice-scoped like the appointments' index keys, so practices sharing a table never mix. */
export const callsIndexPk = (practiceId: string) => `CALLS#${practiceId}`;
export const CALL_DAYS_PREFIX = 'CALL_DAYS#';
export const callIndexKeys = (practiceId: string, call: { ident: string; createdAt: string }) => ({
  gsi1pk: callsIndexPk(practiceId),
  gsi1sk: `${call.createdAt}#${call.ident}`,
});
export const CALL_PATIENT_KEYS_MARKER = 'CALL_KEYS#PATIENT';
export const callPatientIndexPk = (practiceId: string, patientId: string) => `CALLPATIENT#${practiceId}#${patientId}`;
/** Only a call naming a patient is on the patient's index: a call without one stays off it. */
export const callPatientKeys = (practiceId: string, call: { ident: string; createdAt: string; patientId: string | null }) =>
  call.patientId ? { gsi2pk: callPatientIndexPk(practiceId, call.patientId), gsi2sk: `${call.createdAt}#${call.ident}` } : {};
/** The month item and day attribute that count a call created at this time. */
export const callDayCounter = (createdAt: string) => ({ sk: `${CALL_DAYS_PREFIX}${createdAt.slice(0, 7)}`, attribute: `d${createdAt.slice(8, 10)}` });

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
  const createdAt = String((after ?? before)?.createdAt ?? '');
  if (listed === 0 || !/^\d{4}-\d{2}-\d{2}/.test(createdAt)) return;
  const day = callDayCounter(createdAt);
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { practiceId, sk: day.sk },
      UpdateExpression: 'SET entityType = :e ADD #d :t',
      ExpressionAttributeNames: { '#d': day.attribute },
      ExpressionAttributeValues: { ':e': 'CALL_DAYS', ':t': listed },
    }),
  );
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

export interface CallRange {
  /** yyyy-mm-dd, inclusive, on the call's creation time (UTC) as the former filter compared it. */
  fromDate?: string | undefined;
  toDate?: string | undefined;
}

function rangeCondition(practiceId: string, range: CallRange): { condition: string; values: Record<string, string> } {
  const values: Record<string, string> = { ':pk': callsIndexPk(practiceId) };
  if (range.fromDate) values[':from'] = range.fromDate;
  if (range.toDate) values[':to'] = `${range.toDate}\uffff`;
  const condition =
    range.fromDate && range.toDate ? ' AND gsi1sk BETWEEN :from AND :to' : range.fromDate ? ' AND gsi1sk >= :from' : range.toDate ? ' AND gsi1sk <= :to' : '';
  return { condition: `gsi1pk = :pk${condition}`, values };
}

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
  // A key condition refuses an empty BETWEEN; such a range holds no call.
  if (range.fromDate && range.toDate && range.fromDate > range.toDate) return [];
  const { condition, values } = rangeCondition(practiceId, range);
  const kept: PhoneCall[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const limit = options.keep ? (options.pageSize ?? 200) : Math.max(options.wanted - kept.length, 1);
    const out = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: INDEXES.gsi1.indexName,
        KeyConditionExpression: condition,
        ExpressionAttributeValues: values,
        ScanIndexForward: options.ascending,
        Limit: limit,
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of out.Items ?? []) {
      if (item.deleted === true) continue;
      const call = callFromItem(item);
      if (!options.keep || options.keep(call)) kept.push(call);
    }
    startKey = out.LastEvaluatedKey;
  } while (startKey && (options.keep ? true : kept.length < options.wanted));
  return options.keep ? kept : kept.slice(0, options.wanted);
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
  if (range.fromDate && range.toDate && range.fromDate > range.toDate) return { calls: [], next: null };
  const { condition, values } = rangeCondition(practiceId, range);
  const ident = options.after?.slice(options.after.indexOf('#') + 1);
  const out = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: INDEXES.gsi1.indexName,
      KeyConditionExpression: condition,
      ExpressionAttributeValues: values,
      ScanIndexForward: options.ascending,
      Limit: options.max,
      ExclusiveStartKey: options.after && ident ? { practiceId, sk: callKey(ident), gsi1pk: callsIndexPk(practiceId), gsi1sk: options.after } : undefined,
    }),
  );
  const calls = (out.Items ?? []).filter((item) => item.deleted !== true).map(callFromItem);
  return { calls, next: out.LastEvaluatedKey ? String(out.LastEvaluatedKey.gsi1sk) : null };
}

/**
 * How many calls the list holds, in a date range or all: the counts item, plus the month items
 * the range spans. Null before backfillCallListKeys ran (then the list counts what it reads).
 */
export async function countCalls(practiceId: string, range: CallRange): Promise<number | null> {
  const counts = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: CALL_COUNTS_KEY }, ConsistentRead: true }));
  if (!counts.Item?.listed) return null;
  if (!range.fromDate && !range.toDate) return Math.max(Number(counts.Item.total) || 0, 0);
  const from = range.fromDate ?? '0000-01-01';
  const to = range.toDate ?? '9999-12-31';
  if (from > to) return 0;
  const months = await queryAll({
    KeyConditionExpression: 'practiceId = :p AND sk BETWEEN :a AND :b',
    ExpressionAttributeValues: { ':p': practiceId, ':a': `${CALL_DAYS_PREFIX}${from.slice(0, 7)}`, ':b': `${CALL_DAYS_PREFIX}${to.slice(0, 7)}` },
  });
  let total = 0;
  for (const month of months) {
    const ym = String(month.sk).slice(CALL_DAYS_PREFIX.length);
    for (const [attribute, value] of Object.entries(month)) {
      if (!/^d\d{2}$/.test(attribute)) continue;
      const day = `${ym}-${attribute.slice(1)}`;
      if (day >= from && day <= to) total += Number(value) || 0;
    }
  }
  return Math.max(total, 0);
}
