import { afterEach, describe, expect, it } from 'vitest';
import { clearSessionExpired, isSessionExpired, markSessionExpired, sessionReady } from './session-expiry.js';

describe('session expiry while recording', () => {
  afterEach(() => clearSessionExpired());

  it('holds work that waits on the session until the user has signed in again', async () => {
    let resumed = false;
    expect(isSessionExpired()).toBe(false);
    await sessionReady();
    markSessionExpired();
    const waiting = sessionReady().then(() => {
      resumed = true;
    });
    await Promise.resolve();
    expect(resumed).toBe(false);
    clearSessionExpired();
    await waiting;
    expect(resumed).toBe(true);
    expect(isSessionExpired()).toBe(false);
  });
});
