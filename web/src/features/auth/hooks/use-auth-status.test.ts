import { describe, expect, it } from 'vitest';
import { statusAfterAuthEvent } from './use-auth-status.js';

describe('statusAfterAuthEvent', () => {
  it('follows sign-in and sign-out, here or announced by another tab', () => {
    expect(statusAfterAuthEvent({ event: 'signedIn' })).toBe('authenticated');
    expect(statusAfterAuthEvent({ event: 'signedOut' })).toBe('unauthenticated');
  });

  it('signs out when the pool refuses the refresh token, but not when the network was away', () => {
    expect(statusAfterAuthEvent({ event: 'tokenRefresh_failure', data: { error: { name: 'NotAuthorizedException' } } })).toBe('unauthenticated');
    expect(statusAfterAuthEvent({ event: 'tokenRefresh_failure', data: { error: { name: 'NetworkError' } } })).toBeNull();
  });

  it('leaves the session alone on events that do not change it', () => {
    expect(statusAfterAuthEvent({ event: 'tokenRefresh' })).toBeNull();
    expect(statusAfterAuthEvent({ event: 'customOAuthState' })).toBeNull();
  });
});
