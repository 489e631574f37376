import { PracticeImportPage } from '../features/fhir/practice-import-page.js';
import { SettingsNav } from '../features/settings/components/settings-nav.js';
// The tab bar's styles live with the settings screens.
import '../features/settings/settings.css';

/** Settings > Data import: the FHIR feature's screen under the settings tab bar. */
export function DataImportSettingsPage() {
  return <PracticeImportPage nav={<SettingsNav />} />;
}
