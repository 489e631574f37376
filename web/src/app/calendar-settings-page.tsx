import { CalendarSettings } from '../features/calendar/components/calendar-settings.js';
import { SettingsNav } from '../features/settings/components/settings-nav.js';
import '../features/calendar/calendar.css';
// The tab bar's styles live with the settings screens.
import '../features/settings/settings.css';

/** The calendar's settings sit under the settings tab bar; the app composes the two features. */
export function CalendarSettingsPage() {
  return <CalendarSettings nav={<SettingsNav />} />;
}
