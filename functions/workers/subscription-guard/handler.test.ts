import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentClient } from '../../lib/table/client.js';
import { tableName } from '../../lib/table/definition.js';
import { startTestTable, TEST_PRACTICE } from '../../../test/support/test-table.js';
import { handler } from './handler.js';

let table: { stop(): Promise<void> };
const put = (item: Record<string, unknown>) => documentClient().send(new PutCommand({ TableName: tableName(), Item: { practiceId: TEST_PRACTICE, ...item } }));
const claims = (sub: string) => ({ sub, 'custom:practiceId': TEST_PRACTICE, token_use: 'id', email: `${sub}@x.test`, auth_time: 1_700_000_000 });

beforeAll(async () => {
  table = await startTestTable();
  await put({ sk: 'USER#active', userId: 'active', permissionGroup: 'employee', userStatus: 'active' });
  await put({ sk: 'USER#blocked', userId: 'blocked', permissionGroup: 'no_access', userStatus: 'active' });
  await put({ sk: 'USER#gone', userId: 'gone', permissionGroup: 'provider', userStatus: 'deleted' });
});
afterAll(async () => table?.stop());

describe('AppSync subscription guard', () => {
  it("lets an active user of this practice subscribe to this practice's notifications only", async () => {
    await expect(handler({ field: 'onCreateNotification', arguments: { practiceId: TEST_PRACTICE }, claims: claims('active') })).resolves.toEqual({
      allowed: true,
    });
    await expect(handler({ field: 'onCreateNotification', arguments: { practiceId: 'prc_else' }, claims: claims('active') })).rejects.toThrow('Not Authorized');
  });

  it('refuses no_access and removed users, and audits the refusal', async () => {
    await expect(handler({ field: 'onCreateNotification', arguments: { practiceId: TEST_PRACTICE }, claims: claims('blocked') })).rejects.toThrow(
      'does not have access',
    );
    await expect(handler({ field: 'onUpdateNotification', arguments: { practiceId: TEST_PRACTICE }, claims: claims('gone') })).rejects.toThrow('removed');
    const out = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :a)',
        ExpressionAttributeValues: { ':p': TEST_PRACTICE, ':a': 'AUDIT#' },
      }),
    );
    expect((out.Items ?? []).map((i) => [i.actorUserId, i.route, i.reason]).sort()).toEqual([
      ['blocked', 'Subscription.onCreateNotification', 'no_access'],
      ['gone', 'Subscription.onUpdateNotification', 'user_removed'],
    ]);
  });
});
