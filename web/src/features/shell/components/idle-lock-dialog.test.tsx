// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderInApp } from '../../../lib/render-in-app.js';
import { setRuntimeConfigForTests } from '../../../lib/runtime-config.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** Right after a reload: the user's record and the stored session both answer late. */
let releaseUser: () => void = () => undefined;
const userKnown = new Promise<void>((resolve) => (releaseUser = resolve));
const signIn = vi.fn(async (_input: { username: string; password: string }) => {
  throw Object.assign(new Error('Incorrect username or password.'), { name: 'NotAuthorizedException' });
});
vi.mock('aws-amplify/auth', () => ({
  getCurrentUser: async () => {
    await userKnown;
    return { username: 'sub-1', userId: 'sub-1', signInDetails: { loginId: 'provider@demo.tidewell.local' } };
  },
  signIn: (input: { username: string; password: string }) => signIn(input),
}));
vi.mock('../../../lib/api-client.js', () => ({ apiRequest: () => new Promise(() => undefined) }));

const { IdleLockDialog } = await import('./idle-lock-dialog.js');
const { ConfirmDialog } = await import('../../../components/ui/dialog.js');

const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 20)));

describe('the screen lock', () => {
  afterEach(() => {
    setRuntimeConfigForTests(null);
    document.body.replaceChildren();
  });

  it('stays usable when a dialog of the app under it opens afterwards (a chart form restored after a reload)', async () => {
    await act(async () => {
      renderInApp(<IdleLockDialog minutes={1} />);
    });
    await settle();
    await act(async () => {
      renderInApp(
        <ConfirmDialog isOpen onOpenChange={() => undefined} title="Add Allergy" confirmLabel="Save" onConfirm={() => undefined}>
          Restored form
        </ConfirmDialog>,
      );
    });
    await settle();
    expect(document.body.textContent).toContain('Restored form');
    const lock = document.querySelector<HTMLElement>('[data-screen-lock]')!;
    // A modal hides everything outside it from the keyboard and screen readers; never the lock.
    for (let node: HTMLElement | null = lock; node && node !== document.body; node = node.parentElement) {
      expect(node.hasAttribute('inert'), 'inert').toBe(false);
      expect(node.getAttribute('aria-hidden'), 'aria-hidden').toBeNull();
    }
  });

  it('checks a password entered before the user’s name has arrived, and says when it is wrong', async () => {
    setRuntimeConfigForTests({
      apiUrl: 'https://api',
      graphqlUrl: 'https://gql',
      userPoolId: 'pool',
      userPoolClientId: 'client',
      region: 'us-east-1',
      local: true,
    });
    await act(async () => {
      renderInApp(<IdleLockDialog minutes={1} />);
    });
    await settle();
    const password = document.querySelector<HTMLInputElement>('input[type="password"]');
    expect(password).not.toBeNull();
    await act(async () => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(password, 'not-the-password');
      password!.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await act(async () => {
      password!.closest('form')!.requestSubmit();
    });
    await settle();
    expect(document.querySelector('[role="alert"]')).toBeNull();

    releaseUser();
    await settle();
    expect(signIn).toHaveBeenCalledWith(expect.objectContaining({ username: 'provider@demo.tidewell.local', password: 'not-the-password' }));
    expect(document.querySelector('[role="alert"]')?.textContent).toBe('Incorrect username or password.');
  });
});
