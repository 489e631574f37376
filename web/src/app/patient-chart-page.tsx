import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { Suspense, useEffect, useMemo, type ReactNode } from 'react';
import { useParams } from 'react-router-dom';
import { PanelErrorBoundary } from '../components/error-views.js';
import { MountWhenReady } from '../components/mount-when-ready.js';
import { Spinner } from '../components/ui/spinner.js';
import { upcomingVisitsQuery } from '../features/calendar/api/calendar-api.js';
import { prefetchHealthSummary } from '../features/chart/api/health-summary-data.js';
import { prefetchNotesTimeline } from '../features/notes/components/timeline-filters.js';
import { PatientProfilePage } from '../features/patients/components/patient-profile-page.js';
import { shownAndPainted } from '../lib/shown-and-painted.js';
import { preloadableLazy } from '../lib/preloadable-lazy.js';
import { prefetchChartHeader } from './chart-header-data.js';

/** Loaded with the patient (`prefetchChartData`), so the header's next visit shows without suspending. */
const nextVisits = preloadableLazy(() => import('../features/calendar/components/next-visits.js').then((m) => m.NextVisits));
const NextVisits = nextVisits.Component;
const healthSummary = preloadableLazy(() => import('../features/chart/components/health-summary.js').then((m) => m.HealthSummary));
const chartTransfer = preloadableLazy(() => import('../features/fhir/chart-transfer-panel.js').then((m) => m.ChartTransferPanel));
const notesTimeline = preloadableLazy(() => import('../features/notes/components/notes-timeline-panel.js').then((m) => m.NotesTimelinePanel));
const HealthSummary = healthSummary.Component;
const ChartTransferPanel = chartTransfer.Component;
const NotesTimelinePanel = notesTimeline.Component;

/**
 * The panels' code, asked for once a first screen has settled (`preloadChartAfterFirstScreen`): a
 * chart opened afterwards renders its panels with its header, instead of 300 ms after their
 * loading spinners. A failed download is tried again when the panel renders.
 */
export function preloadChartPanels(): void {
  // Each in a task of its own: asking for a panel's code appends a preload link for each of its
  // chunks (55 for the health summary), together one task of over 100 ms on a phone.
  for (const panel of [healthSummary, notesTimeline, chartTransfer]) setTimeout(() => void panel.load().catch(() => undefined), 0);
}

/**
 * One chart panel: it loads on its own and fails on its own, under the patient's header. With
 * `ready` it mounts once its code and first data are in (`MountWhenReady`).
 */
function Panel({ label, ready, children }: { label: string; ready?: Promise<unknown>; children: ReactNode }) {
  const spinner = <Spinner label={`Loading ${label.toLowerCase()}`} />;
  return (
    <PanelErrorBoundary label={label}>
      <Suspense fallback={spinner}>
        {ready ? (
          <MountWhenReady ready={ready} fallback={spinner}>
            {children}
          </MountWhenReady>
        ) : (
          children
        )}
      </Suspense>
    </PanelErrorBoundary>
  );
}

/**
 * Starts each piece of `work` in a task of its own and settles (never rejects) once all of it
 * has: a failed download or answer is the panel's own to show. Asking for a panel's code adds a
 * preload link for each of its chunks, and each request its own fetch, tens of milliseconds on a
 * phone, which would otherwise lengthen the render that asks.
 */
const inTasksOfTheirOwn = (...work: (() => Promise<unknown>)[]): Promise<void> =>
  Promise.allSettled(work.map((start) => new Promise((resolve) => setTimeout(resolve, 0)).then(start))).then(() => undefined);

/** How long the panels wait for a header that never shows its next visits (their code failed). */
const HEADER_SHOWN_WAIT_MS = 1_000;

/**
 * The panels' code and first answers, asked for once the header shows its answers and the browser
 * has painted them: on a phone the panels, below the fold there, would otherwise share the
 * header's bandwidth, and their requests' tasks the main thread that renders it, and delay its
 * first screen. `headerShown` is called by the header once its next visits are on it.
 */
function panelsReady(queryClient: QueryClient, patientId: string) {
  const { shown: headerShown, painted } = shownAndPainted(prefetchChartHeader(queryClient, patientId), HEADER_SHOWN_WAIT_MS);
  const afterHeader = (...work: (() => Promise<unknown>)[]) => painted.then(() => inTasksOfTheirOwn(...work));
  return {
    headerShown,
    healthSummary: afterHeader(healthSummary.load, () => prefetchHealthSummary(queryClient, patientId)),
    notes: afterHeader(notesTimeline.load, () => prefetchNotesTimeline(queryClient, patientId)),
    chartTransfer: afterHeader(chartTransfer.load),
  };
}

/**
 * Rendered beside the next visits, in the same commit: says once they show their answer (or
 * their error). Reads the answer the header asked for; asks for nothing itself.
 */
function WhenVisitsShown({ patientId, onShown }: { patientId: string; onShown: () => void }) {
  const settled = !useQuery({ ...upcomingVisitsQuery(patientId), enabled: false }).isPending;
  useEffect(() => {
    if (settled) onShown();
  }, [settled, onShown]);
  return null;
}

/**
 * The patient chart: the profile header from the patients feature, with the panels of the
 * chart features (health summary, notes timeline, …) composed below it. Each feature adds its
 * panel here; features never import one another.
 */
export function PatientChartPage() {
  const { patientId = '' } = useParams();
  const queryClient = useQueryClient();
  useEffect(() => prefetchChartData(queryClient, patientId), [queryClient, patientId]);
  // Made once per patient: a promise made in each render would never let the panels mount.
  const ready = useMemo(() => panelsReady(queryClient, patientId), [queryClient, patientId]);
  return (
    <PatientProfilePage
      headerExtras={(patient) => (
        <PanelErrorBoundary label="Next visits">
          <Suspense fallback={null}>
            <NextVisits patientId={patient.id} />
            <WhenVisitsShown patientId={patient.id} onShown={ready.headerShown} />
          </Suspense>
        </PanelErrorBoundary>
      )}
      panels={(patient) => (
        <>
          <Panel label="Health summary" ready={ready.healthSummary}>
            <HealthSummary patientId={patient.id} />
          </Panel>
          <Panel label="Notes" ready={ready.notes}>
            <NotesTimelinePanel patient={patient} />
          </Panel>
          <Panel label="Record transfer" ready={ready.chartTransfer}>
            <ChartTransferPanel patientId={patient.id} />
          </Panel>
        </>
      )}
    />
  );
}

/**
 * Asks for the header's answers and the next visits' code as soon as the chart is known (landing
 * on it, while the shell still waits for the user and the practice; or opening it), rather than
 * once the patient has arrived.
 */
export function prefetchChartData(queryClient: QueryClient, patientId: string): void {
  if (!patientId) return;
  void prefetchChartHeader(queryClient, patientId);
  void nextVisits.load().catch(() => undefined);
}
