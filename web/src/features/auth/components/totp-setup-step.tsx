import { useAuthenticator } from '@aws-amplify/ui-react';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button.js';
import { Form } from '../../../components/ui/form.js';
import { TextField } from '../../../components/ui/text-field.js';
import { TidewellMark } from '../../../components/ui/icons.js';
import { MFA_SETUP_TEXT, TotpSetupDetails, totpSetupUri } from './totp-setup-details.js';

/** The pool's answer, in the user's words: a wrong code, a sign-in session that ran out, or neither. */
function messageFor(remoteError: string): string {
  if (/mismatch|invalid code/i.test(remoteError)) return MFA_SETUP_TEXT.wrongCode;
  if (/session/i.test(remoteError)) return MFA_SETUP_TEXT.expired;
  return MFA_SETUP_TEXT.loadFailed;
}

/**
 * Amplify's CONTINUE_SIGN_IN_WITH_TOTP_SETUP step (a practice with "mfa": "required", a user
 * without TOTP): the same setup key, link and code field as the app's set-up screen, in place of
 * the Authenticator's QR page. The sign-in goes on only with a right code; there is no skip, only
 * the way back to the password.
 */
export function TotpSetupStep() {
  const { totpSecretCode, username, submitForm, toSignIn, error, isPending } = useAuthenticator((c) => [c.totpSecretCode, c.username, c.error, c.isPending]);
  const [code, setCode] = useState('');
  const [formatError, setFormatError] = useState<string | null>(null);
  const secret = totpSecretCode ?? '';

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = code.replace(/\s/g, '');
    if (!/^\d{6}$/.test(trimmed)) {
      setFormatError(MFA_SETUP_TEXT.codeFormat);
      return;
    }
    setFormatError(null);
    submitForm({ confirmation_code: trimmed });
  };
  const message = formatError ?? (error ? messageFor(error) : null);

  return (
    <main className="tw-auth">
      <div className="tw-mfa-setup">
        <div className="tw-auth__header">
          <TidewellMark width={40} height={40} />
          <h1 className="tw-auth__brand">{MFA_SETUP_TEXT.title}</h1>
        </div>
        <p>{MFA_SETUP_TEXT.signInBody}</p>
        <TotpSetupDetails secret={secret} uri={totpSetupUri(secret, username ?? '')} />
        <Form onSubmit={submit}>
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
          {message ? (
            <p className="tw-field__error" role="alert">
              {message}
            </p>
          ) : null}
          <div className="tw-mfa-setup__actions">
            <Button variant="secondary" onPress={() => toSignIn()}>
              {MFA_SETUP_TEXT.backToSignIn}
            </Button>
            <Button variant="primary" type="submit" isPending={isPending}>
              {MFA_SETUP_TEXT.submit}
            </Button>
          </div>
        </Form>
      </div>
    </main>
  );
}
