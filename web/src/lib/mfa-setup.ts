import { useSyncExternalStore } from 'react';
import { MFA_REQUIRED_FOR_ALL_MESSAGE } from '../../../shared/permissions/mfa-messages.js';

/**
 * The API refused this caller with 403 mfa_required: the practice requires two-step sign-in (of
 * administrators, or of everyone) and this account has no authenticator app (yet, or any more
 * after a reset). The app then shows the set-up screen in place of everything else, since every
 * request would be refused the same way.
 */
let required = false;
let forEveryone = false;
const listeners = new Set<() => void>();

export const MFA_REQUIRED_REASON = 'mfa_required';

/** `message` is the refusal's words: they say whether the rule covers everyone or administrators. */
export function markMfaRequired(message?: string): void {
  if (required) return;
  required = true;
  forEveryone = message === MFA_REQUIRED_FOR_ALL_MESSAGE;
  for (const listener of listeners) listener();
}

/** Whether the practice requires two-step sign-in of everyone (not only of administrators). */
export function mfaRequiredOfEveryone(): boolean {
  return forEveryone;
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
