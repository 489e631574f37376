import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { Suspense, useEffect, type ReactNode } from 'react';
import { useParams } from 'react-router-dom';
import { PanelErrorBoundary } from '../components/error-views.js';
import { Spinner } from '../components/ui/spinner.js';
import { PatientProfilePage } from '../features/patients/components/patient-profile-page.js';
import { patientQuery } from '../lib/patients.js';
import { preloadableLazy } from '../lib/preloadable-lazy.js';

const loadNextVisits = () => import('../features/calendar/components/next-visits.js');
/** Loaded with the patient (`prefetchChartData`), so the header's next visit shows without suspending. */
const nextVisits = preloadableLazy(() => loadNextVisits().then((m) => m.NextVisits));
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
  for (const panel of [healthSummary, notesTimeline, chartTransfer]) void panel.load().catch(() => undefined);
}

/** One chart panel: it loads on its own and fails on its own, under the patient's header. */
function Panel({ label, children }: { label: string; children: ReactNode }) {
  return (
    <PanelErrorBoundary label={label}>
      <Suspense fallback={<Spinner label={`Loading ${label.toLowerCase()}`} />}>{children}</Suspense>
    </PanelErrorBoundary>
  );
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
  return (
    <PatientProfilePage
      headerExtras={(patient) => (
        <PanelErrorBoundary label="Next visits">
          <Suspense fallback={null}>
            <NextVisits patientId={patient.id} />
          </Suspense>
        </PanelErrorBoundary>
      )}
      panels={(patient) => (
        <>
          <Panel label="Health summary">
            <HealthSummary patientId={patient.id} />
          </Panel>
          <Panel label="Notes">
            <NotesTimelinePanel patient={patient} />
          </Panel>
          <Panel label="Record transfer">
            <ChartTransferPanel patientId={patient.id} />
          </Panel>
        </>
      )}
    />
  );
}

/**
 * Asks for the patient, and for the header's next visits with their code, as soon as the chart is
 * known (landing on it, while the shell still waits for the user and the practice; or opening it),
 * rather than once the patient has arrived: on a phone the next visits are the header's largest
 * text, the last of its first screen to paint.
 */
export function prefetchChartData(queryClient: QueryClient, patientId: string): void {
  if (!patientId) return;
  void queryClient.prefetchQuery(patientQuery(patientId));
  void nextVisits.load().catch(() => undefined);
  void loadNextVisits().then(
    (m) => m.prefetchNextVisits(queryClient, patientId),
    () => undefined,
  );
}
