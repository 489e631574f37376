import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export interface PreloadableLazy<P extends object> {
  Component: LazyExoticComponent<ComponentType<P>>;
  /** Starts the download (once) and resolves when the module has run. */
  load(): Promise<ComponentType<P>>;
}

/**
 * `React.lazy` that does not suspend once its module is in. React suspends on any lazy
 * component's first render, even when its module arrived already, and then holds the content
 * back until 300 ms after the fallback appeared (its throttle against flickering spinners). A
 * module already loaded is handed over through a thenable that resolves at once, which React
 * reads in the same render: the screen shows without a fallback and without that wait.
 */
export function preloadableLazy<P extends object>(importer: () => Promise<ComponentType<P>>): PreloadableLazy<P> {
  let loaded: ComponentType<P> | undefined;
  let pending: Promise<ComponentType<P>> | undefined;
  const load = () =>
    (pending ??= importer().then(
      (component) => (loaded = component),
      (error: unknown) => {
        // A failed download (offline for a moment) is tried again by the next render or preload.
        pending = undefined;
        throw error;
      },
    ));
  const Component = lazy(() => {
    if (!loaded) return load().then((component) => ({ default: component }));
    const module = { default: loaded };
    const resolvedNow = { then: (resolve: (value: typeof module) => void) => resolve(module) };
    return resolvedNow as unknown as Promise<typeof module>;
  });
  return { Component, load };
}
