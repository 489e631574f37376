import { Authenticator } from '@aws-amplify/ui-react';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, useState } from 'react';
import { ErrorBoundary } from '../components/error-views.js';
import { Toasts } from '../components/ui/toast-region.js';
import { AuthGate } from '../features/auth/components/auth-gate.js';
import { createQueryClient } from '../lib/query-client.js';
import type { RuntimeConfig } from '../lib/runtime-config.js';
import { AuthenticatedApp } from './authenticated-app.js';

export function App({ config }: { config: RuntimeConfig }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <StrictMode>
      <ErrorBoundary>
        <QueryClientProvider client={queryClient}>
          <Authenticator.Provider>
            <AuthGate config={config}>
              <AuthenticatedApp />
            </AuthGate>
          </Authenticator.Provider>
        </QueryClientProvider>
        <Toasts />
      </ErrorBoundary>
    </StrictMode>
  );
}
