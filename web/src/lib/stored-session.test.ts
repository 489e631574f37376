import { describe, expect, it } from 'vitest';
import { hasStoredSession } from './stored-session.js';

function storageWith(keys: string[]): Pick<Storage, 'length' | 'key'> {
  return { length: keys.length, key: (i: number) => keys[i] ?? null };
}

describe('hasStoredSession', () => {
  it("sees Amplify's signed-in user among other keys", () => {
    expect(hasStoredSession(storageWith(['tw.theme', 'CognitoIdentityServiceProvider.client1.LastAuthUser']))).toBe(true);
  });

  it('sees none in a signed-out browser', () => {
    expect(hasStoredSession(storageWith(['tw.theme']))).toBe(false);
  });
});
