import { describe, expect, it } from 'vitest';
import { compareTasks, initialTaskStatus, isTaskReadOnly, Task, TaskCreateInput, TaskListQuery, taskFormToInput } from './task-schema.js';

const task = (ident: string, dueOn: string | null, createdAt = '2030-01-01T00:00:00.000Z'): Task => ({
  ident,
  status: 'UNREAD',
  dueOn,
  assigned: 'u',
  patientId: null,
  text: ident,
  urgent: false,
  noteDataLinks: [],
  createdAt,
  createdBy: 'u',
  lastUpdated: createdAt,
  lastUpdatedBy: 'u',
  completedAt: null,
});

describe('task rules', () => {
  it('creates read for the creator, unread for anyone else', () => {
    expect(initialTaskStatus('a', 'a')).toBe('READ');
    expect(initialTaskStatus('a', 'b')).toBe('UNREAD');
  });
  it('requires task text and a real due date', () => {
    expect(TaskCreateInput.safeParse({ text: '  ' }).error?.issues[0]?.message).toBe('Task text is required');
    expect(TaskCreateInput.safeParse({ text: 'x', dueOn: '2030-02-30' }).error?.issues[0]?.message).toBe('Due date is not valid');
  });
  it('reads statuses comma-joined or space-separated, only from the known list, page size 25', () => {
    expect(TaskListQuery.parse({ status: 'UNREAD,UPDATED' }).status).toEqual(['UNREAD', 'UPDATED']);
    expect(TaskListQuery.parse({ status: 'UNREAD UPDATED' }).status).toEqual(['UNREAD', 'UPDATED']);
    expect(TaskListQuery.safeParse({ status: 'OPEN' }).success).toBe(false);
    expect(TaskListQuery.parse({}).limit).toBe(25);
  });
  it('sorts undated tasks last in both orders and locks completed and deleted tasks', () => {
    const list = [task('none', null), task('late', '2030-05-01'), task('early', '2030-01-01')];
    expect([...list].sort(compareTasks('dueOn', 'asc')).map((t) => t.ident)).toEqual(['early', 'late', 'none']);
    expect([...list].sort(compareTasks('dueOn', 'desc')).map((t) => t.ident)).toEqual(['late', 'early', 'none']);
    expect(isTaskReadOnly({ status: 'COMPLETED' })).toBe(true);
    expect(isTaskReadOnly({ status: 'UPDATED' })).toBe(false);
  });
  it('maps the form fields to the API body', () => {
    expect(taskFormToInput({ patientId: '', assignTo: 'u2', dueDate: '2030-01-02', highPriority: true, task: 'Call' })).toEqual({
      text: 'Call',
      assigned: 'u2',
      dueOn: '2030-01-02',
      urgent: true,
      patientId: null,
    });
  });
});
