import type { PracticeUser } from '../../lib/practice.js';
import { isoToUsDate } from '../../../../shared/rules/dates.js';
import type { LinkedNote, Task } from './task-model.js';

const LABELS: Record<string, string> = { UNREAD: 'Unread', UPDATED: 'Updated', READ: 'Read', COMPLETED: 'Completed', DELETED: 'Deleted' };

export function statusLabel(status: string): string {
  return LABELS[status] ?? status;
}

export function statusTone(status: Task['status']): 'info' | 'warning' | 'neutral' | 'danger' {
  if (status === 'UNREAD') return 'info';
  if (status === 'UPDATED') return 'warning';
  if (status === 'DELETED') return 'danger';
  return 'neutral';
}

/** Spec shell §2.9: the assigned filter lists non-deleted users with names, sorted by last name. */
export function assignableUsers(users: readonly PracticeUser[]): { id: string; label: string }[] {
  return users
    .filter((u) => u.userStatus !== 'deleted' && (u.firstName || u.lastName))
    .sort((a, b) => a.lastName.localeCompare(b.lastName) || a.firstName.localeCompare(b.firstName))
    .map((u) => ({ id: u.userId, label: `${u.firstName} ${u.lastName}`.trim() }));
}

/** A linked note as the task screen lists it: its type and clinical date, e.g. 'Phone call · 03/02/2026'. */
export function linkedNoteLabel(note: Pick<LinkedNote, 'noteType' | 'eventTimestamp'>): string {
  const type = note.noteType.charAt(0) + note.noteType.slice(1).toLowerCase().replace(/_/g, ' ');
  return `${type} · ${isoToUsDate(note.eventTimestamp.slice(0, 10))}`;
}
