import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestTable, TEST_PRACTICE } from '../../../test/support/test-table.js';
import { documentClient } from './client.js';
import { tableName } from './definition.js';
import { putIfUnchanged } from './put-if-unchanged.js';

let table: { stop(): Promise<void> };
beforeAll(async () => {
  table = await startTestTable();
});
afterAll(async () => table?.stop());

const item = (sk: string, fields: Record<string, unknown>) => ({ practiceId: TEST_PRACTICE, sk, entityType: 'TEST', ...fields });
const stored = async (sk: string) =>
  (await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId: TEST_PRACTICE, sk }, ConsistentRead: true }))).Item;
const seed = (sk: string, fields: Record<string, unknown>) => documentClient().send(new PutCommand({ TableName: tableName(), Item: item(sk, fields) }));

describe('putIfUnchanged', () => {
  it('replaces the item when the field still holds the value read, leaving nothing of the old item behind', async () => {
    await seed('PUT#same', { version: 3, note: 'old', dropped: 'gone after the write' });
    expect(await putIfUnchanged(item('PUT#same', { version: 4, note: 'new' }), 'version', 3)).toBe(true);
    expect(await stored('PUT#same')).toEqual(item('PUT#same', { version: 4, note: 'new' }));
  });

  it('refuses when another write changed the field since it was read, keeping that write', async () => {
    await seed('PUT#moved', { lastUpdated: '2026-12-03T08:00:00.000Z', note: 'read' });
    await seed('PUT#moved', { lastUpdated: '2026-12-03T08:05:00.000Z', note: 'saved elsewhere' });
    expect(await putIfUnchanged(item('PUT#moved', { lastUpdated: '2026-12-03T08:06:00.000Z', note: 'mine' }), 'lastUpdated', '2026-12-03T08:00:00.000Z')).toBe(
      false,
    );
    expect((await stored('PUT#moved'))?.note).toBe('saved elsewhere');
  });

  it('lets exactly one of two writers that read the same version through', async () => {
    await seed('PUT#race', { noteVersion: 1 });
    const results = await Promise.all(['first', 'second'].map((who) => putIfUnchanged(item('PUT#race', { noteVersion: 2, who }), 'noteVersion', 1)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect((await stored('PUT#race'))?.who).toBe(results[0] ? 'first' : 'second');
  });

  it('never creates an item that was removed (or never written) since it was read', async () => {
    expect(await putIfUnchanged(item('PUT#absent', { version: 2 }), 'version', 1)).toBe(false);
    expect(await stored('PUT#absent')).toBeUndefined();
  });

  it('compares a field named by a reserved word (status)', async () => {
    await seed('PUT#status', { status: 'SCHEDULED' });
    expect(await putIfUnchanged(item('PUT#status', { status: 'SENDING' }), 'status', 'SENT')).toBe(false);
    expect(await putIfUnchanged(item('PUT#status', { status: 'SENDING' }), 'status', 'SCHEDULED')).toBe(true);
    expect((await stored('PUT#status'))?.status).toBe('SENDING');
  });

  it('throws any failure other than the refused condition', async () => {
    await expect(putIfUnchanged({ practiceId: TEST_PRACTICE, version: 2 }, 'version', 1)).rejects.toMatchObject({ name: 'ValidationException' });
  });
});
