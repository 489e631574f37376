import { lazy, StrictMode } from 'react';
import { ErrorBoundary } from '../components/startup-error-view.js';
import { AuthGate } from '../features/auth/components/auth-gate.js';
import type { RuntimeConfig } from '../lib/runtime-config.js';

/** Everything behind sign-in (router, shell, data layer) loads once the session is known. */
const AuthenticatedApp = lazy(() => import('./authenticated-app.js').then((m) => ({ default: m.AuthenticatedApp })));

export function App({ config }: { config: RuntimeConfig }) {
  return (
    <StrictMode>
      <ErrorBoundary>
        <AuthGate config={config}>
          <AuthenticatedApp />
        </AuthGate>
      </ErrorBoundary>
    </StrictMode>
  );
}
