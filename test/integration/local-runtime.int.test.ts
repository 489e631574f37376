import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { GetCommand, PutCommand, TransactGetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { importJWK, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { api, createTestUser, signIn, stackEndpoints, stackOutputs, tableClient } from '../support/local-stack.js';

const PROVIDER = 'provider@demo.tidewell.local';
const NO_ACCESS = 'noaccess@demo.tidewell.local';
const METADATA = '/v1/practices/metadata';

function uniqueSk(label: string): string {
  return `TEST#${label}#${Math.random().toString(36).slice(2)}`;
}

describe('DynamoDB transactions through the local endpoint', () => {
  it('commits every write of a transaction together', async () => {
    const { client, tableName } = tableClient();
    const practiceId = 'prc_tx_test';
    const a = uniqueSk('a');
    const b = uniqueSk('b');
    await client.send(new PutCommand({ TableName: tableName, Item: { practiceId, sk: a, count: 1 } }));

    await client.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: tableName, Item: { practiceId, sk: b, label: 'created' }, ConditionExpression: 'attribute_not_exists(sk)' } },
          {
            Update: {
              TableName: tableName,
              Key: { practiceId, sk: a },
              UpdateExpression: 'SET #c = #c + :one',
              ConditionExpression: '#c = :one',
              ExpressionAttributeNames: { '#c': 'count' },
              ExpressionAttributeValues: { ':one': 1 },
            },
          },
        ],
      }),
    );

    const read = await client.send(
      new TransactGetCommand({
        TransactItems: [{ Get: { TableName: tableName, Key: { practiceId, sk: a } } }, { Get: { TableName: tableName, Key: { practiceId, sk: b } } }],
      }),
    );
    expect(read.Responses?.map((r) => r.Item)).toEqual([
      { practiceId, sk: a, count: 2 },
      { practiceId, sk: b, label: 'created' },
    ]);
  });

  it('cancels the whole transaction when one condition fails, with a reason per item', async () => {
    const { client, tableName } = tableClient();
    const practiceId = 'prc_tx_test';
    const existing = uniqueSk('existing');
    const guard = uniqueSk('guard');
    const fresh = uniqueSk('fresh');
    await client.send(new PutCommand({ TableName: tableName, Item: { practiceId, sk: existing, version: 3 } }));
    await client.send(new PutCommand({ TableName: tableName, Item: { practiceId, sk: guard, version: 3 } }));

    const attempt = client.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: tableName, Item: { practiceId, sk: fresh, label: 'must not exist' } } },
          {
            Update: {
              TableName: tableName,
              Key: { practiceId, sk: existing },
              UpdateExpression: 'SET version = :next',
              ExpressionAttributeValues: { ':next': 4 },
            },
          },
          {
            ConditionCheck: {
              TableName: tableName,
              Key: { practiceId, sk: guard },
              ConditionExpression: 'version = :expected',
              ExpressionAttributeValues: { ':expected': 2 },
            },
          },
        ],
      }),
    );

    await expect(attempt).rejects.toMatchObject({
      name: 'TransactionCanceledException',
      CancellationReasons: [{ Code: 'None' }, { Code: 'None' }, { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed' }],
    });
    const after = await client.send(
      new TransactGetCommand({
        TransactItems: [
          { Get: { TableName: tableName, Key: { practiceId, sk: fresh } } },
          { Get: { TableName: tableName, Key: { practiceId, sk: existing } } },
        ],
      }),
    );
    expect(after.Responses?.[0]?.Item).toBeUndefined();
    expect(after.Responses?.[1]?.Item).toEqual({ practiceId, sk: existing, version: 3 });
  });

  it('refuses two operations on one item and more than 100 items with a ValidationException', async () => {
    const { client, tableName } = tableClient();
    const practiceId = 'prc_tx_test';
    const sk = uniqueSk('dup');
    await expect(
      client.send(
        new TransactWriteCommand({
          TransactItems: [{ Put: { TableName: tableName, Item: { practiceId, sk } } }, { Delete: { TableName: tableName, Key: { practiceId, sk } } }],
        }),
      ),
    ).rejects.toMatchObject({ name: 'ValidationException', message: 'Transaction request cannot include multiple operations on one item' });

    const tooMany = Array.from({ length: 101 }, (_v, i) => ({ Put: { TableName: tableName, Item: { practiceId, sk: `${sk}#${i}` } } }));
    await expect(client.send(new TransactWriteCommand({ TransactItems: tooMany }))).rejects.toMatchObject({ name: 'ValidationException' });
    const first = await client.send(new GetCommand({ TableName: tableName, Key: { practiceId, sk: `${sk}#0` } }));
    expect(first.Item).toBeUndefined();
  });

  it('keeps each transaction whole and each condition true while many writers touch the same items at once', async () => {
    const { client, tableName } = tableClient();
    const practiceId = 'prc_tx_test';
    const [a, b, once] = [uniqueSk('pair-a'), uniqueSk('pair-b'), uniqueSk('once')];
    await client.send(new PutCommand({ TableName: tableName, Item: { practiceId, sk: a, n: 0 } }));
    await client.send(new PutCommand({ TableName: tableName, Item: { practiceId, sk: b, n: 0 } }));
    const increment = (sk: string) => ({
      Update: { TableName: tableName, Key: { practiceId, sk }, UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': 1 } },
    });
    const readPair = () =>
      client.send(
        new TransactGetCommand({
          TransactItems: [{ Get: { TableName: tableName, Key: { practiceId, sk: a } } }, { Get: { TableName: tableName, Key: { practiceId, sk: b } } }],
        }),
      );

    const [pairs, reads, claims, others] = await Promise.all([
      Promise.all(Array.from({ length: 30 }, () => client.send(new TransactWriteCommand({ TransactItems: [increment(a), increment(b)] })))),
      Promise.all(Array.from({ length: 30 }, readPair)),
      Promise.allSettled(
        Array.from({ length: 20 }, (_v, i) =>
          client.send(new PutCommand({ TableName: tableName, Item: { practiceId, sk: once, by: i }, ConditionExpression: 'attribute_not_exists(sk)' })),
        ),
      ),
      Promise.all(Array.from({ length: 20 }, (_v, i) => client.send(new PutCommand({ TableName: tableName, Item: { practiceId, sk: `${once}#${i}` } })))),
    ]);

    expect(pairs).toHaveLength(30);
    expect(others).toHaveLength(20);
    // A reader never sees one half of a transaction without the other.
    for (const read of reads) expect(read.Responses?.[0]?.Item?.n).toBe(read.Responses?.[1]?.Item?.n);
    expect((await readPair()).Responses?.map((r) => r.Item?.n)).toEqual([30, 30]);
    // Twenty writers race to create one item: one wins, every other hears its condition failed.
    expect(claims.filter((c) => c.status === 'fulfilled')).toHaveLength(1);
    expect(claims.filter((c) => c.status === 'rejected').map((c) => (c as PromiseRejectedResult).reason.name)).toEqual(
      Array(19).fill('ConditionalCheckFailedException'),
    );
  });

  it('deletes an item once its expiresAt has passed (TTL)', async () => {
    const { client, tableName } = tableClient();
    const practiceId = 'prc_ttl_test';
    const expired = uniqueSk('expired');
    const alive = uniqueSk('alive');
    const now = Math.floor(Date.now() / 1000);
    await client.send(new PutCommand({ TableName: tableName, Item: { practiceId, sk: expired, expiresAt: now - 10 } }));
    await client.send(new PutCommand({ TableName: tableName, Item: { practiceId, sk: alive, expiresAt: now + 3600 } }));

    await expect
      .poll(async () => (await client.send(new GetCommand({ TableName: tableName, Key: { practiceId, sk: expired } }))).Item, {
        timeout: 10_000,
        interval: 200,
      })
      .toBeUndefined();
    const kept = await client.send(new GetCommand({ TableName: tableName, Key: { practiceId, sk: alive } }));
    expect(kept.Item?.expiresAt).toBe(now + 3600);
  });
});

