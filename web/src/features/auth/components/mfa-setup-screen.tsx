import { setUpTOTP, updateMFAPreference, verifyTOTPSetup } from 'aws-amplify/auth';
import { useEffect, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button.js';
import { Form } from '../../../components/ui/form.js';
import { TextField } from '../../../components/ui/text-field.js';
import { TidewellMark } from '../../../components/ui/icons.js';
import { logout } from '../../../lib/session.js';
import { mfaRequiredOfEveryone } from '../../../lib/mfa-setup.js';
import { MFA_SETUP_TEXT, TotpSetupDetails } from './totp-setup-details.js';
import '../auth.css';

type Setup = { secret: string; uri: string };

/**
 * Shown to an admin of a practice that requires two-step sign-in, in place of the app: there is no
 * way on except setting up an authenticator app (or signing out). Once the code checks out, TOTP
 * becomes this user's sign-in step and the app reloads, so every refused request is asked again.
 */
export function MfaSetupScreen() {
  const [setup, setSetup] = useState<Setup | null>(null);
  const [loadError, setLoadError] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  useEffect(() => {
    let current = true;
    setLoadError(false);
    setUpTOTP().then(
      (details) => {
        if (current) setSetup({ secret: details.sharedSecret, uri: details.getSetupUri('Tidewell').toString() });
      },
      () => {
        if (current) setLoadError(true);
      },
    );
    return () => {
      current = false;
    };
  }, [attempt]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = code.replace(/\s/g, '');
    if (!/^\d{6}$/.test(trimmed)) {
      setError(MFA_SETUP_TEXT.codeFormat);
      return;
    }
    setPending(true);
    setError(null);
    try {
      await verifyTOTPSetup({ code: trimmed });
    } catch {
      setError(MFA_SETUP_TEXT.wrongCode);
      setPending(false);
      return;
    }
    try {
      await updateMFAPreference({ totp: 'PREFERRED' });
      window.location.reload();
    } catch {
      setError(MFA_SETUP_TEXT.loadFailed);
      setPending(false);
    }
  };

  return (
    <main className="tw-auth">
      <div className="tw-mfa-setup">
        <div className="tw-auth__header">
          <TidewellMark width={40} height={40} />
          <h1 className="tw-auth__brand">{MFA_SETUP_TEXT.title}</h1>
        </div>
        <p>{mfaRequiredOfEveryone() ? MFA_SETUP_TEXT.signInBody : MFA_SETUP_TEXT.body}</p>
        {loadError ? (
          <>
            <p className="tw-field__error" role="alert">
              {MFA_SETUP_TEXT.loadFailed}
            </p>
            <Button variant="secondary" onPress={() => setAttempt((n) => n + 1)}>
              Try again
            </Button>
          </>
        ) : setup ? (
          <>
            <TotpSetupDetails secret={setup.secret} uri={setup.uri} />
            <Form onSubmit={(event) => void submit(event)}>
              <TextField
                label={MFA_SETUP_TEXT.codeLabel}
                name="code"
                autoComplete="one-time-code"
                inputMode="numeric"
                value={code}
                onChange={setCode}
                isRequired
                autoFocus
              />
              {error ? (
                <p className="tw-field__error" role="alert">
                  {error}
                </p>
              ) : null}
              <div className="tw-mfa-setup__actions">
                <Button variant="secondary" onPress={() => void logout()}>
                  Sign out
                </Button>
                <Button variant="primary" type="submit" isPending={pending}>
                  {MFA_SETUP_TEXT.submit}
                </Button>
              </div>
            </Form>
          </>
        ) : (
          <p role="status">Preparing your setup key…</p>
        )}
      </div>
    </main>
  );
}
