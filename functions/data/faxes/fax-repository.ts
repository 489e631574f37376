import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Fax, FAX_STATUS_RANK, type FaxStatus } from '../../../shared/faxes/fax-schema.js';
import { documentClient } from '../../lib/table/client.js';
import { parseItem, withDefaults, type Item } from '../../lib/table/item.js';
import { INDEXES, tableName } from '../../lib/table/definition.js';
import { queryAll } from '../../lib/table/query-all.js';
import { countDated, countOnDay, datedIndexKeys, readDatedPage, readDatedStretch, type DatedList, type DatedRange } from '../dated-list/dated-list.js';

/**
 * Fax items: pk practiceId, sk FAX#<ident> (README access patterns); the vendor's fax id finds its
 * record through a pointer item sk FAXID#<faxId> written with it, so a callback needs one read.
 *
 * The list reads one page of a dated list (dated-list.ts): each fax is on gsi1 `FAXES#<practiceId>` /
 * `<createdAt>#<ident>`, counted in FAX_COUNTS (`total`) and per day in FAX_DAYS#<yyyy-mm>, each moved
 * by the write that added a fax (faxes are never deleted) (`listed` once backfillFaxListKeys gave the
 * older faxes their keys and counts).
 */
export const FAX_PREFIX = 'FAX#';
export const FAX_COUNTS_KEY = 'FAX_COUNTS';
export const faxKey = (ident: string) => `${FAX_PREFIX}${ident}`;
export const vendorFaxKey = (faxId: string) => `FAXID#${faxId}`;
export const FAX_LIST: DatedList = { itemPrefix: FAX_PREFIX, indexName: 'FAXES', countsKey: FAX_COUNTS_KEY, daysEntity: 'FAX_DAYS' };
export const faxIndexKeys = (practiceId: string, fax: { ident: string; createdAt: string }) => datedIndexKeys(FAX_LIST, practiceId, fax);
/** Faxes that left a note in a chart, per direction, newest first (the fax notes list). */
export const faxNotesIndexPk = (practiceId: string, direction: string) => `FAXNOTES#${practiceId}#${direction}`;
/** The counts item's attribute counting one direction's faxes with a note. */
export const faxNotesCount = (direction: string) => `notes${direction}`;

/** What a fax written before a field existed reads as. */
const FAX_DEFAULTS: Item = {
  faxId: null,
  sender: '',
  recipient: '',
  recipientName: null,
  patientId: null,
  patientName: null,
  sourceNoteId: null,
  faxNoteId: null,
  fileKey: '',
  pages: null,
  coverText: null,
  errorMessage: null,
  read: false,
  attempts: 1,
};

export const faxFromItem = (item: Item): Fax => parseItem('fax', Fax, withDefaults(item, FAX_DEFAULTS));

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
  await countOnDay(FAX_LIST, practiceId, createdAt, 1);
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

export type FaxRange = DatedRange;

/**
 * The first `wanted` faxes of a range in creation order (newest first unless ascending), read page
 * by page from the index with `Limit` what is still missing, so a page reads its offset and itself.
 */
export const listFaxPage = (practiceId: string, range: FaxRange, options: { ascending: boolean; wanted: number }): Promise<Fax[]> =>
  readDatedPage(FAX_LIST, practiceId, range, faxFromItem, options);

/**
 * One stretch of a range's faxes in creation order, at most `max`, after the fax at `after` (an
 * index sort key, `<createdAt>#<ident>`); `next` is where the range goes on, null at its end.
 */
export async function listFaxStretch(
  practiceId: string,
  range: FaxRange,
  options: { ascending: boolean; after?: string | undefined; max: number },
): Promise<{ faxes: Fax[]; next: string | null }> {
  const { items, next } = await readDatedStretch(FAX_LIST, practiceId, range, faxFromItem, options);
  return { faxes: items, next };
}

/**
 * How many faxes the list holds, in a date range or all: the counts item, plus the month items
 * the range spans. Null before backfillFaxListKeys ran (then the list reads every fax).
 */
export const countFaxes = (practiceId: string, range: FaxRange): Promise<number | null> => countDated(FAX_LIST, practiceId, range);

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
