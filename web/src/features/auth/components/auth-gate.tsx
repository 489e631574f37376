import { Authenticator, useAuthenticator } from '@aws-amplify/ui-react';
import { useQueryClient } from '@tanstack/react-query';
import { signIn, signOut, type SignInInput } from 'aws-amplify/auth';
import { useEffect, type ReactNode } from 'react';
import { Spinner } from '../../../components/ui/spinner.js';
import { TidewellMark } from '../../../components/ui/icons.js';
import { signInAuthFlow } from '../../../lib/configure-amplify.js';
import { saveLoginRedirect } from '../../../lib/login-redirect.js';
import { onLogoutElsewhere } from '../../../lib/logout-sync.js';
import type { RuntimeConfig } from '../../../lib/runtime-config.js';
import '../auth.css';

export interface AuthGateProps {
  config: RuntimeConfig;
  children: ReactNode;
}

/** Renders the app only for a signed-in user; otherwise the Tidewell sign-in (no self sign-up: admins create users). */
export function AuthGate({ config, children }: AuthGateProps) {
  const { authStatus } = useAuthenticator((context) => [context.authStatus]);
  const queryClient = useQueryClient();

  useEffect(
    () =>
      onLogoutElsewhere(() => {
        void signOut();
      }),
    [],
  );

  useEffect(() => {
    if (authStatus === 'unauthenticated') queryClient.clear();
  }, [authStatus, queryClient]);

  if (authStatus === 'configuring') {
    return (
      <div className="tw-auth-loading">
        <Spinner label="Loading Tidewell" />
      </div>
    );
  }
  if (authStatus !== 'authenticated') return <SignInScreen config={config} />;
  return <>{children}</>;
}

function SignInScreen({ config }: { config: RuntimeConfig }) {
  useEffect(() => {
    saveLoginRedirect(window.location.hash);
  }, []);

  const authFlowType = signInAuthFlow(config);
  // The Authenticator calls this with the sign-in form's input only.
  const handleSignIn = ((input: SignInInput) =>
    signIn({ ...input, options: { ...input.options, ...(authFlowType ? { authFlowType } : {}) } })) as typeof signIn;
  const services = { handleSignIn };

  return (
    <main className="tw-auth">
      <Authenticator hideSignUp services={services} components={{ Header: SignInHeader, Footer: SignInFooter }} />
    </main>
  );
}

function SignInHeader() {
  return (
    <div className="tw-auth__header">
      <TidewellMark width={40} height={40} />
      <h1 className="tw-auth__brand">Tidewell</h1>
      <p className="tw-auth__tagline">Sign in to your practice</p>
    </div>
  );
}

function SignInFooter() {
  return <p className="tw-auth__footer">Accounts are created by your practice administrator.</p>;
}
