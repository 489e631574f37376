import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const sent: unknown[] = [];
let pages: { Items: Record<string, unknown>[]; LastEvaluatedKey?: Record<string, unknown> }[] = [];
vi.mock('../../lib/table/client.js', () => ({
  documentClient: () => ({
    send: async (command: unknown) => {
      sent.push(command);
      return pages.shift() ?? { Items: [] };
    },
  }),
}));

const { listSection, listSectionWithGroups } = await import('./chart-repository.js');

const AT = '2026-01-02T03:04:05.000Z';
const row = (sk: string, extra: Record<string, unknown> = {}) => ({
  practiceId: 'prac',
  sk,
  entityType: 'CHART',
  ident: sk.split('#').pop(),
  patientId: sk.split('#')[1],
  createdAt: AT,
  updatedAt: AT,
  ...extra,
});

describe('chart lists: one Query per section list', () => {
  beforeEach(() => {
    process.env.TABLE_NAME = 'tidewell-test';
    sent.length = 0;
  });

  it('reads vaccines and their series with one Query on the shared key prefix, paged through, no Scan', async () => {
    pages = [
      {
        Items: [row('PATIENT#p1#VACCINE#v1', { name: 'Hep B' }), row('PATIENT#p1#VACCINE#v2', { name: 'Hep B' })],
        LastEvaluatedKey: { sk: 'PATIENT#p1#VACCINE#v2' },
      },
      { Items: [row('PATIENT#p1#VACCINE_GROUP#g1', { name: 'Hepatitis B series' })] },
    ];
    const { items, groups } = await listSectionWithGroups('prac', 'p1', 'vaccines', 'vaccineGroups');
    expect(items.map((i) => i.ident)).toEqual(['v1', 'v2']);
    expect(groups).toEqual([{ ident: 'g1', patientId: 'p1', createdAt: AT, updatedAt: AT, name: 'Hepatitis B series', version: 1 }]);
    // Two pages of the same Query (the second continues from the first), nothing else.
    expect(sent).toHaveLength(2);
    for (const command of sent) {
      expect(command).toBeInstanceOf(QueryCommand);
      expect((command as QueryCommand).input).toMatchObject({
        TableName: 'tidewell-test',
        KeyConditionExpression: 'practiceId = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': 'prac', ':prefix': 'PATIENT#p1#VACCINE' },
        ConsistentRead: true,
      });
    }
    expect((sent[1] as QueryCommand).input.ExclusiveStartKey).toEqual({ sk: 'PATIENT#p1#VACCINE#v2' });
    // Stored keys stay in the table.
    expect(items[0]).not.toHaveProperty('sk');
    expect(items[0]).not.toHaveProperty('practiceId');
  });

  it('general items and groups the same way', async () => {
    pages = [{ Items: [row('PATIENT#p1#GENERAL#i1', { name: 'Smoker' }), row('PATIENT#p1#GENERAL_GROUP#g1', { name: 'Lifestyle' })] }];
    const { items, groups } = await listSectionWithGroups('prac', 'p1', 'general', 'generalGroups');
    expect([items.map((i) => i.ident), groups.map((g) => g.ident)]).toEqual([['i1'], ['g1']]);
    expect(sent).toHaveLength(1);
    expect((sent[0] as QueryCommand).input.ExpressionAttributeValues).toEqual({ ':pk': 'prac', ':prefix': 'PATIENT#p1#GENERAL' });
  });

  it('a plain section list is one Query on its own prefix', async () => {
    pages = [{ Items: [row('PATIENT#p1#ALLERGY#a1', { name: 'Penicillin' })] }];
    expect((await listSection('prac', 'p1', 'allergies')).map((i) => i.ident)).toEqual(['a1']);
    expect(sent).toHaveLength(1);
    expect((sent[0] as QueryCommand).input.ExpressionAttributeValues).toEqual({ ':pk': 'prac', ':prefix': 'PATIENT#p1#ALLERGY#' });
  });
});
