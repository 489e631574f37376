import { describe, expect, it } from 'vitest';
import { can, PERMISSIONS } from './permissions.js';

const admin = { role: 'admin' as const, userId: 'a' };
const provider = { role: 'provider' as const, userId: 'p' };
const staff = { role: 'employee' as const, userId: 'e' };

describe('permissions table', () => {
  it('keeps practice settings and access history to admins', () => {
    expect(can(admin, 'practice.settings.change')).toBe(true);
    expect(can(provider, 'practice.settings.change')).toBe(false);
    expect(can(staff, 'patient.accessHistory.read')).toBe(false);
    expect(can(provider, 'patient.archive')).toBe(true);
    expect(can(staff, 'patient.archive')).toBe(false);
  });

  it('lets only the author, the prescriber on whose behalf, or an admin change or delete a signed note', () => {
    const note = { authorUserId: 'p', onBehalfOf: 'q' };
    expect(can(provider, 'note.signed.change', note)).toBe(true);
    expect(can({ role: 'provider', userId: 'q' }, 'note.signed.delete', note)).toBe(true);
    expect(can(admin, 'note.signed.delete', note)).toBe(true);
    expect(can(staff, 'note.signed.change', note)).toBe(false);
    expect(can(staff, 'note.signed.delete', note)).toBe(false);
  });

  it('gives a reminder to its assignee only, admins included', () => {
    expect(can(staff, 'reminder.manage', { assigned: 'e' })).toBe(true);
    expect(can(admin, 'reminder.manage', { assigned: 'e' })).toBe(false);
    expect(PERMISSIONS['reminder.manage'].refusal).toBe(404);
  });

  it('refuses no_access and a missing user everything', () => {
    expect(can({ role: 'no_access', userId: 'x' }, 'note.sign')).toBe(false);
    expect(can(null, 'chart.edit')).toBe(false);
  });
});
