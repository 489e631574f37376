import { QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { NoteStatus, NoteType } from '../../../shared/notes/note-constants.js';
import type { Note } from '../../../shared/notes/note-schema.js';
import { documentClient } from '../../lib/table/client.js';
import { INDEXES, tableName } from '../../lib/table/definition.js';
import type { Item } from '../../lib/table/item.js';
import { chartNotesIndexed, chartNotesPartition, fromItem, notesByPatientPartition } from './note-repository.js';

export interface TimelinePageRequest {
  types: readonly NoteType[];
  statuses: readonly NoteStatus[];
  offset: number;
  limit: number;
}

export interface TimelinePage {
  notes: Note[];
  /** More matching notes follow the page. */
  hasMore: boolean;
  /** How many notes match, when the read reached the last of them (otherwise unknown). */
  total?: number;
}

/** The most items one Query of the timeline evaluates, however sparse the matches. */
const TIMELINE_QUERY_MAX = 1_000;

/**
 * One page of a patient's timeline, newest first: the notes of the given types and statuses after
 * skipping `offset` of them, and whether more follow. It reads the patient's notes from the newest
 * until it has the page and one more, the filter applied by DynamoDB (which still bills what it
 * evaluated), so a page costs about offset + limit + 1 items over the share of the patient's notes
 * that match, not every note of the patient. Without texts it reads the chart-notes index (once the
 * practice's older notes have its keys), with them every note of the patient.
 */
export async function readTimelinePage(practiceId: string, patientId: string, page: TimelinePageRequest): Promise<TimelinePage> {
  const withTexts = page.types.includes('SMS');
  const chartIndexed = !withTexts && (await chartNotesIndexed(practiceId));
  const [index, partition] = chartIndexed ? [INDEXES.gsi2, chartNotesPartition(practiceId, patientId)] : [INDEXES.gsi1, notesByPatientPartition(patientId)];
  const values: Record<string, string> = { ':pk': partition };
  page.types.forEach((t, i) => (values[`:t${i}`] = t));
  page.statuses.forEach((s, i) => (values[`:s${i}`] = s));
  const wanted = page.offset + page.limit + 1;
  const matched: Item[] = [];
  let startKey: QueryCommandOutput['LastEvaluatedKey'];
  let limit = wanted;
  let evaluated = 0;
  do {
    const out: QueryCommandOutput = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: index.indexName,
        KeyConditionExpression: '#pk = :pk',
        FilterExpression: `#type IN (${page.types.map((_, i) => `:t${i}`).join(', ')}) AND #status IN (${page.statuses.map((_, i) => `:s${i}`).join(', ')})`,
        ExpressionAttributeNames: { '#pk': index.partitionKey, '#type': 'noteType', '#status': 'status' },
        ExpressionAttributeValues: values,
        ScanIndexForward: false,
        Limit: Math.min(limit, TIMELINE_QUERY_MAX),
        ExclusiveStartKey: startKey,
      }),
    );
    matched.push(...(out.Items ?? []));
    evaluated += out.ScannedCount ?? 0;
    startKey = out.LastEvaluatedKey;
    // Sparse matches (a rare type or status) need more items evaluated for each one still wanted:
    // as many as the share matched so far suggests, twice as many while none has.
    const share = matched.length / Math.max(1, evaluated);
    limit = share > 0 ? Math.ceil((1.1 * (wanted - matched.length)) / share) + 1 : 2 * limit;
  } while (startKey && matched.length < wanted);
  const notes = matched.slice(page.offset, page.offset + page.limit).map(fromItem);
  return { notes, hasMore: matched.length > page.offset + page.limit, ...(startKey ? {} : { total: matched.length }) };
}
