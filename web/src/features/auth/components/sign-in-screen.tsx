import { Authenticator, useAuthenticator } from '@aws-amplify/ui-react';
import { lazy, Suspense, useEffect } from 'react';
import { TidewellMark } from '../../../components/ui/icons.js';
import { saveLoginRedirect } from '../../../lib/login-redirect.js';
import '@aws-amplify/ui-react/styles/base.layer.css';
import '../amplify-ui.css';
import '../auth.css';

/**
 * The Tidewell sign-in: Amplify UI's Authenticator without sign-up, in the practice's colours. Its
 * TOTP set-up step (MFA_SETUP) is ours, on the Authenticator's own state (the shared provider).
 */
export function SignInScreen() {
  useEffect(() => {
    saveLoginRedirect(window.location.hash);
  }, []);

  return (
    <Authenticator.Provider>
      <SignInSteps />
    </Authenticator.Provider>
  );
}

// Only a user whose practice requires two-step sign-in meets this step: it loads when they do.
const TotpSetupStep = lazy(() => import('./totp-setup-step.js').then((m) => ({ default: m.TotpSetupStep })));

function SignInSteps() {
  const { route } = useAuthenticator((c) => [c.route]);
  if (route === 'setupTotp')
    return (
      <Suspense fallback={null}>
        <TotpSetupStep />
      </Suspense>
    );
  return (
    <main className="tw-auth">
      <Authenticator hideSignUp components={{ Header: SignInHeader, Footer: SignInFooter }} />
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
