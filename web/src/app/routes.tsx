import type { QueryClient } from '@tanstack/react-query';
import { lazy } from 'react';
import { Navigate, useLocation, type RouteObject } from 'react-router-dom';
import { GenericErrorView } from '../components/error-views.js';
import { afterFirstScreenSettles } from '../lib/after-first-screen.js';
import { chartPatientOf } from '../lib/chart-address.js';
import { landingScreenOf } from '../lib/landing-screen-code.js';
import { paths } from '../lib/paths.js';
import { preloadableLazy } from '../lib/preloadable-lazy.js';
import { RootLayout } from './root-layout.js';
import { WorkspaceLayout } from './workspace-layout.js';

const loadChart = () => import('./patient-chart-page.js');
/** Preloaded for a returning user landing on /home (`preloadScreenFor`): then it renders without suspending. */
const homePage = preloadableLazy(() => import('./dashboard-page.js').then((m) => m.HomeDashboardPage));
const HomePage = homePage.Component;
const PatientListPage = lazy(() => import('../features/patients/components/patient-list-page.js').then((m) => ({ default: m.PatientListPage })));
/** Preloaded for a returning user landing on a chart (`preloadScreenFor`): then it renders without suspending. */
const chartPage = preloadableLazy(() => loadChart().then((m) => m.PatientChartPage));
const PatientChartPage = chartPage.Component;
const AccessHistoryPage = lazy(() => import('../features/patients/components/access-history-page.js').then((m) => ({ default: m.AccessHistoryPage })));
const PatientFormPage = lazy(() => import('../features/patients/components/patient-form-page.js').then((m) => ({ default: m.PatientFormPage })));
const TaskListPage = lazy(() => import('../features/tasks/components/task-list-page.js').then((m) => ({ default: m.TaskListPage })));
const TaskPage = lazy(() => import('../features/tasks/components/task-page.js').then((m) => ({ default: m.TaskPage })));
const PracticeSettingsPage = lazy(() => import('../features/settings/components/practice-settings-page.js').then((m) => ({ default: m.PracticeSettingsPage })));
const TeamPage = lazy(() => import('../features/settings/components/team-page.js').then((m) => ({ default: m.TeamPage })));
const PartnerAppsPage = lazy(() => import('../features/settings/components/partner-apps-page.js').then((m) => ({ default: m.PartnerAppsPage })));
const ChargeItemsPage = lazy(() => import('../features/settings/components/charge-items-page.js').then((m) => ({ default: m.ChargeItemsPage })));
const TeamMemberPage = lazy(() => import('../features/settings/components/team-member-page.js').then((m) => ({ default: m.TeamMemberPage })));
const TemplateListSettingsPage = lazy(() => import('./template-settings-pages.js').then((m) => ({ default: m.TemplateListSettingsPage })));
const TemplateFormSettingsPage = lazy(() => import('./template-settings-pages.js').then((m) => ({ default: m.TemplateFormSettingsPage })));
const InventoryListPage = lazy(() => import('../features/inventory/components/inventory-list-page.js').then((m) => ({ default: m.InventoryListPage })));
const InventoryItemPage = lazy(() => import('../features/inventory/components/inventory-item-page.js').then((m) => ({ default: m.InventoryItemPage })));
const ComingSoonPage = lazy(() => import('../components/coming-soon-page.js').then((m) => ({ default: m.ComingSoonPage })));
const MessagesHubPage = lazy(() => import('../features/messages/components/messages-hub-page.js').then((m) => ({ default: m.MessagesHubPage })));
const SmsChatPage = lazy(() => import('../features/messages/components/sms-chat-page.js').then((m) => ({ default: m.SmsChatPage })));
const LegacySmsPage = lazy(() => import('../features/messages/components/legacy-sms-page.js').then((m) => ({ default: m.LegacySmsPage })));
const ScheduledNewPage = lazy(() => import('../features/messages/components/scheduled-new-page.js').then((m) => ({ default: m.ScheduledNewPage })));
const FaxNewPage = lazy(() => import('../features/messages/components/fax-pages.js').then((m) => ({ default: m.FaxNewPage })));
const CallListPage = lazy(() => import('../features/messages/components/call-pages.js').then((m) => ({ default: m.CallListPage })));
const CallNewPage = lazy(() => import('../features/messages/components/call-pages.js').then((m) => ({ default: m.CallNewPage })));
const FaxListPage = lazy(() => import('../features/messages/components/fax-pages.js').then((m) => ({ default: m.FaxListPage })));
const ScheduledEventPage = lazy(() => import('../features/messages/components/scheduled-event-page.js').then((m) => ({ default: m.ScheduledEventPage })));
const FileDrivePage = lazy(() => import('../features/files/components/file-drive-page.js').then((m) => ({ default: m.FileDrivePage })));
const CalendarPage = lazy(() => import('../features/calendar/components/calendar-page.js').then((m) => ({ default: m.CalendarPage })));
const DataExportSettingsPage = lazy(() => import('./data-export-settings-page.js').then((m) => ({ default: m.DataExportSettingsPage })));
const DataImportSettingsPage = lazy(() => import('./data-import-settings-page.js').then((m) => ({ default: m.DataImportSettingsPage })));
const CalendarSettingsPage = lazy(() => import('./calendar-settings-page.js').then((m) => ({ default: m.CalendarSettingsPage })));
const FormsPage = lazy(() => import('../features/forms/forms-page.js').then((m) => ({ default: m.FormsPage })));
const ContactListPage = lazy(() => import('../features/contacts/components/contacts-page.js').then((m) => ({ default: m.ContactListPage })));
const ContactPage = lazy(() => import('../features/contacts/components/contacts-page.js').then((m) => ({ default: m.ContactPage })));
const DialPadPage = lazy(() => import('../features/contacts/components/contacts-page.js').then((m) => ({ default: m.DialPadPage })));
const ResultsReviewRoute = lazy(() => import('./results-review-page.js').then((m) => ({ default: m.ResultsReviewRoute })));
const NoteResultPage = lazy(() => import('../features/note-result/components/note-result-page.js').then((m) => ({ default: m.NoteResultPage })));

