import { NavLink } from 'react-router-dom';
import { paths } from '../../../lib/paths.js';

const TABS = [
  { label: 'Practice', to: paths.practiceMetadata() },
  { label: 'Team', to: paths.team() },
  { label: 'Templates', to: paths.templates() },
  { label: 'Partner apps', to: paths.partnerApps() },
  { label: 'Charge items', to: paths.chargeItems() },
  { label: 'Calendar', to: paths.calendarSettings() },
  { label: 'Data export', to: paths.dataExport() },
  { label: 'Data import', to: paths.dataImport() },
];

export function SettingsNav() {
  return (
    <nav className="tw-settings__nav" aria-label="Settings">
      {TABS.map((tab) => (
        <NavLink key={tab.to} to={tab.to} className="tw-settings__tab" end={false}>
          {tab.label}
        </NavLink>
      ))}
    </nav>
  );
}
