import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTIFICATION_STREAM } from '../../functions/workers/notification-stream/subscription.js';
import { publishedMarkerKey } from '../../functions/data/notifications/published-markers.js';
import { cognitoAdminClient } from '../../infra/local/cognito/provision-pool.js';
import type { StreamDeadLetter } from '../../infra/local/dynamodb/stream/table-stream.js';
import { startLocalRuntime, type LocalRuntime } from '../../infra/local/runtime.js';
import { DEMO_PASSWORD } from '../../infra/local/seed/demo-users.js';
import { eventually, eventuallyFound } from '../support/eventually.js';
import { subscribeNotifications } from './notifications-socket.js';

/**
 * The change stream end to end, on a runtime of its own: the test wraps the stream consumer
 * Lambda to make it fail on purpose, and reads the stream's records and dead letters directly.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'tidewell-stream-'));
let runtime: LocalRuntime;
let provider: string;
let employee: string;
let table: DynamoDBDocumentClient;

/** What the wrapped consumer does next: run normally, fail after doing its work, or be down. */
const fault = { failAfterWork: 0, downFor: new Set<string>(), invocations: 0 };

beforeAll(async () => {
  runtime = await startLocalRuntime({
    dataDir,
    port: 0,
    serveWeb: false,
    seed: true,
    ttlSweepIntervalMs: 200,
    wrapStreamConsumer: (handler) => async (event) => {
      fault.invocations++;
      const records = (event as { Records: DynamoDBRecord[] }).Records;
      if (records.some((r) => fault.downFor.has(String(r.dynamodb?.NewImage?.text?.S)))) throw new Error('Consumer unavailable');
      const result = await handler(event);
      // The work is done, then the invocation fails anyway (a timeout after the publish): Lambda retries the batch.
      if (fault.failAfterWork > 0) {
        fault.failAfterWork--;
        throw new Error('Task timed out after the publish');
      }
      return result;
    },
  });
  const signIn = async (email: string) => {
    const { cognitoEndpoint, region, userPoolClientId } = runtime.outputs;
    const out = await cognitoAdminClient(cognitoEndpoint, region).send(
      new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: userPoolClientId, AuthParameters: { USERNAME: email, PASSWORD: DEMO_PASSWORD } }),
    );
    return out.AuthenticationResult!.IdToken!;
  };
  [provider, employee] = await Promise.all([signIn('provider@demo.tidewell.local'), signIn('employee@demo.tidewell.local')]);
  table = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: runtime.endpoints.dynamodb,
      region: runtime.outputs.region,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
}, 120_000);

