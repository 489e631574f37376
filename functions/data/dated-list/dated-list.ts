import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ValidationError } from '../../lib/errors.js';
import { documentClient } from '../../lib/table/client.js';
import { INDEXES, tableName } from '../../lib/table/definition.js';
import { queryAll } from '../../lib/table/query-all.js';

/**
 * A practice's list of dated items read one page at a time (the calls, the faxes): each item is
 * `<itemPrefix><ident>` and on gsi1 `<indexName>#<practiceId>` / `<createdAt>#<ident>` (a date
 * range is a key condition); the items are counted in `<countsKey>` (`total`, `listed` once the
 * list's backfill gave the older items their keys and counts) and per day in one item per month,
 * `<daysEntity>#<yyyy-mm>` (attribute `d<dd>`), so the list's total is one or a few items.
 */
export interface DatedList {
  itemPrefix: string;
  indexName: string;
  countsKey: string;
  daysEntity: string;
}

export interface DatedRange {
  /** yyyy-mm-dd, inclusive, on the item's creation time (UTC). */
  fromDate?: string | undefined;
  toDate?: string | undefined;
}

/** Practice-scoped, so practices sharing a table never mix. */
export const datedIndexPk = (list: DatedList, practiceId: string) => `${list.indexName}#${practiceId}`;
export const datedIndexKeys = (list: DatedList, practiceId: string, item: { ident: string; createdAt: string }) => ({
  gsi1pk: datedIndexPk(list, practiceId),
  gsi1sk: `${item.createdAt}#${item.ident}`,
});
export const daysPrefix = (list: DatedList) => `${list.daysEntity}#`;
/** The month item and day attribute that count an item created at this time. */
export const dayCounter = (list: DatedList, createdAt: string) => ({
  sk: `${daysPrefix(list)}${createdAt.slice(0, 7)}`,
  attribute: `d${createdAt.slice(8, 10)}`,
});
/** Only a creation time with a day is counted on it. */
export const hasDay = (createdAt: string) => /^\d{4}-\d{2}-\d{2}/.test(createdAt);

/** Adds `n` (negative for an item that left the list) to the day the item was created on. */
export async function countOnDay(list: DatedList, practiceId: string, createdAt: string, n: number): Promise<void> {
  if (n === 0 || !hasDay(createdAt)) return;
  const day = dayCounter(list, createdAt);
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { practiceId, sk: day.sk },
      UpdateExpression: 'SET entityType = :e ADD #d :t',
      ExpressionAttributeNames: { '#d': day.attribute },
      ExpressionAttributeValues: { ':e': list.daysEntity, ':t': n },
    }),
  );
}

/** A key condition refuses an empty BETWEEN; such a range holds no item. */
const emptyRange = (range: DatedRange) => !!range.fromDate && !!range.toDate && range.fromDate > range.toDate;

function rangeCondition(list: DatedList, practiceId: string, range: DatedRange): { condition: string; values: Record<string, string> } {
  const values: Record<string, string> = { ':pk': datedIndexPk(list, practiceId) };
  if (range.fromDate) values[':from'] = range.fromDate;
  if (range.toDate) values[':to'] = `${range.toDate}\uffff`;
  const condition =
    range.fromDate && range.toDate ? ' AND gsi1sk BETWEEN :from AND :to' : range.fromDate ? ' AND gsi1sk >= :from' : range.toDate ? ' AND gsi1sk <= :to' : '';
  return { condition: `gsi1pk = :pk${condition}`, values };
}

function rangeQuery(list: DatedList, practiceId: string, range: DatedRange, ascending: boolean, limit: number, startKey: Record<string, unknown> | undefined) {
  const { condition, values } = rangeCondition(list, practiceId, range);
  return documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: INDEXES.gsi1.indexName,
      KeyConditionExpression: condition,
      ExpressionAttributeValues: values,
      ScanIndexForward: ascending,
      Limit: limit,
      ExclusiveStartKey: startKey,
    }),
  );
}

/**
 * The items of a range in creation order (newest first unless ascending), read page by page from
 * the index: with `keep`, until that many passed it (and no further), so a page reads its offset
 * and itself; without, the whole range (a text search, which must see every item of the range).
 */
