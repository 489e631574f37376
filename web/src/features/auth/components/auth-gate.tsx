import { signOut } from 'aws-amplify/auth';
import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { Spinner } from '../../../components/ui/spinner.js';
import { onLogoutElsewhere } from '../../../lib/logout-sync.js';
import { useAuthStatus } from '../hooks/use-auth-status.js';
import '../auth-loading.css';

/** The Amplify UI Authenticator and its styles travel with the sign-in screen only. */
const SignInScreen = lazy(() => import('./sign-in-screen.js').then((m) => ({ default: m.SignInScreen })));

export interface AuthGateProps {
  children: ReactNode;
  /**
   * Awaited, behind the loading screen, before a session found at start-up shows `children`:
   * the app's code, so that its first screen appears without a second loading screen.
   */
  beforeSignedIn?: () => Promise<unknown>;
}

function AuthLoading() {
  return (
    <div className="tw-auth-loading">
      <Spinner label="Loading Tidewell" />
    </div>
  );
}

/**
 * Renders the app only for a signed-in user; otherwise the Tidewell sign-in (no self sign-up:
 * admins create users). Signing out drops the signed-in tree, and with it every cached answer.
 */
export function AuthGate({ children, beforeSignedIn }: AuthGateProps) {
  const authStatus = useAuthStatus(beforeSignedIn);

  useEffect(
    () =>
      onLogoutElsewhere(() => {
        void signOut();
      }),
    [],
  );

  if (authStatus === 'configuring') return <AuthLoading />;
  return <Suspense fallback={<AuthLoading />}>{authStatus === 'authenticated' ? children : <SignInScreen />}</Suspense>;
}
