import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultProvider } from './lambda-credentials.js';

describe('Lambda credentials (the bundles\' stand-in for the SDK credential chain)', () => {
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
});
