/**
 * The one definition of the single table, read by the CDK stack, the local runtime (which creates
 * the table from it) and the repositories, so names and indexes cannot drift.
 * See docs/access-patterns.md for the list of access patterns and the key/index each uses.
 */
import { currentTableScope } from './scope.js';

export const TABLE_PARTITION_KEY = 'practiceId';
export const TABLE_SORT_KEY = 'sk';
export const TTL_ATTRIBUTE = 'expiresAt';

export interface IndexDefinition {
  indexName: string;
  partitionKey: string;
  sortKey: string;
}

/** Generic overloaded GSIs: each entity decides what it writes into gsiNpk/gsiNsk. */
export const INDEXES = {
  /** gsi1: per-entity-type listings, e.g. patients by last name, notes by patient and time. */
  gsi1: { indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
  /** gsi2: secondary listings, e.g. notifications by type+status, tasks by assignee+status. */
  gsi2: { indexName: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
} as const satisfies Record<string, IndexDefinition>;

export const TABLE_ATTRIBUTES: { name: string; type: 'S' | 'N' }[] = [
  { name: TABLE_PARTITION_KEY, type: 'S' },
  { name: TABLE_SORT_KEY, type: 'S' },
  ...Object.values(INDEXES).flatMap((i) => [
    { name: i.partitionKey, type: 'S' as const },
    { name: i.sortKey, type: 'S' as const },
  ]),
];

export function tableName(): string {
  const scoped = currentTableScope();
  if (scoped) return scoped.tableName;
  const name = process.env.TABLE_NAME;
  if (!name) throw new Error('TABLE_NAME is not set');
  return name;
}

/** CreateTable input used locally; the CDK stack builds the same shape from the constants above. */
export function createTableInput(name: string) {
  return {
    TableName: name,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: TABLE_ATTRIBUTES.map((a) => ({ AttributeName: a.name, AttributeType: a.type })),
    KeySchema: [
      { AttributeName: TABLE_PARTITION_KEY, KeyType: 'HASH' as const },
      { AttributeName: TABLE_SORT_KEY, KeyType: 'RANGE' as const },
    ],
    GlobalSecondaryIndexes: Object.values(INDEXES).map((i) => ({
      IndexName: i.indexName,
      KeySchema: [
        { AttributeName: i.partitionKey, KeyType: 'HASH' as const },
        { AttributeName: i.sortKey, KeyType: 'RANGE' as const },
      ],
      Projection: { ProjectionType: 'ALL' as const },
    })),
  };
}
