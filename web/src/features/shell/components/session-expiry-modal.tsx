import { signIn } from 'aws-amplify/auth';
import { useState, type FormEvent } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { Button } from '../../../components/ui/button.js';
import { MODAL_WIDTH } from '../../../components/ui/dialog.js';
import { Form } from '../../../components/ui/form.js';
import { TextField } from '../../../components/ui/text-field.js';
import { signInAuthFlow } from '../../../lib/configure-amplify.js';
import { runtimeConfig } from '../../../lib/runtime-config.js';
import { clearSessionExpired } from '../../../lib/session-expiry.js';
import { logout } from '../../../lib/session.js';

export const SESSION_EXPIRY_TEXT = {
  title: 'Your session has expired',
  body: 'The visit is still being recorded on this device. Sign in again to keep saving it to the note.',
  signOutWarning: 'Signing out discards the part of the recording that is not saved yet.',
  failed: 'Signing in did not work. Try again in a moment.',
  moreSteps: 'This account needs another sign-in step. Stop the recording, download it, then sign out and sign in again.',
} as const;

export interface SessionExpiryModalProps {
  email: string | undefined;
}

/**
 * Spec notes §2 session-expiry modal: shown instead of the sign-in screen while a note is
 * recording, so the note window and its recorder stay mounted. Signing in here lets the held
 * chunk uploads go on.
 */
export function SessionExpiryModal({ email }: SessionExpiryModalProps) {
  const [username, setUsername] = useState(email ?? '');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setPending(true);
    setError(null);
    try {
      const authFlowType = signInAuthFlow(runtimeConfig());
      const result = await signIn({ username: username.trim(), password, options: authFlowType ? { authFlowType } : undefined });
      if (result.isSignedIn) clearSessionExpired();
      else setError(SESSION_EXPIRY_TEXT.moreSteps);
    } catch (failure) {
      // The tokens came back meanwhile (another tab signed in): the session holds again.
      const { name, message } = failure as { name?: string; message?: string };
      if (name === 'UserAlreadyAuthenticatedException') clearSessionExpired();
      // Cognito's own words for a refused sign-in ('Incorrect username or password.', 'Password attempts exceeded'), as on the sign-in screen.
      else setError(name === 'NotAuthorizedException' && message ? message : SESSION_EXPIRY_TEXT.failed);
    } finally {
      setPending(false);
    }
  };

  return (
    // Above whatever dialog of the app opens after it: react-aria never hides its top layer.
    <ModalOverlay isOpen isDismissable={false} isKeyboardDismissDisabled className="tw-modal-overlay" data-react-aria-top-layer="">
      <Modal className="tw-modal" style={{ width: MODAL_WIDTH.sm }}>
        <Dialog className="tw-dialog" role="alertdialog">
          <Heading slot="title" className="tw-dialog__title">
            {SESSION_EXPIRY_TEXT.title}
          </Heading>
          <Form onSubmit={(event) => void submit(event)}>
            <div className="tw-dialog__body">
              <p>{SESSION_EXPIRY_TEXT.body}</p>
              <TextField label="Email" type="email" name="username" autoComplete="username" value={username} onChange={setUsername} isRequired />
              <TextField
                label="Password"
                type="password"
                name="password"
                autoComplete="current-password"
                value={password}
                onChange={setPassword}
                isRequired
                autoFocus
              />
              {error ? (
                <p className="tw-field__error" role="alert">
                  {error}
                </p>
              ) : null}
              <p className="tw-field__description">{SESSION_EXPIRY_TEXT.signOutWarning}</p>
            </div>
            <div className="tw-dialog__actions">
              <Button variant="secondary" onPress={() => void logout()}>
                Sign out
              </Button>
              <Button variant="primary" type="submit" isPending={pending}>
                Sign in
              </Button>
            </div>
          </Form>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