afterAll(async () => {
  await runtime?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function api(method: string, path: string, body?: unknown) {
  const response = await fetch(`${runtime.outputs.apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${provider}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Every record of the table's stream from now on, unfiltered, as a second consumer sees them. */
function recordAll() {
  const seen: DynamoDBRecord[] = [];
  const stop = runtime.tableStream.subscribe({
    tableName: runtime.endpoints.tableName,
    subscription: { ...NOTIFICATION_STREAM, name: 'test-recorder', filters: [] },
    invoke: async (event) => void seen.push(...event.Records),
  });
  return { seen, stop };
}

const sk = (r: DynamoDBRecord) => r.dynamodb?.Keys?.sk?.S ?? '';
const ofTest = (records: DynamoDBRecord[], tag: string) => records.filter((r) => sk(r).includes(tag));

describe('notifications from the change stream', () => {
  it('announces a notification written through the API to its practice, once per version, and records that it did', async () => {
    const feed = await subscribeNotifications(runtime.outputs.graphqlUrl, employee, runtime.endpoints.practiceId);
    try {
      const created = await api('POST', '/v1/notifications', { notificationType: 'PHONE_CALL', text: 'Voicemail from a patient' });
      expect(created.status).toBe(201);
      const id = created.body.notificationId as string;
      expect((await feed.next('onCreateNotification', id)).notification).toMatchObject({ notificationVersion: 1, notificationStatus: 'UNREAD' });
      await api('PUT', `/v1/notifications/${id}`, { notificationStatus: 'READ' });
      expect((await feed.next('onUpdateNotification', id, 2)).notification).toMatchObject({ notificationStatus: 'READ', isLatestVersion: true });
      await runtime.tableStream.idle();
      const marker = await table.send(
        new GetCommand({ TableName: runtime.endpoints.tableName, Key: { practiceId: runtime.endpoints.practiceId, sk: publishedMarkerKey(id, 2) } }),
      );
      expect(marker.Item).toMatchObject({ entityType: 'NOTIFICATION_PUBLISHED' });
    } finally {
      feed.close();
    }
  });

  it('delivers exactly one event per version when the consumer fails twice and then succeeds', async () => {
    const feed = await subscribeNotifications(runtime.outputs.graphqlUrl, employee, runtime.endpoints.practiceId);
    try {
      fault.failAfterWork = 2;
      const before = fault.invocations;
      const id = (await api('POST', '/v1/notifications', { notificationType: 'LAB_RESULTS', text: 'Potassium 5.9' })).body.notificationId as string;
      await api('PUT', `/v1/notifications/${id}`, { notificationStatus: 'READ' });
      await api('DELETE', `/v1/notifications/${id}`);
      await feed.next('onUpdateNotification', id, 3);
      await runtime.tableStream.idle();
      await eventually(
        'the faulty consumer to use up its two failures',
        () => fault.failAfterWork,
        (left) => left === 0,
        { every: 25 },
      );
      expect(fault.failAfterWork).toBe(0);
      // Two failed invocations were retried on top of the ones that succeeded.
      expect(fault.invocations - before).toBeGreaterThanOrEqual(3);
      const ours = feed.received.filter((r) => r.notification.notificationId === id).map((r) => `${r.field} v${r.notification.notificationVersion}`);
      expect(ours).toEqual(['onCreateNotification v1', 'onUpdateNotification v2', 'onUpdateNotification v3']);
    } finally {
      fault.failAfterWork = 0;
      feed.close();
    }
  });

  it('emits a committed transaction in commit order with old and new images, and nothing for a cancelled one', async () => {
    const recorder = recordAll();
    try {
      const id = (await api('POST', '/v1/notifications', { notificationType: 'FAX', text: 'Referral' })).body.notificationId as string;
      await api('PUT', `/v1/notifications/${id}`, { notificationStatus: 'READ' });
      await runtime.tableStream.idle();
      // The publisher's own markers (NOTIFPUB#) land whenever it gets to them; the rest is the two transactions.
      const update = ofTest(recorder.seen, id).filter((r) => !sk(r).startsWith('NOTIFPUB#'));
      expect(
        update.map((r) => [
          r.eventName,
          sk(r)
            .replace(id, '<id>')
            .replace(/^NOTIFLOG#[^#]+#/, 'NOTIFLOG#<at>#'),
        ]),
      ).toEqual([
        ['INSERT', 'NOTIFICATION#<id>#V#0000000001'],
        ['INSERT', 'NOTIFLOG#<at>#<id>#0000000001'],
        ['INSERT', 'NOTIFICATION#<id>#V#0000000002'],
        ['MODIFY', 'NOTIFICATION#<id>#V#0000000001'],
        ['INSERT', 'NOTIFLOG#<at>#<id>#0000000002'],
      ]);
      const flip = update[3].dynamodb!;
      expect(flip.StreamViewType).toBe('NEW_AND_OLD_IMAGES');
      expect([flip.OldImage?.isLatestVersion, flip.NewImage?.isLatestVersion]).toEqual([{ BOOL: true }, { BOOL: false }]);
      expect(flip.Keys).toEqual({ practiceId: { S: runtime.endpoints.practiceId }, sk: { S: `NOTIFICATION#${id}#V#0000000001` } });
      const sequence = update.map((r) => BigInt(r.dynamodb!.SequenceNumber!));
      expect([...sequence].sort((a, b) => (a < b ? -1 : 1))).toEqual(sequence);

      const tag = `TX-${Date.now()}`;
      const practiceId = runtime.endpoints.practiceId;
      const TableName = runtime.endpoints.tableName;
      await table.send(new PutCommand({ TableName, Item: { practiceId, sk: `${tag}#guard`, state: 'kept' } }));
      await expect(
        table.send(
          new TransactWriteCommand({
            TransactItems: [
              { Put: { TableName, Item: { practiceId, sk: `${tag}#new`, entityType: 'NOTIFICATION', isLatestVersion: true } } },
              {
                ConditionCheck: {
                  TableName,
                  Key: { practiceId, sk: `${tag}#guard` },
                  ConditionExpression: '#s = :other',
                  ExpressionAttributeNames: { '#s': 'state' },
                  ExpressionAttributeValues: { ':other': 'changed' },
                },
              },
            ],
          }),
        ),
      ).rejects.toMatchObject({ name: 'TransactionCanceledException' });
      await table.send(new PutCommand({ TableName, Item: { practiceId, sk: `${tag}#after`, state: 'fence' } }));
      await runtime.tableStream.idle();
      expect(ofTest(recorder.seen, tag).map((r) => [r.eventName, sk(r)])).toEqual([
        ['INSERT', `${tag}#guard`],
        ['INSERT', `${tag}#after`],
      ]);
    } finally {
      recorder.stop();
    }
  });

  it('emits each item of a batch write and of single writes with its old image, and nothing for a write that changed nothing', async () => {
    const recorder = recordAll();
    try {
      const tag = `BATCH-${Date.now()}`;
      const practiceId = runtime.endpoints.practiceId;
      const TableName = runtime.endpoints.tableName;
      await table.send(new PutCommand({ TableName, Item: { practiceId, sk: `${tag}#old`, n: 1 } }));
      await table.send(new PutCommand({ TableName, Item: { practiceId, sk: `${tag}#gone`, n: 1 } }));
      await table.send(
        new BatchWriteCommand({
          RequestItems: {
            [TableName]: [
              { PutRequest: { Item: { practiceId, sk: `${tag}#old`, n: 2 } } },
              { PutRequest: { Item: { practiceId, sk: `${tag}#new`, n: 1 } } },
              { DeleteRequest: { Key: { practiceId, sk: `${tag}#gone` } } },
              { DeleteRequest: { Key: { practiceId, sk: `${tag}#never-existed` } } },
            ],
          },
        }),
      );
      await table.send(
        new UpdateCommand({ TableName, Key: { practiceId, sk: `${tag}#old` }, UpdateExpression: 'SET n = :n', ExpressionAttributeValues: { ':n': 2 } }),
      );
      await table.send(
        new UpdateCommand({ TableName, Key: { practiceId, sk: `${tag}#old` }, UpdateExpression: 'SET n = :n', ExpressionAttributeValues: { ':n': 3 } }),
      );
      await runtime.tableStream.idle();
      const seen = ofTest(recorder.seen, tag).map((r) => [
        r.eventName,
        sk(r).replace(`${tag}#`, ''),
        r.dynamodb?.OldImage?.n?.N ?? null,
        r.dynamodb?.NewImage?.n?.N ?? null,
      ]);
      expect(seen).toEqual([
        ['INSERT', 'old', null, '1'],
        ['INSERT', 'gone', null, '1'],
        ['MODIFY', 'old', '1', '2'],
        ['INSERT', 'new', null, '1'],
        ['REMOVE', 'gone', '1', null],
        // SET n = 2 on an item whose n is 2 changed nothing: no record, as in DynamoDB.
        ['MODIFY', 'old', '2', '3'],
      ]);
    } finally {
      recorder.stop();
    }
  });

  it('emits a TTL deletion as a REMOVE by the DynamoDB service', async () => {
    const recorder = recordAll();
    try {
      const tag = `TTL-${Date.now()}`;
      await table.send(
        new PutCommand({
          TableName: runtime.endpoints.tableName,
          Item: { practiceId: runtime.endpoints.practiceId, sk: tag, expiresAt: Math.floor(Date.now() / 1000) - 5 },
        }),
      );
      const removed = await eventuallyFound('the TTL deletion on the stream', async () => ofTest(recorder.seen, tag).find((r) => r.eventName === 'REMOVE'), {
        within: 5_000,
        every: 50,
      });
      expect(removed?.userIdentity).toEqual({ type: 'Service', principalId: 'dynamodb.amazonaws.com' });
      expect(removed?.dynamodb?.OldImage?.sk).toEqual({ S: tag });
      expect(removed?.dynamodb?.NewImage).toBeUndefined();
    } finally {
      recorder.stop();
    }
  });

  it('keeps records the consumer cannot take after its retries in a dead-letter list, and carries on with the next', async () => {
    const feed = await subscribeNotifications(runtime.outputs.graphqlUrl, employee, runtime.endpoints.practiceId);
    try {
      const text = `Never announced ${Date.now()}`;
      fault.downFor.add(text);
      const stuck = (await api('POST', '/v1/notifications', { notificationType: 'SMS', text })).body.notificationId as string;
      const next = (await api('POST', '/v1/notifications', { notificationType: 'SMS', text: 'Announced' })).body.notificationId as string;
      await feed.next('onCreateNotification', next, 1, 15_000);
      const letters = (await (await fetch(`${runtime.outputs.webUrl}/local/stream/dead-letters`)).json()) as { deadLetters: StreamDeadLetter[] };
      const letter = letters.deadLetters.find((l) => l.records.some((r) => JSON.stringify(r.keys).includes(stuck)));
      expect(letter).toMatchObject({
        consumer: 'notification-stream',
        condition: 'RetryAttemptsExhausted',
        batchSize: 1,
        error: 'Error: Consumer unavailable',
      });
      expect(letter!.approximateInvokeCount).toBe(NOTIFICATION_STREAM.retryAttempts + 1);
      // The list names the items, never their contents.
      expect(JSON.stringify(letter)).not.toContain(text);
      expect(feed.received.some((r) => r.notification.notificationId === stuck)).toBe(false);
    } finally {
      fault.downFor.clear();
      feed.close();
    }
  });
});
