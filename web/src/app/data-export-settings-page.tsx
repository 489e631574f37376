import { PracticeExportPage } from '../features/fhir/practice-export-page.js';
import { SettingsNav } from '../features/settings/components/settings-nav.js';
// The tab bar's styles live with the settings screens.
import '../features/settings/settings.css';

/** Settings > Data export: the FHIR feature's screen under the settings tab bar. */
export function DataExportSettingsPage() {
  return <PracticeExportPage nav={<SettingsNav />} />;
}
