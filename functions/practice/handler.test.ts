import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentClient } from '../lib/table/client.js';
import { tableName } from '../lib/table/definition.js';
import { invoke, startTestTable, TEST_PRACTICE } from '../../test/support/test-table.js';
import { handler } from './handler.js';

let table: { stop(): Promise<void> };
const put = (item: Record<string, unknown>) => documentClient().send(new PutCommand({ TableName: tableName(), Item: { practiceId: TEST_PRACTICE, ...item } }));

beforeAll(async () => {
  table = await startTestTable();
  await put({ sk: 'PRACTICE', practiceName: 'Unit Clinic', productDeactivatedAt: null, featureFlags: { ai_streaming: true } });
  await put({ sk: 'USER#u-2', userId: 'u-2', firstName: 'Zed', lastName: 'Young', name: 'Zed Young', emailAddress: 'z@x.test', permissionGroup: 'employee' });
  await put({
    sk: 'USER#u-1',
    userId: 'u-1',
    firstName: 'Amy',
    lastName: 'Ng',
    name: 'Amy Ng',
    emailAddress: 'a@x.test',
    permissionGroup: 'provider',
    npiNumber: '1234567890',
  });
  await put({ sk: 'PATIENT#p1', id: 'p1', firstName: 'Not', lastName: 'AUser' });
});
afterAll(async () => table?.stop());

describe('practice handler', () => {
  it('returns the practice metadata', async () => {
    const res = await invoke(handler, { routeKey: 'GET /v1/practices/metadata', groups: ['employee'] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ practiceId: TEST_PRACTICE, practiceName: 'Unit Clinic', productDeactivatedAt: null });
    expect(res.body).not.toHaveProperty('sk');
  });
  it("returns the caller's user and 404 for a caller without one", async () => {
    const me = await invoke(handler, { routeKey: 'GET /v1/practices/users/me', sub: 'u-1' });
    expect(me.body).toMatchObject({ userId: 'u-1', name: 'Amy Ng', permissionGroup: 'provider', npiNumber: '1234567890' });
    expect((await invoke(handler, { routeKey: 'GET /v1/practices/users/me', sub: 'nobody' })).status).toBe(404);
  });
  it('lists only users, by name', async () => {
    const res = await invoke(handler, { routeKey: 'GET /v1/practices/users' });
    expect(res.body.map((u: { userId: string }) => u.userId)).toEqual(['u-1', 'u-2']);
  });
  it('answers every feature gate, unknown ones false', async () => {
    const res = await invoke(handler, { routeKey: 'GET /v1/practices/feature-gates' });
    expect(res.body.flags.ai_streaming).toBe(true);
    expect(res.body.flags.tidewell_copilot).toBe(false);
  });
  it('refuses no_access', async () => {
    expect((await invoke(handler, { routeKey: 'GET /v1/practices/metadata', groups: ['no_access'] })).status).toBe(403);
  });
});
