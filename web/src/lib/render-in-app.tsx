import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { MemoryRouter } from 'react-router-dom';

/**
 * For render tests: mounts `ui` in a new element of the page with its own query client (no
 * retries, so a refused answer shows at once) and an in-memory router at `path`.
 */
export function renderInApp(ui: ReactNode, path = '/'): HTMLElement {
  const host = document.createElement('div');
  document.body.append(host);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  createRoot(host).render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
    </QueryClientProvider>,
  );
  return host;
}
