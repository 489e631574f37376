import { describe, expect, it } from 'vitest';
import { hashForCallbackPath, pathFromHash, saveLoginRedirect, takeLoginRedirect } from './login-redirect.js';

function memoryStore() {
  const map = new Map<string, string>();
  return {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  };
}

describe('login redirect', () => {
  it('returns to the saved place once, then forgets it', () => {
    const store = memoryStore();
    saveLoginRedirect('#/patients/pat-0011?tab=notes', store);
    expect(takeLoginRedirect(store)).toBe('/patients/pat-0011?tab=notes');
    expect(takeLoginRedirect(store)).toBeNull();
  });

  it("goes to '/home' when the saved place is empty", () => {
    const store = memoryStore();
    saveLoginRedirect('', store);
    expect(takeLoginRedirect(store)).toBe('/home');
    saveLoginRedirect('#/', store);
    expect(takeLoginRedirect(store)).toBe('/home');
  });

  it('does nothing for a session that never saw the sign-in screen', () => {
    expect(takeLoginRedirect(memoryStore())).toBeNull();
  });

  it('reads the app path from a location hash', () => {
    expect(pathFromHash('#/calendar?view=week')).toBe('/calendar?view=week');
    expect(pathFromHash('#')).toBe('');
  });
});

describe('the OAuth callback path', () => {
  it("moves Google's redirect to /google-callback into the hash the app routes by, query and all", () => {
    expect(hashForCallbackPath({ pathname: '/google-callback', search: '?state=s1&code=4/0c&scope=x', hash: '' })).toBe(
      '/#/google-callback?state=s1&code=4/0c&scope=x',
    );
    expect(hashForCallbackPath({ pathname: '/', search: '?code=1', hash: '' })).toBeNull();
    expect(hashForCallbackPath({ pathname: '/google-callback', search: '', hash: '#/home' })).toBeNull();
  });
});
