// @vitest-environment happy-dom
import { Route, Routes } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import type { ApiRequest } from '../lib/api-client.js';
import { renderInApp } from '../lib/render-in-app.js';

/** Each answer the workspace reads arrives when the test releases it. */
const ANSWERS: Record<string, unknown> = {
  '/v1/practices/metadata': { practiceId: 'prc_demo', practiceName: 'Tidewell Demo Clinic', productDeactivatedAt: null },
  '/v1/practices/users/me': { userId: 'usr_1', firstName: 'Daniel', lastName: 'Okafor', emailAddress: 'provider@demo.tidewell.local' },
  '/v1/notifications/unread-count': { count: 3, byType: { SMS: 2, FAX: 1 }, assignedToMe: 0 },
  '/v1/tasks': { total: 12 },
  '/v1/phone-calls/count': { count: 1 },
};
const release = new Map<string, () => void>();
const released = new Map(Object.keys(ANSWERS).map((path) => [path, new Promise<void>((resolve) => release.set(path, resolve))]));

vi.mock('../lib/api-client.js', () => ({
  apiRequest: async (request: ApiRequest) => {
    const gate = released.get(request.path);
    if (!gate) return new Promise(() => undefined);
    await gate;
    return ANSWERS[request.path];
  },
}));
vi.mock('../features/notifications/hooks/use-live-notifications.js', () => ({ useLiveNotifications: () => undefined }));

/** Renders of the side menu's and the top bar's own bodies, counted through an icon each draws once. */
const renders = { menu: 0, topBar: 0 };
vi.mock('../components/ui/icons.js', async (original) => {
  const icons = await original<typeof import('../components/ui/icons.js')>();
  return {
    ...icons,
    TidewellMark: (props: Parameters<typeof icons.TidewellMark>[0]) => {
      renders.menu += 1;
      return icons.TidewellMark(props);
    },
    LogoutIcon: (props: Parameters<typeof icons.LogoutIcon>[0]) => {
      renders.topBar += 1;
      return icons.LogoutIcon(props);
    },
  };
});

const { WorkspaceLayout } = await import('./workspace-layout.js');

function answer(path: string) {
  release.get(path)?.();
}

describe('the workspace', () => {
  it("shows each menu badge's count without rendering the side menu or the top bar again", async () => {
    const host = renderInApp(
      <Routes>
        <Route element={<WorkspaceLayout />}>
          <Route path="home" element={<h1>Dashboard</h1>} />
        </Route>
      </Routes>,
      '/home',
    );
    answer('/v1/practices/metadata');
    await vi.waitFor(() => expect(host.querySelector('[data-testid="practice-name"]')?.textContent).toBe('Tidewell Demo Clinic'));
    answer('/v1/practices/users/me');
    await vi.waitFor(() => expect(host.querySelector('.tw-topbar__user')?.textContent).toBe('Daniel Okafor'));
    const shown = { ...renders };

    answer('/v1/notifications/unread-count');
    await vi.waitFor(() => expect(host.querySelector('[data-testid="menu-badge-communication"]')?.textContent).toBe('3'));
    answer('/v1/phone-calls/count');
    await vi.waitFor(() => expect(host.querySelector('[data-testid="menu-badge-communication"]')?.textContent).toBe('4'));
    answer('/v1/tasks');
    await vi.waitFor(() => expect(host.querySelector('[data-testid="menu-badge-tasks"]')?.textContent).toBe('9+'));

    expect(host.querySelector('a[aria-label="Communication, 4 unread"]')).not.toBeNull();
    expect(host.querySelector('a[aria-label="Tasks, 9+ unread"]')).not.toBeNull();
    expect(renders).toEqual(shown);
  });
});
