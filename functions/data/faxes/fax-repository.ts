import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Fax, FAX_STATUS_RANK, type FaxStatus } from '../../../shared/faxes/fax-schema.js';
import { documentClient } from '../../lib/table/client.js';
import { INDEXES, tableName } from '../../lib/table/definition.js';
import { queryAll } from '../../lib/table/query-all.js';

/**
 * Fax items: pk practiceId, sk FAX#<ident> (README access patterns); the vendor's fax id finds its
 * record through a pointer item sk FAXID#<faxId> written with it, so a callback needs one read.
 *
 * The list reads one page: each fax is on gsi1 `FAXES#<practiceId>` / `<createdAt>#<ident>` (a date
 * range is a key condition), the practice's faxes are counted in FAX_COUNTS (`total`) and per day
 * in one item per month, sk FAX_DAYS#<yyyy-mm> (attribute `d<dd>`), each moved by the write that
 * added a fax (faxes are never deleted), so the list's total is one or a few items (`listed` once
 * backfillFaxListKeys gave the older faxes their keys and counts).
 */
export const FAX_PREFIX = 'FAX#';
export const FAX_COUNTS_KEY = 'FAX_COUNTS';
export const FAX_DAYS_PREFIX = 'FAX_DAYS#';
export const faxKey = (ident: string) => `${FAX_PREFIX}${ident}`;
export const vendorFaxKey = (faxId: string) => `FAXID#${faxId}`;
/** Practice-scoped like the calls' index keys, so practices sharing a table never mix. */
export const faxesIndexPk = (practiceId: string) => `FAXES#${practiceId}`;
export const faxIndexKeys = (practiceId: string, fax: { ident: string; createdAt: string }) => ({
  gsi1pk: faxesIndexPk(practiceId),
  gsi1sk: `${fax.createdAt}#${fax.ident}`,
});
/** Faxes that left a note in a chart, per direction, newest first (the fax notes list). */
export const faxNotesIndexPk = (practiceId: string, direction: string) => `FAXNOTES#${practiceId}#${direction}`;
/** The counts item's attribute counting one direction's faxes with a note. */
export const faxNotesCount = (direction: string) => `notes${direction}`;
/** The month item and day attribute that count a fax created at this time. */
export const faxDayCounter = (createdAt: string) => ({ sk: `${FAX_DAYS_PREFIX}${createdAt.slice(0, 7)}`, attribute: `d${createdAt.slice(8, 10)}` });

export function faxFromItem(item: Record<string, unknown>): Fax {
  return Fax.parse({
    ident: item.ident,
    faxId: item.faxId ?? null,
    direction: item.direction,
    status: item.status,
    sender: item.sender ?? '',
    recipient: item.recipient ?? '',
    recipientName: item.recipientName ?? null,
    patientId: item.patientId ?? null,
    patientName: item.patientName ?? null,
    sourceNoteId: item.sourceNoteId ?? null,
    faxNoteId: item.faxNoteId ?? null,
    fileKey: item.fileKey ?? '',
    pages: item.pages ?? null,
    coverText: item.coverText ?? null,
    errorMessage: item.errorMessage ?? null,
    read: item.read === true,
    attempts: item.attempts ?? 1,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  });
}

export function faxItem(practiceId: string, fax: Fax): Record<string, unknown> {
  const noted = fax.faxNoteId ? { gsi2pk: faxNotesIndexPk(practiceId, fax.direction), gsi2sk: `${fax.createdAt}#${fax.ident}` } : {};
  return { ...fax, practiceId, sk: faxKey(fax.ident), entityType: 'FAX', ...faxIndexKeys(practiceId, fax), ...noted };
}

export async function getFax(practiceId: string, ident: string): Promise<Fax | null> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: faxKey(ident) }, ConsistentRead: true }));
  return out.Item ? faxFromItem(out.Item) : null;
}

export async function getFaxByVendorId(practiceId: string, faxId: string): Promise<Fax | null> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: vendorFaxKey(faxId) }, ConsistentRead: true }));
  return out.Item ? getFax(practiceId, String(out.Item.ident)) : null;
}

