// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { keepMainThreadBusy, watchTurnsBetweenTasks } from './turns-between-tasks.js';
import { useShownAnswer } from './use-shown-answer.js';

/** How long one row of a widget's list takes to render on a slow phone. */
const ROW_RENDER_MS = 15;
const ROWS = ['Call back Ada', 'Sign the lab note', 'Refill lisinopril', 'Review the fax', 'Book the follow-up', 'Send the form'];
let rowsRendered = 0;

function SlowRow({ text }: { text: string }) {
  keepMainThreadBusy(ROW_RENDER_MS);
  rowsRendered += 1;
  return <li>{text}</li>;
}

function TaskList({ ask }: { ask: () => Promise<string[]> }) {
  const tasks = useShownAnswer(useQuery({ queryKey: ['tasks'], queryFn: ask }));
  if (tasks.status === 'pending') return <p>Loading tasks</p>;
  if (tasks.status === 'error') return <p>Could not load tasks</p>;
  return (
    <ul>
      {tasks.data.map((text) => (
        <SlowRow key={text} text={text} />
      ))}
    </ul>
  );
}

function mount(ask: () => Promise<string[]>, client = new QueryClient({ defaultOptions: { queries: { retry: false } } })) {
  const host = document.createElement('div');
  document.body.append(host);
  const root = createRoot(host);
  root.render(
    <QueryClientProvider client={client}>
      <TaskList ask={ask} />
    </QueryClientProvider>,
  );
  unmounts.push(() => root.unmount());
  return host;
}

const unmounts: (() => void)[] = [];
afterEach(() => {
  unmounts.splice(0).forEach((unmount) => unmount());
  document.body.replaceChildren();
  rowsRendered = 0;
});

describe('useShownAnswer', () => {
  it('shows an answer that arrives after the list mounted in a render that gives the browser turns in between', async () => {
    let answer: (tasks: string[]) => void = () => undefined;
    const host = mount(() => new Promise((resolve) => (answer = resolve)));
    await vi.waitFor(() => expect(host.textContent).toBe('Loading tasks'));

    // What a paint or a tap would see of the list each time it gets a turn while the answer is shown.
    const turns = watchTurnsBetweenTasks(() => rowsRendered);
    answer(ROWS);
    await vi.waitFor(() => expect(host.querySelectorAll('li')).toHaveLength(ROWS.length), { timeout: 5_000 });
    const seenBetween = turns.stop();

    expect(host.textContent).toBe(ROWS.join(''));
    // Rendered in the answer's own blocking task, no turn would fall between the first row and the last.
    expect(seenBetween.filter((count) => count > 0 && count < ROWS.length)).not.toEqual([]);
  });

  it('shows an answer already in the cache in the first render, without a loading state', async () => {
    const client = new QueryClient();
    client.setQueryData(['tasks'], ROWS.slice(0, 2));
    const seen: string[] = [];
    const host = mount(() => new Promise(() => undefined), client);
    const observer = new MutationObserver(() => seen.push(host.textContent ?? ''));
    observer.observe(host, { childList: true, subtree: true, characterData: true });
    await vi.waitFor(() => expect(host.querySelectorAll('li')).toHaveLength(2));
    observer.disconnect();

    expect(seen).not.toContain('Loading tasks');
  });

  it('shows a refused answer as an error, not as loading', async () => {
    const host = mount(() => Promise.reject(new Error('network')));
    await vi.waitFor(() => expect(host.textContent).toBe('Could not load tasks'));
  });
});
