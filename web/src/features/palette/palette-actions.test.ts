import { describe, expect, it } from 'vitest';
import { activeTemplates, activeUsers, calendarDate, matchesQuery, PALETTE_SECTIONS, paletteActions } from './palette-actions.js';

const today = new Date(2026, 0, 1, 9, 30);

describe('palette actions', () => {
  it('lists the calendar entries for the right days and views', () => {
    const hrefs = Object.fromEntries(
      paletteActions({ today, helpHref: 'https://help', hasInteractions: false }).map((a) => [
        a.label,
        a.command.kind === 'href' ? a.command.href : a.command.kind,
      ]),
    );
    expect(hrefs["Today's Calendar"]).toBe('/calendar?date=2026-01-01&view=day');
    expect(hrefs["Yesterday's Calendar"]).toBe('/calendar?date=2025-12-31&view=day');
    expect(hrefs["Next Week's Calendar"]).toBe('/calendar?date=2026-01-08&view=week');
    expect(hrefs['Create a new task']).toBe('/tasks/new');
    expect(hrefs['Practice User Management']).toBe('/new-settings/team');
    expect(hrefs.Back).toBe('back');
    expect(hrefs['Create a reminder']).toBe('/home?reminder=new');
  });

  it('makes the new task and reminder about the chart the palette was opened on', () => {
    const onChart = paletteActions({ today, helpHref: 'x', hasInteractions: false, patientId: 'pat-0002' });
    const href = (id: string) => onChart.find((a) => a.id === id)!.command;
    expect(href('new-task')).toEqual({ kind: 'href', href: '/tasks/new?patientId=pat-0002' });
    expect(href('new-reminder')).toEqual({ kind: 'href', href: '/home?reminder=new&patientId=pat-0002' });
    expect(
      matchesQuery(`${onChart.find((a) => a.id === 'new-reminder')!.label} ${onChart.find((a) => a.id === 'new-reminder')!.keywords ?? ''}`, 'remind'),
    ).toBe(true);
  });

  it('offers New Interaction only when a note type can be created', () => {
    const labels = (hasInteractions: boolean) => paletteActions({ today, helpHref: 'x', hasInteractions }).map((a) => a.label);
    expect(labels(false)).not.toContain('New Interaction');
    expect(labels(true)[0]).toBe('New Interaction');
  });

  it('puts the settings actions in the Settings section', () => {
    const settings = paletteActions({ today, helpHref: 'x', hasInteractions: false }).filter((a) => a.section === 'Settings');
    expect(settings.map((a) => a.label)).toEqual(['Practice Settings', 'Practice User Management', 'Practice Templates', 'Create new template']);
  });

  it('matches every typed word anywhere in the text', () => {
    expect(matchesQuery('Practice User Management team users', 'user prac')).toBe(true);
    expect(matchesQuery('View Tasks', 'sms')).toBe(false);
    expect(calendarDate(new Date(2024, 1, 28), 1)).toBe('2024-02-29');
  });
});

describe('palette lists', () => {
  it("names the spec's sections in the spec's order", () => {
    expect(PALETTE_SECTIONS).toEqual(['Navigation', 'Settings', 'Patients', 'Templates', 'Users']);
  });

  it('lists only active templates and active users', () => {
    const templates = [{ templateId: 't-1', status: 'active' }, { templateId: 't-2', status: 'inactive' }, { templateId: 't-3' }];
    expect(activeTemplates(templates).map((t) => t.templateId)).toEqual(['t-1', 't-3']);
    const users = [
      { userId: 'u-1', userStatus: 'active' },
      { userId: 'u-2', userStatus: 'invited' },
      { userId: 'u-3', userStatus: 'unconfirmed' },
      { userId: 'u-4', userStatus: 'deleted' },
    ];
    expect(activeUsers(users).map((u) => u.userId)).toEqual(['u-1']);
  });
});