/** A fax written for the first time is counted, in all and on its day; a rewrite of one replaced it. */
async function countNew(practiceId: string, createdAt: string): Promise<void> {
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { practiceId, sk: FAX_COUNTS_KEY },
      UpdateExpression: 'ADD #total :t',
      ExpressionAttributeNames: { '#total': 'total' },
      ExpressionAttributeValues: { ':t': 1 },
    }),
  );
  if (!/^\d{4}-\d{2}-\d{2}/.test(createdAt)) return;
  const day = faxDayCounter(createdAt);
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { practiceId, sk: day.sk },
      UpdateExpression: 'SET entityType = :e ADD #d :t',
      ExpressionAttributeNames: { '#d': day.attribute },
      ExpressionAttributeValues: { ':e': 'FAX_DAYS', ':t': 1 },
    }),
  );
}

export async function putFax(practiceId: string, fax: Fax): Promise<void> {
  const out = await documentClient().send(new PutCommand({ TableName: tableName(), Item: faxItem(practiceId, fax), ReturnValues: 'ALL_OLD' }));
  if (!out.Attributes) await countNew(practiceId, fax.createdAt);
  // A fax gets its note once (never taken away): counted then, for the fax notes' total.
  if (fax.faxNoteId && !out.Attributes?.faxNoteId)
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { practiceId, sk: FAX_COUNTS_KEY },
        UpdateExpression: 'ADD #n :one',
        ExpressionAttributeNames: { '#n': faxNotesCount(fax.direction) },
        ExpressionAttributeValues: { ':one': 1 },
      }),
    );
  if (fax.faxId)
    await documentClient().send(
      new PutCommand({ TableName: tableName(), Item: { practiceId, sk: vendorFaxKey(fax.faxId), entityType: 'FAX_VENDOR_ID', ident: fax.ident } }),
    );
}

/** Every fax of the practice: for the fax notes and a practice not yet listed, never the list once it is (listFaxPage). */
export async function listFaxes(practiceId: string): Promise<Fax[]> {
  const items = await queryAll({
    KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':p': practiceId, ':prefix': FAX_PREFIX },
  });
  return items.map(faxFromItem);
}

export interface FaxRange {
  /** yyyy-mm-dd, inclusive, on the fax's creation time (UTC) as the former filter compared it. */
  fromDate?: string | undefined;
  toDate?: string | undefined;
}

function rangeCondition(practiceId: string, range: FaxRange): { condition: string; values: Record<string, string> } {
  const values: Record<string, string> = { ':pk': faxesIndexPk(practiceId) };
  if (range.fromDate) values[':from'] = range.fromDate;
  if (range.toDate) values[':to'] = `${range.toDate}\uffff`;
  const condition =
    range.fromDate && range.toDate ? ' AND gsi1sk BETWEEN :from AND :to' : range.fromDate ? ' AND gsi1sk >= :from' : range.toDate ? ' AND gsi1sk <= :to' : '';
  return { condition: `gsi1pk = :pk${condition}`, values };
}

/** A key condition refuses an empty BETWEEN; such a range holds no fax. */
const emptyRange = (range: FaxRange) => !!range.fromDate && !!range.toDate && range.fromDate > range.toDate;

/**
 * The first `wanted` faxes of a range in creation order (newest first unless ascending), read page
 * by page from the index with `Limit` what is still missing, so a page reads its offset and itself.
 */
export async function listFaxPage(practiceId: string, range: FaxRange, options: { ascending: boolean; wanted: number }): Promise<Fax[]> {
  if (emptyRange(range)) return [];
  const { condition, values } = rangeCondition(practiceId, range);
  const kept: Fax[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: INDEXES.gsi1.indexName,
        KeyConditionExpression: condition,
        ExpressionAttributeValues: values,
        ScanIndexForward: options.ascending,
        Limit: Math.max(options.wanted - kept.length, 1),
        ExclusiveStartKey: startKey,
      }),
    );
    kept.push(...(out.Items ?? []).map(faxFromItem));
    startKey = out.LastEvaluatedKey;
  } while (startKey && kept.length < options.wanted);
  return kept.slice(0, options.wanted);
}

