/**
 * The whole-practice export's record: pk practiceId, sk FHIRBULK#<exportId>. It holds the progress
 * the Settings screen shows and where the patient listing stands, so a failed run resumes from the
 * batch after the last one written. Every write of a step is conditioned on the run's attempt, so
 * an older execution cannot overwrite a resumed one.
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { FhirBulkExport } from '../../../shared/chart/fhir-bulk.js';
import { FhirBulkExportAnswer } from '../../../shared/chart/fhir-responses.js';
import * as z from '../../../shared/zod.js';
import { documentClient } from '../../lib/table/client.js';
import { isConditionFailure } from '../../lib/table/condition-failure.js';
import { parseItem, type Item } from '../../lib/table/item.js';
import { tableName } from '../../lib/table/definition.js';
import { queryAll } from '../../lib/table/query-all.js';

export const bulkKey = (exportId: string) => `FHIRBULK#${exportId}`;

const count = z.number();
const counts = z.record(z.string(), count);

/** The export as the Settings screen shows it (its answer's schema), and what its runs need to go on: where the listing and the files stand. */
export const FhirBulkRecord = z.extend(FhirBulkExportAnswer, {
  /** The Bulk Data kick-off request's URL, for the manifest. */
  request: z.string(),
  /** The API's base URL as the export was started through (scheme, host, path): the manifest's urls are under it. */
  apiBase: z.optional(z.string()),
  executionArn: z.optional(z.string()),
  nextBatch: count,
  cursor: z.optional(z.record(z.string(), z.unknown())),
  listingDone: z.boolean(),
  /** The NDJSON files written, by type: [batch, bytes] each (a listing of the folder is not needed to name them); none in exports started before they were kept. */
  parts: z._default(z.record(z.string(), z.array(z.tuple([count, count]))), () => ({})),
  /** Written by exports before locations were merged too: Practitioner.ndjson's size. */
  practitionerBytes: z.optional(count),
  /** The merged files' sizes, by type (Practitioner.ndjson, Location.ndjson). */
  sharedBytes: z.optional(counts),
});
export type FhirBulkRecord = z.infer<typeof FhirBulkRecord>;

export const bulkExportFromItem = (item: Item): FhirBulkRecord => parseItem('FHIR bulk export', FhirBulkRecord, item);

export async function getBulkExport(practiceId: string, exportId: string): Promise<FhirBulkRecord | null> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: bulkKey(exportId) }, ConsistentRead: true }));
  return out.Item ? bulkExportFromItem(out.Item) : null;
}

/** Every export of the practice, newest first (a practice runs a handful in its life). */
export async function listBulkExports(practiceId: string): Promise<FhirBulkRecord[]> {
  const items = await queryAll({
    KeyConditionExpression: 'practiceId = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': practiceId, ':prefix': 'FHIRBULK#' },
  });
  return items.map(bulkExportFromItem).sort((a, b) => b.startedAt.localeCompare(a.startedAt));
}

export async function createBulkExport(practiceId: string, record: FhirBulkRecord): Promise<void> {
  await documentClient().send(
    new PutCommand({
      TableName: tableName(),
      Item: { practiceId, sk: bulkKey(record.exportId), entityType: 'FhirBulkExport', ...record },
      ConditionExpression: 'attribute_not_exists(sk)',
    }),
  );
}

/**
 * Sets `changes` (undefined values are removed) if the condition holds; false when it does not.
 * `when` is checked against the stored attempt (and status/batch when given).
 */
export async function updateBulkExport(
  practiceId: string,
  exportId: string,
  changes: Partial<FhirBulkRecord>,
  when: { attempt?: number; status?: FhirBulkExport['status']; nextBatch?: number } = {},
  add: { patientsDone?: number; batchesDone?: number; resources?: number; filesCopied?: number; filesMissing?: number; bytes?: number } = {},
): Promise<boolean> {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  const removes: string[] = [];
  Object.entries(changes).forEach(([k, v], i) => {
    names[`#s${i}`] = k;
    if (v === undefined) removes.push(`#s${i}`);
    else {
      values[`:s${i}`] = v;
      sets.push(`#s${i} = :s${i}`);
    }
  });
  const adds = Object.entries(add).filter(([, v]) => v !== undefined);
  adds.forEach(([k, v], i) => {
    names[`#a${i}`] = k;
    values[`:a${i}`] = v;
  });
  const conditions = ['attribute_exists(sk)'];
  Object.entries(when).forEach(([k, v], i) => {
    if (v === undefined) return;
    names[`#c${i}`] = k;
    values[`:c${i}`] = v;
    conditions.push(`#c${i} = :c${i}`);
  });
  const expression = [
    sets.length || adds.length ? `SET ${[...sets, ...adds.map((_, i) => `#a${i} = if_not_exists(#a${i}, :zero) + :a${i}`)].join(', ')}` : '',
    removes.length ? `REMOVE ${removes.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  if (adds.length) values[':zero'] = 0;
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { practiceId, sk: bulkKey(exportId) },
        UpdateExpression: expression,
        ConditionExpression: conditions.join(' AND '),
        ExpressionAttributeNames: names,
        ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
