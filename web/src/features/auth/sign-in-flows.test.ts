import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setRuntimeConfigForTests, type RuntimeConfig } from '../../lib/runtime-config.js';

const amplifySignIn = vi.fn(async (input: unknown) => ({ isSignedIn: false, input }));
vi.mock('aws-amplify/auth', () => ({ signIn: (input: unknown) => amplifySignIn(input) }));

const { signIn } = await import('./sign-in-flows.js');

const config = (local: boolean): RuntimeConfig => ({
  apiUrl: 'https://api',
  graphqlUrl: 'https://gql',
  userPoolId: 'pool',
  userPoolClientId: 'client',
  region: 'us-east-1',
  local,
});

describe('sign-in flows', () => {
  beforeEach(() => amplifySignIn.mockClear());
  afterEach(() => setRuntimeConfigForTests(null));

  it("signs in with the password flow on the local pool even when the Authenticator's default service calls without options", async () => {
    setRuntimeConfigForTests(config(true));
    await signIn({ username: 'admin@demo.tidewell.local', password: 'pw' });
    expect(amplifySignIn).toHaveBeenCalledWith({ username: 'admin@demo.tidewell.local', password: 'pw', options: { authFlowType: 'USER_PASSWORD_AUTH' } });
  });

  it("keeps Amplify's own flow (SRP) against Cognito, and any flow the caller chose", async () => {
    setRuntimeConfigForTests(config(false));
    await signIn({ username: 'a@b.c', password: 'pw' });
    expect(amplifySignIn).toHaveBeenLastCalledWith({ username: 'a@b.c', password: 'pw' });
    setRuntimeConfigForTests(config(true));
    await signIn({ username: 'a@b.c', password: 'pw', options: { authFlowType: 'USER_SRP_AUTH' } });
    expect(amplifySignIn).toHaveBeenLastCalledWith({ username: 'a@b.c', password: 'pw', options: { authFlowType: 'USER_SRP_AUTH' } });
  });
});
