// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** A session found in storage at start-up. */
vi.mock('aws-amplify/auth', () => ({
  getCurrentUser: async () => ({ username: 'sub-1', userId: 'sub-1' }),
  signOut: async () => undefined,
}));
vi.mock('aws-amplify/utils', () => ({ Hub: { listen: () => () => undefined } }));

const { AuthGate } = await import('./auth-gate.js');

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  document.body.replaceChildren();
});

function renderGate(beforeSignedIn: () => Promise<unknown>) {
  const container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  act(() =>
    root!.render(
      <AuthGate beforeSignedIn={beforeSignedIn}>
        <p>The app</p>
      </AuthGate>,
    ),
  );
  return container;
}

const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 20)));

describe('the sign-in gate with a stored session', () => {
  it("keeps its loading screen until the app's code is in, then shows the app", async () => {
    let codeIn: () => void = () => undefined;
    const container = renderGate(() => new Promise<void>((resolve) => (codeIn = resolve)));
    await settle();
    expect(container.textContent).not.toContain('The app');
    expect(container.querySelector('.tw-auth-loading')).not.toBeNull();
    await act(async () => codeIn());
    await settle();
    expect(container.textContent).toContain('The app');
  });

  it("shows the app when the app's code failed to download, so its own error screen can answer", async () => {
    const container = renderGate(() => Promise.reject(new Error('Failed to fetch dynamically imported module')));
    await settle();
    expect(container.textContent).toContain('The app');
  });
});
