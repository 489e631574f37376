import { describe, expect, it } from 'vitest';
import type { PracticeUser } from '../../lib/practice.js';
import { assignableUsers, linkedNoteLabel } from './task-rules.js';

const user = (userId: string, firstName: string, lastName: string, userStatus = 'active') => ({ userId, firstName, lastName, userStatus }) as PracticeUser;

describe('assigned filter', () => {
  it('lists non-deleted users with names, sorted by last name (spec shell §2.9)', () => {
    const users = [
      user('u-1', 'Jordan', 'Ellis'),
      user('u-2', 'Alicia', 'Moreno'),
      user('u-3', 'Sam', 'Abbott', 'deleted'),
      user('u-4', '', ''),
      user('u-5', 'Priya', 'Banerjee', 'invited'),
    ];
    expect(assignableUsers(users)).toEqual([
      { id: 'u-5', label: 'Priya Banerjee' },
      { id: 'u-1', label: 'Jordan Ellis' },
      { id: 'u-2', label: 'Alicia Moreno' },
    ]);
  });
});

describe('linked notes', () => {
  it('read as the note type and its clinical date', () => {
    expect(linkedNoteLabel({ noteType: 'PHONE_CALL', eventTimestamp: '2026-03-02T15:30:00.000Z' })).toBe('Phone call · 03/02/2026');
    expect(linkedNoteLabel({ noteType: 'NOTE', eventTimestamp: '2025-12-31T09:00:00.000Z' })).toBe('Note · 12/31/2025');
  });
});