export async function readDatedPage<T>(
  list: DatedList,
  practiceId: string,
  range: DatedRange,
  fromItem: (item: Record<string, unknown>) => T,
  options: { ascending: boolean; keep?: ((value: T) => boolean) | undefined; wanted: number; pageSize?: number | undefined },
): Promise<T[]> {
  if (emptyRange(range)) return [];
  const kept: T[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const limit = options.keep ? (options.pageSize ?? 200) : Math.max(options.wanted - kept.length, 1);
    const out = await rangeQuery(list, practiceId, range, options.ascending, limit, startKey);
    for (const item of out.Items ?? []) {
      if (item.deleted === true) continue;
      const value = fromItem(item);
      if (!options.keep || options.keep(value)) kept.push(value);
    }
    startKey = out.LastEvaluatedKey;
  } while (startKey && (options.keep ? true : kept.length < options.wanted));
  return options.keep ? kept : kept.slice(0, options.wanted);
}

/**
 * One stretch of a range's items in creation order, at most `max`, after the item at `after` (an
 * index sort key, `<createdAt>#<ident>`); `next` is where the range goes on, null at its end.
 */
export async function readDatedStretch<T>(
  list: DatedList,
  practiceId: string,
  range: DatedRange,
  fromItem: (item: Record<string, unknown>) => T,
  options: { ascending: boolean; after?: string | undefined; max: number },
): Promise<{ items: T[]; next: string | null }> {
  if (emptyRange(range)) return { items: [], next: null };
  const ident = options.after?.slice(options.after.indexOf('#') + 1);
  const startKey =
    options.after && ident ? { practiceId, sk: `${list.itemPrefix}${ident}`, gsi1pk: datedIndexPk(list, practiceId), gsi1sk: options.after } : undefined;
  const out = await rangeQuery(list, practiceId, range, options.ascending, options.max, startKey);
  const items = (out.Items ?? []).filter((item) => item.deleted !== true).map(fromItem);
  return { items, next: out.LastEvaluatedKey ? String(out.LastEvaluatedKey.gsi1sk) : null };
}

/** A stretch's `next` as the list's nextToken: where a search goes on, null at the range's end. */
export const stretchToken = (next: string | null): string | null => (next ? Buffer.from(next).toString('base64url') : null);

/**
 * The position a search's nextToken names: an index sort key inside the searched range. Its ident
 * may hold an underscore (a call named after a patient id), or a stretch ending there could not go on.
 */
export function stretchPosition(nextToken: string | undefined, range: DatedRange): string | undefined {
  if (nextToken === undefined) return undefined;
  const position = Buffer.from(nextToken, 'base64url').toString('utf8');
  const day = position.slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}T[\d:.]+Z#[A-Za-z0-9_-]{1,64}$/.test(position) || (range.fromDate && day < range.fromDate) || (range.toDate && day > range.toDate)) {
    throw new ValidationError('Invalid nextToken');
  }
  return position;
}

/**
 * How many items the list holds, in a date range or all: the counts item, plus the month items
 * the range spans. Null before the list's backfill ran (then the list reads what it counts).
 */
export async function countDated(list: DatedList, practiceId: string, range: DatedRange): Promise<number | null> {
  const counts = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: list.countsKey }, ConsistentRead: true }));
  if (!counts.Item?.listed) return null;
  if (!range.fromDate && !range.toDate) return Math.max(Number(counts.Item.total) || 0, 0);
  const from = range.fromDate ?? '0000-01-01';
  const to = range.toDate ?? '9999-12-31';
  if (from > to) return 0;
  const prefix = daysPrefix(list);
  const months = await queryAll({
    KeyConditionExpression: 'practiceId = :p AND sk BETWEEN :a AND :b',
    ExpressionAttributeValues: { ':p': practiceId, ':a': `${prefix}${from.slice(0, 7)}`, ':b': `${prefix}${to.slice(0, 7)}` },
  });
  let total = 0;
  for (const month of months) {
    const ym = String(month.sk).slice(prefix.length);
    for (const [attribute, value] of Object.entries(month)) {
      if (!/^d\d{2}$/.test(attribute)) continue;
      const day = `${ym}-${attribute.slice(1)}`;
      if (day >= from && day <= to) total += Number(value) || 0;
    }
  }
  return Math.max(total, 0);
}
