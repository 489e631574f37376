import { use, useDeferredValue, type ReactNode } from 'react';

/**
 * Shows `fallback` until `ready` has settled, then mounts `children` in a deferred render: one
 * React can interrupt and spreads over short tasks, where an answer arriving inside a mounted
 * panel re-renders it in one blocking task (a query's store update is always synchronous). Give
 * it a promise made once per subject (not per render) that never rejects, settling when the
 * children's data is in the query cache, so they mount with it. A Suspense boundary above it
 * keeps showing the fallback while `ready` is pending.
 */
export function MountWhenReady({ ready, fallback, children }: { ready: Promise<unknown>; fallback: ReactNode; children: ReactNode }) {
  const mount = useDeferredValue(true, false);
  return mount ? <AfterReady ready={ready}>{children}</AfterReady> : fallback;
}

function AfterReady({ ready, children }: { ready: Promise<unknown>; children: ReactNode }) {
  use(ready);
  return children;
}
