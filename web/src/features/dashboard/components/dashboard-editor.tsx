import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button } from '../../../components/ui/button.js';
import { Checkbox } from '../../../components/ui/checkbox.js';
import { paths } from '../../../lib/paths.js';
import { showToast } from '../../../lib/toasts.js';
import { useSaveDashboardLayout } from '../api/save-dashboard-api.js';
import { moveWidget, setWidgetVisible, type DashboardLayout, type DashboardWidgetId } from '../dashboard-layout.js';
import type { DashboardWidget } from './dashboard-widget.js';

/** 'Edit Dashboard' (spec shell §2.7): which widgets show, and in which order. */
export function DashboardEditor({ initial, widgets }: { initial: DashboardLayout; widgets: Record<DashboardWidgetId, DashboardWidget> }) {
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
              <Button
                size="sm"
                variant="quiet"
                aria-label={`Move ${widgets[w.id].title} up`}
                isDisabled={index === 0}
                onPress={() => setLayout((l) => moveWidget(l, w.id, -1))}
              >
                ↑
              </Button>
              <Button
                size="sm"
                variant="quiet"
                aria-label={`Move ${widgets[w.id].title} down`}
                isDisabled={index === last}
                onPress={() => setLayout((l) => moveWidget(l, w.id, 1))}
              >
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
