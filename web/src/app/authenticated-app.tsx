// First: zod's settings must be in place before any schema module runs.
import '../lib/zod-csp.js';
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from 'react';
import { createHashRouter, RouterProvider } from 'react-router-dom';
import { takeLoginRedirect } from '../lib/login-redirect.js';
import { createQueryClient } from '../lib/query-client.js';
import { toastQueue } from '../lib/toasts.js';
import { appRoutes, prefetchScreenData, preloadChartAfterFirstScreen } from './routes.js';

export { preloadScreenFor } from './routes.js';

/**
 * Created after sign-in, so the router starts at the place saved before login (spec shell §2.4)
 * rather than at whatever the sign-in screen showed. The query cache lives and dies with the
 * session: after a sign-out nothing of the previous user's data is left in memory.
 */
export function AuthenticatedApp() {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(() => {
    const target = takeLoginRedirect();
    if (target !== null) window.history.replaceState(window.history.state, '', `#${target}`);
    return createHashRouter(appRoutes);
  });
  useEffect(() => prefetchScreenData(window.location.hash, queryClient), [queryClient]);
  useEffect(preloadChartAfterFirstScreen, []);
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <ToastsOnceShown />
    </QueryClientProvider>
  );
}

const Toasts = lazy(() => import('../components/ui/toast-region.js').then((m) => ({ default: m.Toasts })));
const subscribeToasts = (onChange: () => void) => toastQueue.subscribe(onChange);
const anyToastVisible = () => toastQueue.visibleToasts.length > 0;

/** The toast region's code arrives with the first toast (queued toasts wait for it), then stays. */
function ToastsOnceShown() {
  const visible = useSyncExternalStore(subscribeToasts, anyToastVisible);
  const [needed, setNeeded] = useState(false);
  if (visible && !needed) setNeeded(true);
  return needed ? (
    <Suspense fallback={null}>
      <Toasts />
    </Suspense>
  ) : null;
}
