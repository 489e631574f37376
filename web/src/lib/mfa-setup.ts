import { useSyncExternalStore } from 'react';

/**
 * The API refused this admin with 403 mfa_required: the practice requires two-step sign-in for
 * administrators and this account has no authenticator app yet. The app then shows the set-up
 * screen in place of everything else, since every request would be refused the same way.
 */
let required = false;
const listeners = new Set<() => void>();

export const MFA_REQUIRED_REASON = 'mfa_required';

export function markMfaRequired(): void {
  if (required) return;
  required = true;
  for (const listener of listeners) listener();
}

export function isMfaRequired(): boolean {
  return required;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useMfaRequired(): boolean {
  return useSyncExternalStore(subscribe, isMfaRequired, () => false);
}
