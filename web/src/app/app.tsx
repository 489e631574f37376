import { lazy, StrictMode } from 'react';
import { ErrorBoundary } from '../components/startup-error-view.js';
import { AuthGate } from '../features/auth/components/auth-gate.js';

/** Everything behind sign-in (router, shell, data layer) loads once the session is known. */
const AuthenticatedApp = lazy(() => import('./authenticated-app.js').then((m) => ({ default: m.AuthenticatedApp })));

export function App() {
  return (
    <StrictMode>
      <ErrorBoundary>
        <AuthGate>
          <AuthenticatedApp />
        </AuthGate>
      </ErrorBoundary>
    </StrictMode>
  );
}
