// @vitest-environment happy-dom
import { act, Suspense } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { preloadableLazy } from './preloadable-lazy.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

function Greeting({ name }: { name: string }) {
  return <p>Hello {name}</p>;
}

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  document.body.replaceChildren();
});

/** Renders the component under a Suspense boundary and records every fallback React committed. */
function renderUnderSuspense(Component: React.ComponentType<{ name: string }>) {
  const fallbacks: string[] = [];
  function Fallback() {
    fallbacks.push('shown');
    return <p>Loading</p>;
  }
  const container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  act(() =>
    root!.render(
      <Suspense fallback={<Fallback />}>
        <Component name="Ada" />
      </Suspense>,
    ),
  );
  return { container, fallbacks };
}

describe('preloadableLazy', () => {
  it('renders a preloaded module in the first render, with no loading fallback', async () => {
    const greeting = preloadableLazy(async () => Greeting);
    await greeting.load();
    const { container, fallbacks } = renderUnderSuspense(greeting.Component);
    expect(container.textContent).toBe('Hello Ada');
    expect(fallbacks).toEqual([]);
  });

  it('shows the fallback while a module that was not preloaded downloads, then the component', async () => {
    let arrive: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => (arrive = resolve));
    const greeting = preloadableLazy(async () => {
      await arrived;
      return Greeting;
    });
    const { container, fallbacks } = renderUnderSuspense(greeting.Component);
    expect(container.textContent).toBe('Loading');
    await act(async () => {
      arrive();
      await greeting.load();
      // React holds a revealed boundary back for a moment after its fallback showed.
      await new Promise((resolve) => setTimeout(resolve, 400));
    });
    expect(container.textContent).toBe('Hello Ada');
    expect(fallbacks.length).toBeGreaterThan(0);
  });

  it('downloads once however often it is preloaded, and tries again after a failed download', async () => {
    let calls = 0;
    const greeting = preloadableLazy(async () => {
      calls += 1;
      if (calls === 1) throw new Error('Failed to fetch dynamically imported module');
      return Greeting;
    });
    await expect(greeting.load()).rejects.toThrow('Failed to fetch');
    await Promise.all([greeting.load(), greeting.load()]);
    await greeting.load();
    expect(calls).toBe(2);
    const { container } = renderUnderSuspense(greeting.Component);
    expect(container.textContent).toBe('Hello Ada');
  });
});
