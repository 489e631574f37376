import { getCurrentUser, signOut } from 'aws-amplify/auth';
import { Hub } from 'aws-amplify/utils';
import { startTransition, useEffect, useState } from 'react';
import { claimFormDrafts, clearAllFormDrafts } from '../../../lib/form-drafts.js';
import { isAnyNoteRecording } from '../../../lib/recording-status.js';
import { clearScreenLock } from '../../../lib/screen-lock.js';
import { clearSessionExpired, markSessionExpired } from '../../../lib/session-expiry.js';

export type AuthStatus = 'configuring' | 'authenticated' | 'unauthenticated';

interface AuthHubPayload {
  event: string;
  data?: { error?: { name?: string }; userId?: string };
}

/** What the Hub's auth event says about the session, or null when it changes nothing. */
export function statusAfterAuthEvent(payload: AuthHubPayload): AuthStatus | null {
  switch (payload.event) {
    case 'signedIn':
      return 'authenticated';
    case 'signedOut':
      return 'unauthenticated';
    case 'tokenRefresh_failure':
      // Offline for a moment is not signed out: the next request refreshes again.
      return payload.data?.error?.name === 'NetworkError' ? null : 'unauthenticated';
    default:
      return null;
  }
}

/**
 * The session from Amplify Auth alone, without the Authenticator: a signed-in user never downloads
 * the sign-in UI. A sign-in, a sign-out (here or announced by another tab) and a refresh token the
 * pool no longer accepts all arrive as Hub auth events.
 */
export function useAuthStatus(beforeSignedIn?: () => Promise<unknown>): AuthStatus {
  const [status, setStatus] = useState<AuthStatus>('configuring');
  useEffect(() => {
    let active = true;
    const stop = Hub.listen('auth', ({ payload }) => {
      const next = statusAfterAuthEvent(payload as AuthHubPayload);
      if (next === null) return;
      if (payload.event === 'tokenRefresh_failure') {
        // Mid-visit the recorder must stay mounted: the session-expiry modal signs in again instead.
        if (isAnyNoteRecording()) {
          markSessionExpired();
          return;
        }
        void signOut();
      }
      if (payload.event === 'signedIn' || payload.event === 'signedOut') clearSessionExpired();
      if (payload.event === 'signedOut') {
        clearAllFormDrafts();
        clearScreenLock();
      }
      const signedInAs = (payload as AuthHubPayload).data?.userId;
      if (payload.event === 'signedIn' && signedInAs) claimFormDrafts(signedInAs);
      setStatus(next);
    });
    getCurrentUser().then(
      async (user) => {
        claimFormDrafts(user.userId);
        // A failed download is not held here: the app's own loading and error screens answer it.
        await beforeSignedIn?.().catch(() => undefined);
        // The signed-in tree is the app's largest render; as a transition React yields to the
        // browser every few milliseconds while it builds it, instead of holding the page in one task.
        if (active) startTransition(() => setStatus((current) => (current === 'configuring' ? 'authenticated' : current)));
      },
      () => {
        // No session: a lock left from a closed browser has nothing to guard, and the next user starts unlocked.
        clearScreenLock();
        if (active) setStatus((current) => (current === 'configuring' ? 'unauthenticated' : current));
      },
    );
    return () => {
      active = false;
      stop();
    };
  }, [beforeSignedIn]);
  return status;
}
