import { getCurrentUser, signIn } from 'aws-amplify/auth';
import { useEffect, useState, type FormEvent } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { Button } from '../../../components/ui/button.js';
import { MODAL_WIDTH } from '../../../components/ui/dialog.js';
import { Form } from '../../../components/ui/form.js';
import { TextField } from '../../../components/ui/text-field.js';
import { signInAuthFlow } from '../../../lib/configure-amplify.js';
import { useCurrentUser } from '../../../lib/practice.js';
import { runtimeConfig } from '../../../lib/runtime-config.js';
import { saveOpenDrafts } from '../../../lib/save-before-sign-out.js';
import { SCREEN_LOCK_ATTRIBUTE, unlockScreen, whileVerifyingPassword } from '../../../lib/screen-lock.js';
import { logout } from '../../../lib/session.js';
import { useAnyNoteRecording } from '../../../lib/recording-status.js';

export const SCREEN_LOCK_TEXT = {
  title: 'Screen locked',
  body: (minutes: number) => `Locked after ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} of inactivity. Enter your password to go back to where you were.`,
  recording: 'Recording in progress: the visit is still being recorded and saved while the screen is locked.',
  signedInAs: 'Signed in as',
  unlock: 'Unlock',
  switchUser: 'Sign in as someone else',
  switchHint: 'Signing in as someone else saves open notes as drafts and closes them.',
  failed: 'Unlocking did not work. Try again in a moment.',
  moreSteps: 'This account needs another sign-in step. Use “Sign in as someone else” and sign in again.',
} as const;

async function signedInLoginId(): Promise<string> {
  const user = await getCurrentUser();
  return user.signInDetails?.loginId ?? user.username;
}

/**
 * The lock's sign-in for the same user (the session-expiry modal's sign-in, session-expiry-modal.tsx,
 * with the session kept): a right password unlocks and everything under the lock is as it was.
 */
export function IdleLockDialog({ minutes }: { minutes: number }) {
  const me = useCurrentUser().data;
  const recording = useAnyNoteRecording();
  const [account, setAccount] = useState<{ username: string; userId: string } | null>(null);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState<'unlock' | 'switch' | null>(null);

  useEffect(() => {
    let active = true;
    getCurrentUser().then(
      (user) => active && setAccount({ username: user.signInDetails?.loginId ?? user.username, userId: user.userId }),
      () => undefined,
    );
    return () => {
      active = false;
    };
  }, []);
  const username = me?.emailAddress || account?.username || '';

  const unlock = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    setPending('unlock');
    setError(null);
    try {
      // Right after a reload the name may not have arrived yet; a password typed that fast is not dropped.
      const loginId = username || (await signedInLoginId());
      const authFlowType = signInAuthFlow(runtimeConfig());
      const result = await whileVerifyingPassword(() => signIn({ username: loginId.trim(), password, options: authFlowType ? { authFlowType } : undefined }));
      if (!result.isSignedIn) {
        setError(SCREEN_LOCK_TEXT.moreSteps);
        return;
      }
      // The name is fixed to this session's, so this cannot be someone else; if it ever were, their session is not ours to show.
      const now = await getCurrentUser();
      if (account && now.userId !== account.userId) {
        await logout();
        return;
      }
      setPassword('');
      unlockScreen();
    } catch (failure) {
      const { name, message } = failure as { name?: string; message?: string };
      // Cognito's own words for a refused password ('Incorrect username or password.'), as on the sign-in screen.
      setError(name === 'NotAuthorizedException' && message ? message : SCREEN_LOCK_TEXT.failed);
    } finally {
      setPending(null);
    }
  };

  const switchUser = async () => {
    setPending('switch');
    await saveOpenDrafts();
    await logout();
  };

  return (
    <ModalOverlay
      isOpen
      isDismissable={false}
      isKeyboardDismissDisabled
      className="tw-modal-overlay tw-screen-lock__overlay"
      // A dialog of the app that opens under the lock (a chart form restored after a reload) hides
      // everything outside it, inert; react-aria leaves its top layer alone, so the lock stays usable.
      {...{ [SCREEN_LOCK_ATTRIBUTE]: '', 'data-react-aria-top-layer': '' }}
    >
      <Modal className="tw-modal" style={{ width: MODAL_WIDTH.sm }}>
        <Dialog className="tw-dialog" role="alertdialog">
          <Heading slot="title" className="tw-dialog__title">
            {SCREEN_LOCK_TEXT.title}
          </Heading>
          <Form onSubmit={(event) => void unlock(event)}>
            <div className="tw-dialog__body">
              <p>{SCREEN_LOCK_TEXT.body(minutes)}</p>
              {recording ? (
                <p className="tw-banner tw-banner--success" role="status">
                  {SCREEN_LOCK_TEXT.recording}
                </p>
              ) : null}
              <p>
                {SCREEN_LOCK_TEXT.signedInAs} <span className="tw-screen-lock__user">{username}</span>
              </p>
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
              <p className="tw-field__description">{SCREEN_LOCK_TEXT.switchHint}</p>
            </div>
            <div className="tw-dialog__actions">
              <Button variant="secondary" onPress={() => void switchUser()} isPending={pending === 'switch'} isDisabled={pending === 'unlock'}>
                {SCREEN_LOCK_TEXT.switchUser}
              </Button>
              <Button variant="primary" type="submit" isPending={pending === 'unlock'} isDisabled={pending === 'switch'}>
                {SCREEN_LOCK_TEXT.unlock}
              </Button>
            </div>
          </Form>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
