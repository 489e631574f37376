// @vitest-environment happy-dom
import { QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Patient } from '../../../../../shared/patients/patient-schema.js';
import type { ApiRequest } from '../../../lib/api-client.js';
import { createQueryClient } from '../../../lib/query-client.js';
import { NoteWindowsProvider } from '../windows/note-windows-context.js';
import { NotesTimelinePanel } from './notes-timeline-panel.js';
import { prefetchNotesTimeline, storeChoices } from './timeline-filters.js';

// React's act() is what lets the test see the first render settle; it warns without this flag.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** The notes pages asked for (with their filters); answers after `prefetched` never come. */
const asked: string[] = [];
let prefetched = false;
/** The server's answer to a page: one note, all there is, unless a test says otherwise. */
let answer: (query: { offset: number }) => unknown = (query) => ({ notes: [NOTE], hasMore: false, total: 1, offset: query.offset, limit: 50 });
const NOTE = {
  noteId: 'note-1',
  patientId: 'pat-1',
  noteType: 'FAX',
  status: 'SIGNED',
  eventTimestamp: '2026-11-30T15:00:00.000Z',
  author: { name: 'Priya Raman' },
  data: { text: 'Referral letter received from cardiology' },
};

vi.mock('../../../lib/api-client.js', () => ({
  apiRequest: (request: ApiRequest) => {
    if (request.path !== '/v2/notes') return new Promise(() => undefined);
    asked.push(JSON.stringify(request.query));
    return prefetched ? new Promise(() => undefined) : Promise.resolve(answer(request.query as { offset: number }));
  },
}));

const PATIENT: Patient = {
  id: 'pat-1',
  firstName: 'Ana',
  lastName: 'Silva',
  dob: '1980-02-03',
  membershipStatus: 'active',
  status: 'active',
  createdAt: '2026-01-05T10:00:00.000Z',
  updatedAt: '2026-01-05T10:00:00.000Z',
};

async function renderPanel(queryClient = createQueryClient()): Promise<HTMLElement> {
  const host = document.createElement('div');
  document.body.append(host);
  await act(async () => {
    createRoot(host).render(
      <QueryClientProvider client={queryClient}>
        <MemoryRouter>
          <NoteWindowsProvider>
            <NotesTimelinePanel patient={PATIENT} />
          </NoteWindowsProvider>
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
  });
  return host;
}

const oneNote = answer;

/** Lets React and the query settle, a few milliseconds at a time, until `done` holds (or 2 s have passed). */
async function until(done: () => boolean): Promise<void> {
  for (let waited = 0; !done() && waited < 2_000; waited += 20) {
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
  }
}

afterEach(() => {
  asked.length = 0;
  prefetched = false;
  answer = oneNote;
  sessionStorage.clear();
  document.body.innerHTML = '';
});

describe("a chart's notes asked for ahead", () => {
  it('are the page the panel shows with the filters this tab kept, in its first render, asked for once', async () => {
    storeChoices('all', 'SIGNED');
    const queryClient = createQueryClient();
    await prefetchNotesTimeline(queryClient, 'pat-1');
    prefetched = true;

    const host = await renderPanel(queryClient);

    expect(asked).toHaveLength(1);
    expect(JSON.parse(asked[0]!)).toMatchObject({ patientId: 'pat-1', offset: 0, statuses: 'SIGNED' });
    expect(host.querySelectorAll('.tw-spinner')).toHaveLength(0);
    expect(host.textContent).toContain('Referral letter received from cardiology');
  });
});

describe("a chart's notes in pages", () => {
  it('shows the range of the page, pages on while more follow, and the total once the last page is read', async () => {
    const notes = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) => ({ ...NOTE, noteId: `note-${from + i}`, data: { text: `Visit ${from + i}` } }));
    answer = (query) =>
      query.offset === 0
        ? { notes: notes(1, 50), hasMore: true, offset: 0, limit: 50 }
        : { notes: notes(51, 3), hasMore: false, total: 53, offset: 50, limit: 50 };
    const host = await renderPanel();
    const pager = () => host.querySelector('.tw-notes-panel__pager');
    await until(() => pager() !== null);
    const next = () => [...host.querySelectorAll('button')].find((b) => b.textContent === 'Next')!;
    expect(pager()?.textContent).toContain('1–50');
    expect(pager()?.textContent).not.toContain(' of ');
    expect(next().disabled).toBe(false);

    await act(async () => next().click());
    await until(() => pager()?.textContent?.includes(' of ') ?? false);
    expect(JSON.parse(asked.at(-1)!)).toMatchObject({ offset: 50 });
    expect(pager()?.textContent).toContain('51–53 of 53');
    expect(host.textContent).toContain('Visit 53');
    expect(next().disabled).toBe(true);
  });
});
