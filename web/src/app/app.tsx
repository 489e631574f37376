import { StrictMode } from 'react';
import { ErrorBoundary } from '../components/startup-error-view.js';
import { AuthGate } from '../features/auth/components/auth-gate.js';
import { preloadableLazy } from '../lib/preloadable-lazy.js';

/** Everything behind sign-in (router, shell, data layer) loads once the session is known. */
const authenticatedApp = preloadableLazy(() => import('./authenticated-app.js').then((m) => m.AuthenticatedApp));

export function App() {
  return (
    <StrictMode>
      <ErrorBoundary>
        <AuthGate beforeSignedIn={authenticatedApp.load}>
          <authenticatedApp.Component />
        </AuthGate>
      </ErrorBoundary>
    </StrictMode>
  );
}
