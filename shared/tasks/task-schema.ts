import * as z from '../zod.js';
import { isIsoDate } from '../rules/dates.js';

import { TASK_STATUSES, type TaskStatus } from './task-constants.js';

export { DEFAULT_TASK_LIST_STATUSES, TASK_BADGE_STATUSES, TASK_STATUSES, type TaskStatus } from './task-constants.js';
export const TASK_SORTS = ['createdAt', 'dueOn', 'lastUpdated', 'status', 'urgent', 'text'] as const;
export type TaskSort = (typeof TASK_SORTS)[number];

/** Spec shell §9: tasks page size 25, search debounce 500 ms. */
export const TASK_PAGE_SIZE = 25;
export const TASK_MAX_PAGE_SIZE = 100;
export const TASK_SEARCH_DEBOUNCE_MS = 500;
/** Not fixed by the spec: bounds so no request can store an unbounded value. */
export const TASK_TEXT_MAX = 2000;

export const TASK_MESSAGES = {
  textRequired: 'Task text is required',
  textTooLong: `Task text must be at most ${TASK_TEXT_MAX} characters`,
  dueDateInvalid: 'Due date is not valid',
  notFound: 'Task not found',
  loadFailed: 'There was a problem loading this task',
  completedReadOnly: 'This task is completed and can no longer be changed',
  deleted: 'This task has been deleted',
  changed: 'This task was changed by someone else. Reload it and try again.',
  assigneeUnknown: 'The assigned user is not a member of this practice',
} as const;

const id = z.string().check(z.trim(), z.minLength(1), z.maxLength(120));
const taskText = z
  .string({ error: TASK_MESSAGES.textRequired })
  .check(z.trim(), z.minLength(1, TASK_MESSAGES.textRequired), z.maxLength(TASK_TEXT_MAX, TASK_MESSAGES.textTooLong));
const dueOn = z.nullable(z.string().check(z.trim(), z.maxLength(40), z.refine(isIsoDate, TASK_MESSAGES.dueDateInvalid)));
const noteDataLinks = z.array(z.object({ interactionIdent: id })).check(z.maxLength(50));

export const Task = z.object({
  ident: z.string(),
  status: z.enum(TASK_STATUSES),
  /** Due date, YYYY-MM-DD. */
  dueOn: z.nullable(z.string()),
  assigned: z.string(),
  patientId: z.nullable(z.string()),
  text: z.string(),
  /** High priority. */
  urgent: z.boolean(),
  noteDataLinks: noteDataLinks,
  createdAt: z.string(),
  createdBy: z.string(),
  lastUpdated: z.string(),
  lastUpdatedBy: z.string(),
  completedAt: z.nullable(z.string()),
});
export type Task = z.infer<typeof Task>;

/** POST /v1/tasks. `assigned` defaults to the creator. */
export const TaskCreateInput = z.object({
  text: taskText,
  assigned: z.optional(id),
  dueOn: z.optional(dueOn),
  urgent: z.optional(z.boolean()),
  patientId: z.optional(z.nullable(id)),
  noteDataLinks: z.optional(noteDataLinks),
});
export type TaskCreateInput = z.infer<typeof TaskCreateInput>;

/**
 * PUT /v1/tasks/{ident}: the changed fields. `lastUpdated`, when sent, is the version the caller
 * saw; a task changed since is refused with 409.
 */
export const TaskUpdateInput = z.object({
  text: z.optional(taskText),
  assigned: z.optional(id),
  dueOn: z.optional(dueOn),
  urgent: z.optional(z.boolean()),
  patientId: z.optional(z.nullable(id)),
  noteDataLinks: z.optional(noteDataLinks),
  status: z.optional(z.enum(TASK_STATUSES, { error: `status must be one of ${TASK_STATUSES.join(', ')}` })),
  lastUpdated: z.optional(z.string()),
});
export type TaskUpdateInput = z.infer<typeof TaskUpdateInput>;

/** The task form of spec shell §3 (patientId, assignTo, dueDate, highPriority, task) to the API body. */
export interface TaskFormValues {
  patientId: string | null;
  assignTo: string;
  dueDate: string | null;
  highPriority: boolean;
  task: string;
}
export function taskFormToInput(form: TaskFormValues): TaskCreateInput {
  return { text: form.task, assigned: form.assignTo, dueOn: form.dueDate || null, urgent: form.highPriority, patientId: form.patientId || null };
}

/** Status filter: comma-joined (API) or space-separated (the screen's query string); only the known list. */
const statusList = z.pipe(
  z.pipe(
    z.string().check(z.maxLength(500)),
    z.transform((s) => s.split(/[\s,]+/).filter(Boolean)),
  ),
  z.array(z.enum(TASK_STATUSES, { error: `status must be among ${TASK_STATUSES.join(', ')}` })).check(z.minLength(1)),
);

export const TaskListQuery = z.object({
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(TASK_MAX_PAGE_SIZE)), TASK_PAGE_SIZE),
  offset: z._default(z.coerce.number().check(z.int(), z.gte(0)), 0),
  keyword: z.optional(z.string().check(z.trim(), z.maxLength(200))),
  sort: z._default(z.enum(TASK_SORTS), 'createdAt'),
  order: z._default(z.enum(['asc', 'desc']), 'desc'),
  status: z.optional(statusList),
  patientId: z.optional(id),
  /** A user id, or `me` for the caller. */
  assigned: z.optional(id),
  fromDueDate: z.optional(z.string().check(z.maxLength(40), z.refine(isIsoDate, 'fromDueDate must be YYYY-MM-DD'))),
  toDueDate: z.optional(z.string().check(z.maxLength(40), z.refine(isIsoDate, 'toDueDate must be YYYY-MM-DD'))),
});
export type TaskListQuery = z.infer<typeof TaskListQuery>;

export const TaskPage = z.object({
  tasks: z.array(Task),
  total: z.number().check(z.int()),
  limit: z.number().check(z.int()),
  offset: z.number().check(z.int()),
});
export type TaskPage = z.infer<typeof TaskPage>;

export const TaskIdentParams = z.object({ ident: id });
export const TaskIdParams = z.object({ id: id });

/** Completed and deleted tasks are read-only (spec shell §4). */
export const isTaskReadOnly = (task: Pick<Task, 'status'>) => task.status === 'COMPLETED' || task.status === 'DELETED';

/** Spec shell §4: a task is created read if assigned to the creator, otherwise unread. */
export const initialTaskStatus = (creator: string, assigned: string): TaskStatus => (creator === assigned ? 'READ' : 'UNREAD');

/** Case-insensitive match of the keyword against the task text. */
export function taskMatchesKeyword(task: Pick<Task, 'text'>, keyword: string | undefined): boolean {
  if (!keyword) return true;
  return task.text.toLowerCase().includes(keyword.toLowerCase());
}

export function compareTasks(sort: TaskSort, order: 'asc' | 'desc') {
  const dir = order === 'asc' ? 1 : -1;
  return (a: Task, b: Task): number => {
    const va = sort === 'urgent' ? Number(a.urgent) : (a[sort] ?? '');
    const vb = sort === 'urgent' ? Number(b.urgent) : (b[sort] ?? '');
    // Tasks without a due date sort after dated ones in either order.
    if (sort === 'dueOn' && (va === '') !== (vb === '')) return va === '' ? 1 : -1;
    const c = typeof va === 'number' && typeof vb === 'number' ? va - vb : String(va).localeCompare(String(vb));
    return c * dir || b.createdAt.localeCompare(a.createdAt) || a.ident.localeCompare(b.ident);
  };
}
