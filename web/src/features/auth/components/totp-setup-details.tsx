/**
 * What both TOTP set-ups show (the sign-in's MFA_SETUP step and the app's set-up screen for an
 * admin the API refused): the words, and the setup key and otpauth link as text to copy or open.
 */
export const MFA_SETUP_TEXT = {
  title: 'Set up two-step sign-in',
  body: 'This practice requires two-step sign-in for administrators. Add Tidewell to an authenticator app, then enter the 6-digit code it shows.',
  signInBody: 'This practice requires two-step sign-in. Add Tidewell to an authenticator app, then enter the 6-digit code it shows.',
  secretLabel: 'Setup key',
  uriLabel: 'Setup link (otpauth)',
  codeLabel: '6-digit code',
  wrongCode: 'That code did not match. Enter the 6-digit code your authenticator app shows now.',
  codeFormat: 'Enter the 6 digits your authenticator app shows.',
  loadFailed: 'Two-step sign-in could not be started. Check your connection and try again.',
  expired: 'This sign-in has expired. Go back to sign in and enter your password again.',
  submit: 'Turn on two-step sign-in',
  backToSignIn: 'Back to sign in',
} as const;

/** The otpauth link authenticator apps read, as aws-amplify/auth's getSetupUri writes it. */
export function totpSetupUri(secret: string, username: string): string {
  return `otpauth://totp/Tidewell:${encodeURIComponent(username)}?secret=${secret}&issuer=Tidewell`;
}

export function TotpSetupDetails({ secret, uri }: { secret: string; uri: string }) {
  return (
    <dl className="tw-mfa-setup__details">
      <dt>{MFA_SETUP_TEXT.secretLabel}</dt>
      <dd>
        <code data-testid="mfa-secret">{secret}</code>
      </dd>
      <dt>{MFA_SETUP_TEXT.uriLabel}</dt>
      <dd>
        <a href={uri}>{uri}</a>
      </dd>
    </dl>
  );
}
