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
    return prefetched ? new Promise(() => undefined) : Promise.resolve({ notes: [NOTE], total: 1 });
  },
}));

afterEach(() => {
  asked.length = 0;
  prefetched = false;
  sessionStorage.clear();
  document.body.innerHTML = '';
});

describe("a chart's notes asked for ahead", () => {
  it('are the page the panel shows with the filters this tab kept, in its first render, asked for once', async () => {
    storeChoices('all', 'SIGNED');
    const queryClient = createQueryClient();
    await prefetchNotesTimeline(queryClient, 'pat-1');
    prefetched = true;

    const host = document.createElement('div');
    document.body.append(host);
    const patient: Patient = {
      id: 'pat-1',
      firstName: 'Ana',
      lastName: 'Silva',
      dob: '1980-02-03',
      membershipStatus: 'active',
      status: 'active',
      createdAt: '2026-01-05T10:00:00.000Z',
      updatedAt: '2026-01-05T10:00:00.000Z',
    };
    await act(async () => {
      createRoot(host).render(
        <QueryClientProvider client={queryClient}>
          <MemoryRouter>
            <NoteWindowsProvider>
              <NotesTimelinePanel patient={patient} />
            </NoteWindowsProvider>
          </MemoryRouter>
        </QueryClientProvider>,
      );
      await new Promise((resolve) => setTimeout(resolve, 20));
    });

    expect(asked).toHaveLength(1);
    expect(JSON.parse(asked[0]!)).toMatchObject({ patientId: 'pat-1', offset: 0, statuses: 'SIGNED' });
    expect(host.querySelectorAll('.tw-spinner')).toHaveLength(0);
    expect(host.textContent).toContain('Referral letter received from cardiology');
  });
});
