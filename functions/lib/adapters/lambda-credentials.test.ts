import { defaultProvider as sdkDefaultProvider } from '@aws-sdk/credential-provider-node';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultProvider } from './lambda-credentials.js';

describe("Lambda credentials (the bundles' stand-in for the SDK credential chain)", () => {
  afterEach(() => vi.unstubAllEnvs());

  it('hands the SDK the role credentials Lambda puts in the environment', async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIAEXAMPLE');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'secret');
    vi.stubEnv('AWS_SESSION_TOKEN', 'token');
    await expect(defaultProvider({})()).resolves.toEqual({ accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'secret', sessionToken: 'token' });
  });

  it('fails with a message naming the missing variables instead of calling out to other providers', async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', '');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', '');
    await expect(defaultProvider()()).rejects.toThrow(/AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set/);
  });

  it('gives what the SDK credential chain gives for the environment Lambda sets', async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'ASIAEXAMPLE');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY');
    vi.stubEnv('AWS_SESSION_TOKEN', 'session-token');
    vi.stubEnv('AWS_CREDENTIAL_EXPIRATION', '2026-11-24T20:30:00Z');
    const sdk = await sdkDefaultProvider()();
    const { accessKeyId, secretAccessKey, sessionToken, expiration } = sdk;
    expect(await defaultProvider()()).toEqual({ accessKeyId, secretAccessKey, sessionToken, expiration });
    expect(expiration).toEqual(new Date('2026-11-24T20:30:00Z'));
  });
});
