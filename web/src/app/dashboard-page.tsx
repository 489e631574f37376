import { useQueryClient } from '@tanstack/react-query';
import { Suspense, useEffect } from 'react';
import { FirstScreenHold } from '../components/first-screen-hold.js';
import { Spinner } from '../components/ui/spinner.js';
import { useCurrentUser } from '../lib/practice.js';
import { preloadableLazy } from '../lib/preloadable-lazy.js';
import { DashboardPage } from '../features/dashboard/components/dashboard-page.js';
import { MyDraftsWidget, RemindersTodayWidget, UnreadMessagesWidget } from '../features/notifications/components/dashboard-widgets.js';
import { MyTasksWidget, myTasksWidgetQuery } from '../features/tasks/components/my-tasks-widget.js';

/** The day's appointments come with the calendar's code, loaded after the dashboard's first screen. */
const providersDay = preloadableLazy(() => import('../features/calendar/components/providers-day-widget.js').then((m) => m.ProvidersDayWidget));
/** Results to review concern the ordering providers only; their code follows the first screen too. */
const resultsReview = preloadableLazy(() => import('../features/results-review/components/results-review-widget.js').then((m) => m.ResultsReviewWidget));
const ProvidersDayWidget = providersDay.Component;
const ResultsReviewWidget = resultsReview.Component;

const WIDGETS = {
  'providers-day': {
    title: "Provider's Day",
    render: () => (
      <Suspense
        fallback={
          <>
            <Spinner label="Loading today's appointments" />
            <FirstScreenHold />
          </>
        }
      >
        <ProvidersDayWidget />
      </Suspense>
    ),
  },
  'my-open-tasks': { title: 'My Open Tasks', render: () => <MyTasksWidget /> },
  'unread-messages': { title: 'Unread Messages', render: () => <UnreadMessagesWidget /> },
  'my-drafts': { title: 'My Drafts', render: () => <MyDraftsWidget /> },
  'reminders-due-today': { title: 'Reminders Due Today', render: () => <RemindersTodayWidget /> },
  'results-to-review': {
    title: 'Results to Review',
    render: () => (
      <Suspense
        fallback={
          <>
            <Spinner label="Loading results to review" />
            <FirstScreenHold />
          </>
        }
      >
        <ResultsReviewWidget />
      </Suspense>
    ),
  },
};

/** /home: the dashboard layout from its feature, the widgets from the features that own the data. */
export function HomeDashboardPage() {
  const queryClient = useQueryClient();
  const me = useCurrentUser().data?.userId;
  // My Open Tasks is the dashboard's largest early text on a phone: its answer is asked for beside
  // the user's layout rather than once the layout has arrived and the widgets have mounted. In a
  // task of its own, like the widgets' code below: the answer's schema is code too.
  useEffect(() => {
    if (!me) return;
    const soon = setTimeout(() => void queryClient.prefetchQuery(myTasksWidgetQuery(me)), 0);
    return () => clearTimeout(soon);
  }, [queryClient, me]);
  // Once the page's title is up, while the user's layout is asked for: a widget whose code is in
  // when the layout arrives shows with its data, instead of 300 ms after a loading spinner. A
  // failed download is tried again when the widget renders. In a task of its own: when the title
  // comes in a synchronous render, React runs this effect in the same task, before the title has
  // been painted.
  useEffect(() => {
    const later = setTimeout(() => {
      void providersDay.load().catch(() => undefined);
      void resultsReview.load().catch(() => undefined);
    }, 0);
    return () => clearTimeout(later);
  }, []);
  return <DashboardPage widgets={WIDGETS} />;
}