/**
 * A returning user landing on a chart or on /home: the screen's code, already downloading beside
 * the app's (main.tsx, `preloadLandingScreenCode`), is run as soon as the app's own has, so the
 * router renders it at once rather than suspending on it. The chart's patient is asked for
 * alongside the session's first answers. Each saves a round trip before the screen can show on a
 * slow phone network.
 */
export function preloadScreenFor(hash: string): void {
  // A failed preload is retried by the route itself when it renders.
  const screen = landingScreenOf(hash);
  if (screen === 'chart') void chartPage.load().catch(() => undefined);
  if (screen === 'home') void homePage.load().catch(() => undefined);
}

/**
 * Opening a chart is a clinician's most common next step: its code, panels included, comes once
 * the first screen has settled, so a chart opened from it shows header and panels together rather
 * than its panels 300 ms after their loading spinners. Asked for with the patient instead (landing
 * on a chart, or on opening one), the panels' download and evaluation delayed the header itself.
 */
export function preloadChartAfterFirstScreen(): void {
  void afterFirstScreenSettles()
    .then(() => chartPage.load())
    .then(
      () => loadChart().then((m) => m.preloadChartPanels()),
      () => undefined,
    );
}

/**
 * Asks for the landing chart's header answers alongside the session's own first answers, without
 * waiting for the chart's code, and then for the next visits' code.
 */
export function prefetchScreenData(hash: string, queryClient: QueryClient): void {
  const patientId = chartPatientOf(hash);
  if (patientId === undefined) return;
  void import('./chart-header-data.js').then(
    (m) => m.prefetchChartHeader(queryClient, patientId),
    () => undefined,
  );
  void loadChart().then(
    (m) => m.prefetchChartData(queryClient, patientId),
    () => undefined,
  );
}

/** The calendar-provider callback: Google's answer (code, scope, state) goes on to Settings > Calendar, which finishes the link. */
function GoogleCallbackRedirect() {
  const { search } = useLocation();
  return <Navigate to={`${search ? paths.calendarSettings() : paths.home()}${search}`} replace />;
}

const soon = (screen: string, detail?: string) => <ComingSoonPage screen={screen} detail={detail} />;

