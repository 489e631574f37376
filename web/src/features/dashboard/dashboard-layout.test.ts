import { describe, expect, it } from 'vitest';
import { DEFAULT_LAYOUT, moveWidget, normalizeLayout, setWidgetVisible } from './dashboard-layout.js';

describe('dashboard layout', () => {
  it('keeps the saved order and visibility, drops unknown widgets and appends new ones', () => {
    const layout = normalizeLayout({
      widgets: [
        { id: 'reminders-due-today', visible: false },
        { id: 'retired-widget', visible: true },
        { id: 'my-open-tasks', visible: true },
        { id: 'my-open-tasks', visible: false },
      ],
    });
    expect(layout.widgets).toEqual([
      { id: 'reminders-due-today', visible: false },
      { id: 'my-open-tasks', visible: true },
      { id: 'providers-day', visible: true },
      { id: 'unread-messages', visible: true },
      { id: 'my-drafts', visible: true },
      { id: 'results-to-review', visible: true },
    ]);
  });

  it('falls back to every widget in the default order when nothing was saved', () => {
    expect(normalizeLayout(null)).toEqual(DEFAULT_LAYOUT);
  });

  it('moves a widget one place and stops at the ends', () => {
    const moved = moveWidget(DEFAULT_LAYOUT, 'my-drafts', -1);
    expect(moved.widgets.map((w) => w.id)).toEqual([
      'providers-day',
      'my-open-tasks',
      'my-drafts',
      'unread-messages',
      'reminders-due-today',
      'results-to-review',
    ]);
    expect(moveWidget(DEFAULT_LAYOUT, 'providers-day', -1)).toBe(DEFAULT_LAYOUT);
    expect(moveWidget(DEFAULT_LAYOUT, 'results-to-review', 1)).toBe(DEFAULT_LAYOUT);
    expect(setWidgetVisible(DEFAULT_LAYOUT, 'providers-day', false).widgets[0]).toEqual({ id: 'providers-day', visible: false });
  });
});
