import { HealthSummary } from '../features/chart/components/health-summary.js';
import { NotesTimelinePanel } from '../features/notes/components/notes-timeline-panel.js';
import { PatientProfilePage } from '../features/patients/components/patient-profile-page.js';

/**
 * The patient chart: the profile header from the patients feature, with the panels of the
 * chart features (health summary, notes timeline, …) composed below it. Each feature adds its
 * panel here; features never import one another.
 */
export function PatientChartPage() {
  return <PatientProfilePage
      panels={(patient) => (
        <>
          <HealthSummary patientId={patient.id} />
          <NotesTimelinePanel patient={patient} />
        </>
      )}
    />;
}