/** Spec shell §2.1. Screens of later releases are placeholders that say so. */
export const appRoutes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <GenericErrorView />,
    children: [
      { path: 'note-result/:noteId', element: <NoteResultPage /> },
      {
        element: <WorkspaceLayout />,
        children: [
          {
            errorElement: <GenericErrorView />,
            children: [
              { index: true, element: <Navigate to={paths.home()} replace /> },
              { path: 'home', element: <HomePage /> },
              { path: 'google-callback', element: <GoogleCallbackRedirect /> },
              { path: 'patients', element: <PatientListPage /> },
              { path: 'patients/new', element: <PatientFormPage /> },
              { path: 'patients/:patientId', element: <PatientChartPage /> },
              { path: 'patients/:patientId/edit', element: <PatientFormPage /> },
              { path: 'patients/:patientId/access-history', element: <AccessHistoryPage /> },
              { path: 'patients/:patientId/*', element: <PatientChartPage /> },
              { path: 'inventory', element: <Navigate to={paths.inventory()} replace /> },
              { path: 'inventory/list', element: <InventoryListPage /> },
              { path: 'inventory/:inventoryId', element: <InventoryItemPage /> },
              { path: 'contacts', element: <Navigate to={paths.contacts()} replace /> },
              { path: 'contacts/list', element: <ContactListPage /> },
              { path: 'contacts/list/:contactId', element: <ContactPage /> },
              { path: 'contacts/dial-pad', element: <DialPadPage /> },
              { path: 'contacts/*', element: <Navigate to={paths.contacts()} replace /> },
              { path: 'messages', element: <MessagesHubPage /> },
              { path: 'messages/sms', element: <SmsChatPage key="new" /> },
              { path: 'messages/sms/:patientPhone/:practicePhone', element: <SmsChatPage /> },
              { path: 'messages/legacy/sms/:patientPhone/:practicePhone', element: <LegacySmsPage /> },
              { path: 'messages/scheduled/new', element: <ScheduledNewPage /> },
              { path: 'messages/fax', element: <FaxListPage /> },
              { path: 'messages/fax/new', element: <FaxNewPage /> },
              { path: 'messages/calls', element: <CallListPage /> },
              { path: 'messages/calls/new', element: <CallNewPage /> },
              { path: 'messages/scheduled/:eventId', element: <ScheduledEventPage /> },
              { path: 'messages/*', element: soon('Communication', 'Practice messages and faxes will open here.') },
              { path: 'forms/*', element: <FormsPage /> },
              { path: 'tasks', element: <TaskListPage view="mine" /> },
              { path: 'tasks/all', element: <TaskListPage view="all" /> },
              { path: 'tasks/:taskId', element: <TaskPage /> },
              { path: 'results-review', element: <ResultsReviewRoute /> },
              { path: 'results-review/:noteId', element: <ResultsReviewRoute /> },
              { path: 'files', element: <Navigate to={paths.files()} replace /> },
              { path: 'files/public/*', element: <FileDrivePage /> },
              { path: 'calendar', element: <CalendarPage /> },
              { path: 'new-settings', element: <Navigate to={paths.settings()} replace /> },
              { path: 'new-settings/practice-metadata', element: <PracticeSettingsPage /> },
              { path: 'new-settings/team', element: <TeamPage /> },
              { path: 'new-settings/team/:userId', element: <TeamMemberPage /> },
              { path: 'new-settings/templates', element: <TemplateListSettingsPage /> },
              { path: 'new-settings/partner-apps', element: <PartnerAppsPage /> },
              { path: 'new-settings/charge-items', element: <ChargeItemsPage /> },
              { path: 'new-settings/calendar', element: <CalendarSettingsPage /> },
              { path: 'new-settings/data-export', element: <DataExportSettingsPage /> },
              { path: 'new-settings/data-import', element: <DataImportSettingsPage /> },
              { path: 'new-settings/templates/new', element: <TemplateFormSettingsPage /> },
              { path: 'new-settings/templates/:templateId', element: <TemplateFormSettingsPage /> },
              { path: 'reports', element: soon('Reports') },
              { path: 'organizations', element: soon('Organizations', 'The practices you administer as a super user will be listed here.') },
              { path: '*', element: <Navigate to={paths.home()} replace /> },
            ],
          },
        ],
      },
    ],
  },
];
