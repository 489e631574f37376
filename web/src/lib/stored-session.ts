/**
 * Whether this browser holds a Cognito session (Amplify's token keys in localStorage), read
 * before Amplify is configured: only a hint for what to fetch first, never a sign-in check.
 */
export function hasStoredSession(storage: Pick<Storage, 'length' | 'key'> = window.localStorage): boolean {
  try {
    for (let i = 0; i < storage.length; i += 1) {
      const key = storage.key(i);
      if (key?.startsWith('CognitoIdentityServiceProvider.') && key.endsWith('.LastAuthUser')) return true;
    }
  } catch {
    // Storage refused (a privacy mode): the app finds out the usual way.
  }
  return false;
}
