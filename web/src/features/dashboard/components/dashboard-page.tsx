import { lazy, Suspense, useDeferredValue } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Spinner } from '../../../components/ui/spinner.js';
import { displayUserName, useCurrentUser } from '../../../lib/practice.js';
import { useDashboardLayout } from '../api/dashboard-api.js';
import { DEFAULT_LAYOUT, type DashboardWidgetId } from '../dashboard-layout.js';
import '../dashboard.css';
import type { DashboardWidget } from './dashboard-widget.js';

/** The editor (?edit=1) and its form controls load only when the dashboard is edited. */
const DashboardEditor = lazy(() => import('./dashboard-editor.js').then((m) => ({ default: m.DashboardEditor })));

export type { DashboardWidget } from './dashboard-widget.js';

/**
 * /home (spec shell §2.7). The widgets come from the features that own their data, composed by
 * the app; this page owns their order, visibility and the 'Edit Dashboard' mode (?edit=1).
 */
export function DashboardPage({ widgets }: { widgets: Record<DashboardWidgetId, DashboardWidget> }) {
  const user = useCurrentUser();
  const [params] = useSearchParams();
  const editing = params.get('edit') === '1';
  const layout = useDashboardLayout();
  // The layout's answer re-renders this page at once (react-query's store updates are synchronous);
  // the widgets it mounts are the page's largest render, so they follow in a render React can
  // interrupt, letting the browser paint and handle input while six widgets mount on a phone.
  const layoutShown = useDeferredValue(!layout.isPending);

  return (
    <section className="tw-page" aria-labelledby="home-title">
      <div className="tw-page__header">
        <div>
          <h1 id="home-title" className="tw-page__title">
            Dashboard
          </h1>
          <p className="tw-page__subtitle">{user.data ? `Welcome back, ${displayUserName(user.data)}.` : 'Welcome back.'}</p>
        </div>
      </div>
      {layout.isPending || !layoutShown ? (
        <Spinner label="Loading your dashboard" />
      ) : editing ? (
        <Suspense fallback={<Spinner label="Loading the dashboard editor" />}>
          <DashboardEditor key={JSON.stringify(layout.data)} initial={layout.data ?? DEFAULT_LAYOUT} widgets={widgets} />
        </Suspense>
      ) : (
        <div className="tw-dashboard__grid">
          {(layout.data ?? DEFAULT_LAYOUT).widgets
            .filter((w) => w.visible)
            .map((w) => (
              <section key={w.id} className="tw-card tw-dashboard__widget" aria-labelledby={`widget-${w.id}`} data-widget={w.id}>
                <h2 id={`widget-${w.id}`} className="tw-dashboard__widget-title">
                  {widgets[w.id].title}
                </h2>
                <div className="tw-dashboard__widget-body">{widgets[w.id].render()}</div>
              </section>
            ))}
        </div>
      )}
    </section>
  );
}
