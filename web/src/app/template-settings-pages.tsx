import { SettingsNav } from '../features/settings/components/settings-nav.js';
import { TemplateFormPage } from '../features/templates/components/template-form-page.js';
import { TemplateListPage } from '../features/templates/components/template-list-page.js';
// The tab bar's styles live with the settings screens.
import '../features/settings/settings.css';

/** The templates screens sit under the settings tab bar; the app composes the two features. */
export function TemplateListSettingsPage() {
  return <TemplateListPage nav={<SettingsNav />} />;
}

export function TemplateFormSettingsPage() {
  return <TemplateFormPage nav={<SettingsNav />} />;
}
