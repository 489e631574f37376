// @vitest-environment happy-dom
import { QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiRequest } from '../../../lib/api-client.js';
import { createQueryClient } from '../../../lib/query-client.js';
import { prefetchHealthSummary } from '../api/health-summary-data.js';
import { HealthSummary } from './health-summary.js';

// React's act() is what lets the test see the first render settle; it warns without this flag.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** Every path asked for, in order; answers after `prefetched` never come, as if still on their way. */
const asked: string[] = [];
let prefetched = false;
const ALLERGY = { ident: 'alg-1', patientId: 'pat-1', name: 'Penicillin', version: 1 };

vi.mock('../../../lib/api-client.js', () => ({
  apiRequest: (request: ApiRequest) => {
    asked.push(request.path);
    if (prefetched) return new Promise(() => undefined);
    if (request.path === '/v1/practices/feature-gates') return Promise.resolve({ flags: {} });
    if (request.path.endsWith('/allergies')) return Promise.resolve({ items: [ALLERGY] });
    return Promise.resolve({ items: [] });
  },
}));

afterEach(() => {
  asked.length = 0;
  prefetched = false;
  document.body.innerHTML = '';
});

describe('the health summary of a chart opened with its data asked for ahead', () => {
  it('shows every card with its items in its first render and asks for nothing more', async () => {
    const queryClient = createQueryClient();
    await prefetchHealthSummary(queryClient, 'pat-1');
    const before = [...asked];
    prefetched = true;

    const host = document.createElement('div');
    document.body.append(host);
    const router = createMemoryRouter([{ path: '/', element: <HealthSummary patientId="pat-1" /> }]);
    await act(async () => {
      createRoot(host).render(
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>,
      );
      await new Promise((resolve) => setTimeout(resolve, 20));
    });

    // Each list once, all of them before the summary mounted.
    expect(new Set(before).size).toBe(before.length);
    expect(asked.slice(before.length)).toEqual([]);
    expect(host.querySelectorAll('.tw-spinner')).toHaveLength(0);
    expect(host.textContent).toContain('Penicillin');
    expect(host.querySelectorAll('.tw-chart__grid > *').length).toBeGreaterThanOrEqual(8);
  });
});
