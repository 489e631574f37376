import { useState } from 'react';
import { createHashRouter, RouterProvider } from 'react-router-dom';
import { takeLoginRedirect } from '../lib/login-redirect.js';
import { appRoutes } from './routes.js';

/**
 * Created after sign-in, so the router starts at the place saved before login (spec shell §2.4)
 * rather than at whatever the sign-in screen showed.
 */
export function AuthenticatedApp() {
  const [router] = useState(() => {
    const target = takeLoginRedirect();
    if (target !== null) window.history.replaceState(window.history.state, '', `#${target}`);
    return createHashRouter(appRoutes);
  });
  return <RouterProvider router={router} />;
}
