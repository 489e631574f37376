import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { expectSameOperation, recordingExchange, recordingHandler, SIGNING_TIME, TEST_CREDENTIALS, type CannedAnswer } from '../../../test/support/aws-wire.js';
import { FilePartnerSecrets, SECRETS_MANAGER_TARGET, SecretsManagerPartnerSecrets } from './partner-secrets.js';

const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:tidewell-demo-partner-secrets-AbCdEf';

describe('Secrets Manager partner secrets', () => {
  it('signs a GetSecretValue call (awsJson1_1) and reads the partner from the SecretString map, once per five minutes', async () => {
    const calls: { url: string; headers: Record<string, string>; body: string }[] = [];
    let now = 1_000_000;
    const secrets = new SecretsManagerPartnerSecrets({
      secretArn: ARN,
      region: 'us-east-1',
      credentials,
      now: () => now,
      exchange: async (url, init) => {
        calls.push({ url, headers: init.headers, body: init.body });
        // The documented response: ARN, Name, VersionId, SecretString, VersionStages, CreatedDate.
        return {
          status: 200,
          body: JSON.stringify({
            ARN,
            Name: 'tidewell-demo-partner-secrets',
            VersionId: 'v1',
            SecretString: JSON.stringify({ 'care-plan': 'a'.repeat(32), short: 'x', _placeholder: 'b'.repeat(32) }),
            VersionStages: ['AWSCURRENT'],
            CreatedDate: 1.7e9,
          }),
        };
      },
    });
    expect(await secrets.secretOf('care-plan')).toBe('a'.repeat(32));
    expect(await secrets.secretOf('short')).toBeNull();
    expect(await secrets.secretOf('unknown')).toBeNull();
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe('https://secretsmanager.us-east-1.amazonaws.com/');
    expect(calls[0]!.headers['x-amz-target']).toBe(SECRETS_MANAGER_TARGET);
    expect(calls[0]!.headers['content-type']).toBe('application/x-amz-json-1.1');
    expect(calls[0]!.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/us-east-1\/secretsmanager\/aws4_request/);
    expect(JSON.parse(calls[0]!.body)).toEqual({ SecretId: ARN });
    now += 5 * 60_000 + 1;
    await secrets.secretOf('care-plan');
    expect(calls).toHaveLength(2);
  });

  it("fails with the service's error type (no secret material in the message)", async () => {
    const secrets = new SecretsManagerPartnerSecrets({
      secretArn: ARN,
      region: 'us-east-1',
      credentials,
      exchange: async () => ({
        status: 400,
        body: JSON.stringify({ __type: 'ResourceNotFoundException', message: "Secrets Manager can't find the specified secret." }),
      }),
    });
    await expect(secrets.secretOf('care-plan')).rejects.toThrow('GetSecretValue failed: ResourceNotFoundException');
  });
});

describe('file partner secrets (npm start)', () => {
  it('reads the same JSON map from the data folder, and nothing from a missing file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw-secrets-'));
    writeFileSync(join(dir, 'partner-secrets.json'), JSON.stringify({ thea: 't'.repeat(20) }));
    expect(await new FilePartnerSecrets(join(dir, 'partner-secrets.json')).secretOf('thea')).toBe('t'.repeat(20));
    expect(await new FilePartnerSecrets(join(dir, 'missing.json')).secretOf('thea')).toBeNull();
  });
});

describe('GetSecretValue, as @aws-sdk/client-secrets-manager sends it', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['Date'], now: SIGNING_TIME }));
  afterEach(() => vi.useRealTimers());

  it('is the same request, and the SecretString the SDK reads is the one the partners come from', async () => {
    const secretString = JSON.stringify({ 'care-plan': 'a'.repeat(32) });
    // The documented response, CreatedDate as the epoch seconds awsJson1_1 carries.
    const canned = {
      status: 200,
      headers: { 'content-type': 'application/x-amz-json-1.1' },
      body: JSON.stringify({
        ARN,
        Name: 'tidewell-demo-partner-secrets',
        VersionId: 'v1',
        SecretString: secretString,
        VersionStages: ['AWSCURRENT'],
        CreatedDate: 1.7e9,
      }),
    };
    const lite = recordingExchange(canned);
    const sdk = recordingHandler(canned);
    const secrets = new SecretsManagerPartnerSecrets({ secretArn: ARN, region: 'us-east-1', credentials: TEST_CREDENTIALS, exchange: lite.exchange });
    const client = new SecretsManagerClient({ region: 'us-east-1', credentials: TEST_CREDENTIALS, requestHandler: sdk.requestHandler, maxAttempts: 1 });
    expect(await secrets.secretOf('care-plan')).toBe('a'.repeat(32));
    const out = await client.send(new GetSecretValueCommand({ SecretId: ARN }));
    expect(out.SecretString).toBe(secretString);
    expectSameOperation(lite.requests[0]!, sdk.requests[0]!, { headers: ['content-type', 'x-amz-target', 'host'], service: 'secretsmanager', json: true });
  });

  it('names an error as the SDK does, from the X-Amzn-ErrorType header or the body', async () => {
    const answers: CannedAnswer[] = [
      {
        status: 400,
        headers: { 'content-type': 'application/x-amz-json-1.1' },
        body: JSON.stringify({ __type: 'ResourceNotFoundException', message: "Secrets Manager can't find the specified secret." }),
      },
      {
        status: 400,
        headers: {
          'content-type': 'application/x-amz-json-1.1',
          'x-amzn-errortype': 'AccessDeniedException:http://internal.amazon.com/coral/com.amazon.coral.service/',
        },
        body: '{"Message":"not authorized"}',
      },
    ];
    for (const canned of answers) {
      const client = new SecretsManagerClient({
        region: 'us-east-1',
        credentials: TEST_CREDENTIALS,
        requestHandler: recordingHandler(canned).requestHandler,
        maxAttempts: 1,
      });
      const sdkError = (await client.send(new GetSecretValueCommand({ SecretId: ARN })).catch((e: Error) => e)) as Error;
      const secrets = new SecretsManagerPartnerSecrets({
        secretArn: ARN,
        region: 'us-east-1',
        credentials: TEST_CREDENTIALS,
        exchange: recordingExchange(canned).exchange,
      });
      await expect(secrets.secretOf('care-plan')).rejects.toThrow(`GetSecretValue failed: ${sdkError.name}`);
    }
  });
});
