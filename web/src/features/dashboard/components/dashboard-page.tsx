import { useState, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Button } from '../../../components/ui/button.js';
import { Checkbox } from '../../../components/ui/checkbox.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { paths } from '../../../lib/paths.js';
import { displayUserName, useCurrentUser } from '../../../lib/practice.js';
import { showToast } from '../../../lib/toasts.js';
import { useDashboardLayout, useSaveDashboardLayout } from '../api/dashboard-api.js';
import { DEFAULT_LAYOUT, moveWidget, setWidgetVisible, type DashboardLayout, type DashboardWidgetId } from '../dashboard-layout.js';
import '../dashboard.css';

export interface DashboardWidget {
  title: string;
  render: () => ReactNode;
}

/**
 * /home (spec shell §2.7). The widgets come from the features that own their data, composed by
 * the app; this page owns their order, visibility and the 'Edit Dashboard' mode (?edit=1).
 */
export function DashboardPage({ widgets }: { widgets: Record<DashboardWidgetId, DashboardWidget> }) {
  const user = useCurrentUser();
  const [params] = useSearchParams();
  const editing = params.get('edit') === '1';
  const layout = useDashboardLayout();

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
      {layout.isPending ? (
        <Spinner label="Loading your dashboard" />
      ) : editing ? (
        <DashboardEditor key={JSON.stringify(layout.data)} initial={layout.data ?? DEFAULT_LAYOUT} widgets={widgets} />
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

function DashboardEditor({ initial, widgets }: { initial: DashboardLayout; widgets: Record<DashboardWidgetId, DashboardWidget> }) {
  const navigate = useNavigate();
  const save = useSaveDashboardLayout();
  const [layout, setLayout] = useState(initial);
  const last = layout.widgets.length - 1;

  const submit = async () => {
    try {
      await save.mutateAsync(layout);
      showToast('Dashboard saved', { tone: 'success' });
      void navigate(paths.home());
    } catch (error) {
      showToast(error instanceof Error ? error.message : 'The dashboard could not be saved', { tone: 'error' });
    }
  };

  return (
    <div className="tw-card tw-dashboard__editor">
      <h2 className="tw-dashboard__widget-title">Edit Dashboard</h2>
      <p className="tw-dashboard__hint">Choose the widgets you want and the order they appear in.</p>
      <ol className="tw-dashboard__edit-list" aria-label="Dashboard widgets">
        {layout.widgets.map((w, index) => (
          <li key={w.id} className="tw-dashboard__edit-item">
            <Checkbox label={widgets[w.id].title} isSelected={w.visible} onChange={(visible) => setLayout((l) => setWidgetVisible(l, w.id, visible))} />
            <span className="tw-dashboard__edit-moves">
              <Button size="sm" variant="quiet" aria-label={`Move ${widgets[w.id].title} up`} isDisabled={index === 0} onPress={() => setLayout((l) => moveWidget(l, w.id, -1))}>
                ↑
              </Button>
              <Button size="sm" variant="quiet" aria-label={`Move ${widgets[w.id].title} down`} isDisabled={index === last} onPress={() => setLayout((l) => moveWidget(l, w.id, 1))}>
                ↓
              </Button>
            </span>
          </li>
        ))}
      </ol>
      <div className="tw-dashboard__edit-actions">
        <Button variant="primary" onPress={() => void submit()} isPending={save.isPending}>
          Save Dashboard
        </Button>
        <Button variant="quiet" onPress={() => void navigate(paths.home())}>
          Cancel
        </Button>
      </div>
    </div>
  );
}