/**
 * One stretch of a range's faxes in creation order, at most `max`, after the fax at `after` (an
 * index sort key, `<createdAt>#<ident>`); `next` is where the range goes on, null at its end.
 */
export async function listFaxStretch(
  practiceId: string,
  range: FaxRange,
  options: { ascending: boolean; after?: string | undefined; max: number },
): Promise<{ faxes: Fax[]; next: string | null }> {
  if (emptyRange(range)) return { faxes: [], next: null };
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
      ExclusiveStartKey: options.after && ident ? { practiceId, sk: faxKey(ident), gsi1pk: faxesIndexPk(practiceId), gsi1sk: options.after } : undefined,
    }),
  );
  return { faxes: (out.Items ?? []).map(faxFromItem), next: out.LastEvaluatedKey ? String(out.LastEvaluatedKey.gsi1sk) : null };
}

/**
 * How many faxes the list holds, in a date range or all: the counts item, plus the month items
 * the range spans. Null before backfillFaxListKeys ran (then the list reads every fax).
 */
export async function countFaxes(practiceId: string, range: FaxRange): Promise<number | null> {
  const counts = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: FAX_COUNTS_KEY }, ConsistentRead: true }));
  if (!counts.Item?.listed) return null;
  if (!range.fromDate && !range.toDate) return Math.max(Number(counts.Item.total) || 0, 0);
  const from = range.fromDate ?? '0000-01-01';
  const to = range.toDate ?? '9999-12-31';
  if (from > to) return 0;
  const months = await queryAll({
    KeyConditionExpression: 'practiceId = :p AND sk BETWEEN :a AND :b',
    ExpressionAttributeValues: { ':p': practiceId, ':a': `${FAX_DAYS_PREFIX}${from.slice(0, 7)}`, ':b': `${FAX_DAYS_PREFIX}${to.slice(0, 7)}` },
  });
  let total = 0;
  for (const month of months) {
    const ym = String(month.sk).slice(FAX_DAYS_PREFIX.length);
    for (const [attribute, value] of Object.entries(month)) {
      if (!/^d\d{2}$/.test(attribute)) continue;
      const day = `${ym}-${attribute.slice(1)}`;
      if (day >= from && day <= to) total += Number(value) || 0;
    }
  }
  return Math.max(total, 0);
}

/**
 * The newest `wanted` faxes with a note of the given directions, and how many there are; null
 * before backfillFaxNoteKeys ran (then the fax notes read every fax). Each direction is its own
 * partition, read up to `wanted`, and the directions are merged newest first.
 */
export async function listFaxNotePage(practiceId: string, directions: readonly string[], wanted: number): Promise<{ faxes: Fax[]; total: number } | null> {
  const counts = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: FAX_COUNTS_KEY }, ConsistentRead: true }));
  if (!counts.Item?.notesListed) return null;
  const pages = await Promise.all(
    directions.map(async (direction) => {
      const kept: Record<string, unknown>[] = [];
      let startKey: Record<string, unknown> | undefined;
      do {
        const out = await documentClient().send(
          new QueryCommand({
            TableName: tableName(),
            IndexName: INDEXES.gsi2.indexName,
            KeyConditionExpression: 'gsi2pk = :pk',
            ExpressionAttributeValues: { ':pk': faxNotesIndexPk(practiceId, direction) },
            ScanIndexForward: false,
            Limit: Math.max(wanted - kept.length, 1),
            ExclusiveStartKey: startKey,
          }),
        );
        kept.push(...(out.Items ?? []));
        startKey = out.LastEvaluatedKey;
      } while (startKey && kept.length < wanted);
      return kept;
    }),
  );
  const faxes = pages
    .flat()
    .sort((a, b) => String(b.gsi2sk).localeCompare(String(a.gsi2sk)))
    .slice(0, wanted)
    .map(faxFromItem);
  const total = directions.reduce((sum, d) => sum + Math.max(Number(counts.Item![faxNotesCount(d)]) || 0, 0), 0);
  return { faxes, total };
}

/** True when a status may replace another: never backwards, never the same again (a repeated callback changes nothing). */
export function advancesStatus(from: FaxStatus, to: FaxStatus): boolean {
  return FAX_STATUS_RANK[to] > FAX_STATUS_RANK[from];
}
