/**
 * The whole-practice export's walk over the practice's active patients: their count, and one page
 * at a time in name order (the directory's index), resumed from the page's cursor.
 */
import { QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { Patient } from '../../../shared/patients/patient-schema.js';
import { documentClient } from '../../lib/table/client.js';
import { INDEXES, tableName } from '../../lib/table/definition.js';
import { fromItem as patientFromItem, patientsByNamePartition } from '../patients/patient-repository.js';

export async function countActivePatients(practiceId: string): Promise<number> {
  let count = 0;
  let startKey: QueryCommandOutput['LastEvaluatedKey'];
  do {
    const out: QueryCommandOutput = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: INDEXES.gsi1.indexName,
        KeyConditionExpression: 'gsi1pk = :pk',
        // The table is the practice's own; the filter only makes sure of it.
        FilterExpression: 'practiceId = :practice',
        ExpressionAttributeValues: { ':pk': patientsByNamePartition('active'), ':practice': practiceId },
        Select: 'COUNT',
        ExclusiveStartKey: startKey,
      }),
    );
    count += out.Count ?? 0;
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  return count;
}

/** One page of active patients by name, and the cursor of the next (none after the last). */
export async function activePatientsPage(
  practiceId: string,
  limit: number,
  cursor?: Record<string, unknown>,
): Promise<{ patients: Patient[]; cursor?: Record<string, unknown> }> {
  const out = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: INDEXES.gsi1.indexName,
      KeyConditionExpression: 'gsi1pk = :pk',
      FilterExpression: 'practiceId = :practice',
      ExpressionAttributeValues: { ':pk': patientsByNamePartition('active'), ':practice': practiceId },
      Limit: limit,
      ...(cursor ? { ExclusiveStartKey: cursor } : {}),
    }),
  );
  return { patients: (out.Items ?? []).map(patientFromItem), cursor: out.LastEvaluatedKey };
}
