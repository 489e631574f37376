import { DASHBOARD_WIDGETS, type DashboardWidgetId } from '../../../../shared/practice/dashboard-widgets.js';
import type { DashboardLayout } from '../../../../shared/practice/settings-schema.js';

export { DASHBOARD_WIDGETS, type DashboardLayout, type DashboardWidgetId };

export const DEFAULT_LAYOUT: DashboardLayout = { widgets: DASHBOARD_WIDGETS.map((id) => ({ id, visible: true })) };

const isKnown = (id: unknown): id is DashboardWidgetId => typeof id === 'string' && (DASHBOARD_WIDGETS as readonly string[]).includes(id);

/**
 * A saved layout as this release can show it: unknown widgets dropped, duplicates ignored, and
 * widgets added since the user last saved appended, visible.
 */
export function normalizeLayout(saved: unknown): DashboardLayout {
  const entries = Array.isArray((saved as DashboardLayout | null)?.widgets) ? (saved as DashboardLayout).widgets : [];
  const seen = new Set<DashboardWidgetId>();
  const widgets: DashboardLayout['widgets'] = [];
  for (const entry of entries) {
    if (!entry || !isKnown(entry.id) || seen.has(entry.id)) continue;
    seen.add(entry.id);
    widgets.push({ id: entry.id, visible: entry.visible !== false });
  }
  for (const id of DASHBOARD_WIDGETS) if (!seen.has(id)) widgets.push({ id, visible: true });
  return { widgets };
}

export function moveWidget(layout: DashboardLayout, id: DashboardWidgetId, by: -1 | 1): DashboardLayout {
  const widgets = [...layout.widgets];
  const from = widgets.findIndex((w) => w.id === id);
  const to = from + by;
  if (from < 0 || to < 0 || to >= widgets.length) return layout;
  [widgets[from], widgets[to]] = [widgets[to], widgets[from]];
  return { widgets };
}

export function setWidgetVisible(layout: DashboardLayout, id: DashboardWidgetId, visible: boolean): DashboardLayout {
  return { widgets: layout.widgets.map((w) => (w.id === id ? { ...w, visible } : w)) };
}
