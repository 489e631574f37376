import { Authenticator, useAuthenticator } from '@aws-amplify/ui-react';
import type { signIn, SignInInput } from 'aws-amplify/auth';
import { lazy, Suspense, useEffect } from 'react';
import { TidewellMark } from '../../../components/ui/icons.js';
import { signInAuthFlow } from '../../../lib/configure-amplify.js';
import { saveLoginRedirect } from '../../../lib/login-redirect.js';
import type { RuntimeConfig } from '../../../lib/runtime-config.js';
import '@aws-amplify/ui-react/styles/base.layer.css';
import '../amplify-ui.css';
import '../auth.css';

/**
 * The Tidewell sign-in: Amplify UI's Authenticator without sign-up, in the practice's colours. Its
 * TOTP set-up step (MFA_SETUP) is ours, on the Authenticator's own state (the shared provider).
 */
export function SignInScreen({ config }: { config: RuntimeConfig }) {
  useEffect(() => {
    saveLoginRedirect(window.location.hash);
  }, []);

  const authFlowType = signInAuthFlow(config);
  // The Authenticator calls this with the sign-in form's input only.
  const handleSignIn = (async (input: SignInInput) => {
    const flows = await import('../sign-in-flows.js');
    return flows.signIn({ ...input, options: { ...input.options, ...(authFlowType ? { authFlowType } : {}) } });
  }) as typeof signIn;
  const services = { handleSignIn };

  return (
    <Authenticator.Provider>
      <SignInSteps services={services} />
    </Authenticator.Provider>
  );
}

// Only a user whose practice requires two-step sign-in meets this step: it loads when they do.
const TotpSetupStep = lazy(() => import('./totp-setup-step.js').then((m) => ({ default: m.TotpSetupStep })));

function SignInSteps({ services }: { services: { handleSignIn: typeof signIn } }) {
  const { route } = useAuthenticator((c) => [c.route]);
  if (route === 'setupTotp')
    return (
      <Suspense fallback={null}>
        <TotpSetupStep />
      </Suspense>
    );
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