/** Signs a token with the local pool's key (it ships with cognito-local) to make an expired one. */
async function signWithPoolKey(claims: Record<string, unknown>, expiresAt: number): Promise<string> {
  const requireFromCognito = createRequire(createRequire(import.meta.url).resolve('cognito-local'));
  const keyFile = requireFromCognito.resolve('./keys/cognitoLocal.private.json');
  const { jwk } = JSON.parse(readFileSync(keyFile, 'utf8')) as { jwk: Record<string, string> };
  const key = await importJWK(jwk, 'RS256');
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: 'CognitoLocal' })
    .setIssuedAt(expiresAt - 3600)
    .setExpirationTime(expiresAt)
    .sign(key);
}

function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;
}

describe('HTTP API like API Gateway', () => {
  it('answers an unknown route with 404 Not Found', async () => {
    const token = await signIn(PROVIDER);
    const res = await api(token, 'GET', '/v3/no-such-route');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Not Found' });
    // Under /v1 a group's greedy key takes it, and that group answers its own 404.
    const grouped = await api(token, 'GET', '/v1/no-such-route');
    expect(grouped.status).toBe(404);
    expect(grouped.body).toEqual({ message: 'No route for GET /v1/no-such-route' });
  });

  it("answers an unknown path under a group's greedy route with that group's 404", async () => {
    const token = await signIn(PROVIDER);
    const res = await api(token, 'GET', '/v1/notes/n1/no-such-action');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'No route for GET /v1/notes/n1/no-such-action' });
  });

  it('refuses a request without a token with 401 before the handler runs', async () => {
    const res = await api(null, 'GET', METADATA);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Unauthorized' });
  });

  it('refuses an expired token and a tampered token with 401', async () => {
    const token = await signIn(PROVIDER);
    const claims = claimsOf(token);
    const expired = await signWithPoolKey({ ...claims, exp: undefined, iat: undefined }, Math.floor(Date.now() / 1000) - 60);
    const [header, , signature] = token.split('.');
    const forgedPayload = Buffer.from(JSON.stringify({ ...claims, 'cognito:groups': ['admin'] })).toString('base64url');

    const sameKeyFresh = await signWithPoolKey({ ...claims, exp: undefined, iat: undefined }, Math.floor(Date.now() / 1000) + 600);
    expect((await api(sameKeyFresh, 'GET', METADATA)).status).toBe(200);
    expect(await api(expired, 'GET', METADATA)).toMatchObject({ status: 401, body: { message: 'Unauthorized' } });
    expect(await api(`${header}.${forgedPayload}.${signature}`, 'GET', METADATA)).toMatchObject({ status: 401, body: { message: 'Unauthorized' } });
  });

  it('passes the claims to the handler, which serves a signed-in provider', async () => {
    const res = await api(await signIn(PROVIDER), 'GET', METADATA);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ practiceId: stackEndpoints().practiceId, practiceName: 'Tidewell Demo Clinic' });
  });

  it('refuses a token of another practice with 403', async () => {
    const token = await createTestUser({ email: 'other-practice@elsewhere.test', group: 'admin', practiceId: 'prc_other_clinic' });
    expect((await api(token, 'GET', METADATA)).status).toBe(403);
  });

  it('refuses a no_access user with 403', async () => {
    expect((await api(await signIn(NO_ACCESS), 'GET', METADATA)).status).toBe(403);
  });

  it('answers malformed JSON with 400 and a message', async () => {
    const res = await api(await signIn(PROVIDER), 'POST', '/v1/patients', '{"firstName": "Ada",');
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/malformed json/i);
  });

  it('refuses a body over 10 MB with 413', async () => {
    const res = await api(await signIn(PROVIDER), 'POST', '/v1/patients', `"${'x'.repeat(10 * 1024 * 1024)}"`);
    expect(res.status).toBe(413);
  });

  it('refreshes tokens the way Amplify 6 asks (GetTokensFromRefreshToken) with an ID token the API accepts', async () => {
    const outputs = stackOutputs();
    const signedIn = await fetch(`${outputs.cognitoEndpoint}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'AWSCognitoIdentityProviderService.InitiateAuth' },
      body: JSON.stringify({
        AuthFlow: 'USER_PASSWORD_AUTH',
        ClientId: outputs.userPoolClientId,
        AuthParameters: { USERNAME: PROVIDER, PASSWORD: 'Tidewell-Demo-1!' },
      }),
    }).then((r) => r.json());

    const refreshed = await fetch(`${outputs.cognitoEndpoint}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'AWSCognitoIdentityProviderService.GetTokensFromRefreshToken' },
      body: JSON.stringify({ ClientId: outputs.userPoolClientId, RefreshToken: signedIn.AuthenticationResult.RefreshToken }),
    });
    const result = (await refreshed.json()).AuthenticationResult;

    expect(refreshed.status).toBe(200);
    expect(result).toMatchObject({ TokenType: 'Bearer', RefreshToken: signedIn.AuthenticationResult.RefreshToken });
    expect(result.ExpiresIn).toBeGreaterThan(0);
    expect((await api(result.IdToken, 'GET', METADATA)).status).toBe(200);
  });

  it('serves config.json with the outputs on the same origin', async () => {
    const outputs = stackOutputs();
    const res = await fetch(`${outputs.webUrl}/config.json`);
    // The Copilot's model name rides along so the window can say before anyone types whether one is set up.
    expect(await res.json()).toEqual({ ...outputs, local: true, copilotModel: expect.any(String) });
    // Revalidated on every load, with the web origin's security headers, as the stack serves it.
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(res.headers.get('content-security-policy')).toContain(`connect-src 'self' ${stackEndpoints().s3}`);
  });

  it('answers /local/ready with 200 once its start, seed included, is done', async () => {
    // The runtime is started (its start returned) before any test runs, so it is ready by now.
    const res = await fetch(`${stackOutputs().webUrl}/local/ready`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ready: true });
    expect(res.headers.get('cache-control')).toBe('no-cache');
  });
});

describe('files', () => {
  it('round-trips a presigned PUT and GET against the bucket', async () => {
    const outputs = stackOutputs();
    const s3 = new S3Client({
      endpoint: stackEndpoints().s3,
      region: outputs.region,
      forcePathStyle: true,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    const key = `tests/${Math.random().toString(36).slice(2)}.txt`;
    const putUrl = await getSignedUrl(s3, new PutObjectCommand({ Bucket: outputs.filesBucket, Key: key, ContentType: 'text/plain' }), { expiresIn: 300 });
    const put = await fetch(putUrl, { method: 'PUT', headers: { 'content-type': 'text/plain', origin: outputs.webUrl }, body: 'chart attachment' });
    expect(put.status).toBe(200);
    expect(put.headers.get('access-control-allow-origin')).toBe(outputs.webUrl);

    const getUrl = await getSignedUrl(s3, new GetObjectCommand({ Bucket: outputs.filesBucket, Key: key }), { expiresIn: 300 });
    const get = await fetch(getUrl);
    expect(get.status).toBe(200);
    expect(await get.text()).toBe('chart attachment');
  });
});
