// @vitest-environment happy-dom
import { Route, Routes } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import type { ApiRequest } from '../../../lib/api-client.js';
import { renderInApp } from '../../../lib/render-in-app.js';
import { keepMainThreadBusy, watchTurnsBetweenTasks } from '../../../lib/turns-between-tasks.js';

/** The practice answers when the test opens the gate; the user's record never does (a slow answer). */
let openGate: () => void = () => undefined;
const gate = new Promise<void>((resolve) => (openGate = resolve));
vi.mock('../../../lib/api-client.js', () => ({
  apiRequest: async (request: ApiRequest) => {
    if (request.path !== '/v1/practices/metadata') return new Promise(() => undefined);
    await gate;
    return { practiceId: 'prc_demo', practiceName: 'Tidewell Demo Clinic', productDeactivatedAt: null };
  },
}));

const { AppLayout } = await import('./app-layout.js');

/** How long one part of the first screen takes to render on a slow phone. */
const PART_RENDER_MS = 30;
const PARTS = ['title', 'tasks', 'messages', 'drafts', 'reminders'];
const rendered = new Set<string>();

function SlowPart({ id }: { id: string }) {
  keepMainThreadBusy(PART_RENDER_MS);
  rendered.add(id);
  return <p>{id}</p>;
}

describe('the shell', () => {
  it("renders its first screen in a render that gives the browser turns in between, once the practice's answer is in", async () => {
    const host = renderInApp(
      <Routes>
        <Route element={<AppLayout />}>
          <Route
            index
            element={
              <section>
                {PARTS.map((id) => (
                  <SlowPart key={id} id={id} />
                ))}
              </section>
            }
          />
        </Route>
      </Routes>,
    );
    await vi.waitFor(() => expect(host.textContent).toContain('Loading your practice'));

    // What the browser's other tasks (a paint, a tap) would see of the screen each time they get a turn.
    const turns = watchTurnsBetweenTasks(() => rendered.size);
    openGate();
    await vi.waitFor(() => expect(rendered.size).toBe(PARTS.length), { timeout: 5_000 });
    await vi.waitFor(() => expect(host.querySelector('[data-testid="practice-name"]')?.textContent).toBe('Tidewell Demo Clinic'));
    const seenBetween = turns.stop();

    // Rendered in one task, no turn would fall between the screen's first part and its last.
    expect(seenBetween.filter((count) => count > 0 && count < PARTS.length)).not.toEqual([]);
    expect(host.textContent).not.toContain('Loading your practice');
  });
});
