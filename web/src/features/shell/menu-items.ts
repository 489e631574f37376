import type { ComponentType, SVGProps } from 'react';
import {
  CalendarIcon,
  CommunicationIcon,
  ContactsIcon,
  DashboardIcon,
  FilesIcon,
  FormsIcon,
  MedicationsIcon,
  PatientsIcon,
  ReportsIcon,
  SettingsIcon,
  TasksIcon,
} from '../../components/ui/icons.js';
import { paths } from '../../lib/paths.js';

export interface MenuItem {
  label: string;
  href: string;
  /** Path prefix that marks the item as current. */
  section: string;
  icon: ComponentType<SVGProps<SVGSVGElement>>;
  /** Which unread total the item shows as a badge (spec shell §2.2). */
  badge?: MenuBadge;
}

export type MenuBadge = 'communication' | 'tasks';
/** Unread totals composed by the app from the notification and task features. */
export type MenuBadgeCounts = Partial<Record<MenuBadge, number>>;

/** Spec shell §2.2, in the spec's order. */
export const MENU_ITEMS: readonly MenuItem[] = [
  { label: 'Dashboard', href: paths.home(), section: '/home', icon: DashboardIcon },
  { label: 'Patients', href: paths.patients(), section: '/patients', icon: PatientsIcon },
  { label: 'Calendar', href: paths.calendar(), section: '/calendar', icon: CalendarIcon },
  { label: 'Communication', href: paths.messages(), section: '/messages', icon: CommunicationIcon, badge: 'communication' },
  { label: 'Tasks', href: paths.tasks(), section: '/tasks', icon: TasksIcon, badge: 'tasks' },
  { label: 'Forms', href: paths.forms(), section: '/forms', icon: FormsIcon },
  { label: 'Contacts', href: paths.contacts(), section: '/contacts', icon: ContactsIcon },
  { label: 'Medications', href: paths.inventory(), section: '/inventory', icon: MedicationsIcon },
  { label: 'File Drive', href: paths.files(), section: '/files', icon: FilesIcon },
  { label: 'Reports', href: paths.reports(), section: '/reports', icon: ReportsIcon },
  { label: 'Settings', href: paths.settings(), section: '/new-settings', icon: SettingsIcon },
];

export function isCurrentSection(pathname: string, section: string): boolean {
  return pathname === section || pathname.startsWith(`${section}/`);
}

/** 'Edit Dashboard' is hidden anywhere except /home (spec shell §2.2). */
export function showsEditDashboard(pathname: string): boolean {
  return pathname === '/home';
}

/** Spec shell §2.2: badges show '9+' above 9; nothing for zero. */
export function badgeLabel(count: number): string | null {
  if (count <= 0) return null;
  return count > 9 ? '9+' : String(count);
}
