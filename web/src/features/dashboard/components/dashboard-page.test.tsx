// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import type { ApiRequest } from '../../../lib/api-client.js';
import { ApiError } from '../../../lib/api-error.js';
import { DASHBOARD_WIDGETS, type DashboardWidgetId } from '../dashboard-layout.js';
import type { DashboardWidget } from './dashboard-widget.js';
import { renderInApp } from '../../../lib/render-in-app.js';
import { keepMainThreadBusy, watchTurnsBetweenTasks } from '../../../lib/turns-between-tasks.js';

/** The saved layout answers when the test opens the gate (a user who never saved one: 404). */
let openGate: () => void = () => undefined;
const gate = new Promise<void>((resolve) => (openGate = resolve));
vi.mock('../../../lib/api-client.js', () => ({
  apiRequest: async (request: ApiRequest) => {
    if (request.path !== '/v1/practices/users/me/dashboard') return new Promise(() => undefined);
    await gate;
    throw new ApiError(404, 'No saved layout');
  },
}));

const { DashboardPage } = await import('./dashboard-page.js');

/** How long one widget takes to render on a slow phone. */
const WIDGET_RENDER_MS = 30;
const rendered = new Set<DashboardWidgetId>();

function SlowWidget({ id }: { id: DashboardWidgetId }) {
  keepMainThreadBusy(WIDGET_RENDER_MS);
  rendered.add(id);
  return <p>{id}</p>;
}

const widgets = Object.fromEntries(DASHBOARD_WIDGETS.map((id) => [id, { title: id, render: () => <SlowWidget id={id} /> }])) as Record<
  DashboardWidgetId,
  DashboardWidget
>;

describe('the dashboard grid', () => {
  it("mounts its widgets in a render that gives the browser turns in between, once the layout's answer is in", async () => {
    const host = renderInApp(<DashboardPage widgets={widgets} />);
    await vi.waitFor(() => expect(host.textContent).toContain('Loading your dashboard'));

    // What the browser's other tasks (a paint, a tap) would see of the widgets each time they get a turn.
    const turns = watchTurnsBetweenTasks(() => rendered.size);
    openGate();
    await vi.waitFor(() => expect(host.querySelectorAll('[data-widget]')).toHaveLength(DASHBOARD_WIDGETS.length), { timeout: 5_000 });
    const seenBetween = turns.stop();

    expect([...rendered]).toEqual([...DASHBOARD_WIDGETS]);
    // Rendered in one task, no turn would fall between the first widget and the last.
    expect(seenBetween.filter((count) => count > 0 && count < DASHBOARD_WIDGETS.length)).not.toEqual([]);
    expect(host.textContent).not.toContain('Loading your dashboard');
  });
});
