import { describe, expect, it } from 'vitest';
import { badgeLabel, isCurrentSection, MENU_ITEMS, showsEditDashboard } from './menu-items.js';
import { SIDEBAR } from './sidebar-constants.js';

describe('side menu', () => {
  it("lists the spec's items in the spec's order", () => {
    expect(MENU_ITEMS.map((item) => item.label)).toEqual([
      'Dashboard',
      'Patients',
      'Calendar',
      'Communication',
      'Tasks',
      'Forms',
      'Contacts',
      'Medications',
      'File Drive',
      'Reports',
      'Settings',
    ]);
  });

  it('uses the spec widths and timings', () => {
    expect(SIDEBAR).toEqual({ miniWidth: 60, expandedWidth: 270, hoverDelayMs: 300, animationMs: 300 });
  });

  it("shows 'Edit Dashboard' only on /home", () => {
    expect(showsEditDashboard('/home')).toBe(true);
    expect(showsEditDashboard('/patients')).toBe(false);
    expect(showsEditDashboard('/home/extra')).toBe(false);
  });

  it('marks the section of nested routes as current', () => {
    expect(isCurrentSection('/patients/pat-1/edit', '/patients')).toBe(true);
    expect(isCurrentSection('/patientsx', '/patients')).toBe(false);
  });

  it("caps badges at '9+' and hides zero", () => {
    expect(badgeLabel(0)).toBeNull();
    expect(badgeLabel(9)).toBe('9');
    expect(badgeLabel(10)).toBe('9+');
  });
});
