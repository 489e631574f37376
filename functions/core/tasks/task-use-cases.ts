import { randomUUID } from 'node:crypto';
import {
  compareTasks,
  DEFAULT_TASK_LIST_STATUSES,
  initialTaskStatus,
  isTaskReadOnly,
  TASK_MESSAGES,
  taskMatchesKeyword,
  type Task,
  type TaskCreateInput,
  type TaskListQuery,
  type TaskPage,
  type TaskStatus,
  type TaskUpdateInput,
} from '../../../shared/tasks/task-schema.js';
import { writeAudit, writeAuditForPatients } from '../../lib/audit/audit-repository.js';
import type { AuthContext } from '../../lib/auth/auth-context.js';
import { ConflictError, NotFoundError, ValidationError } from '../../lib/errors.js';
import { getUser } from '../../data/users/user-repository.js';
import { syncTaskNotification } from './task-notification.js';
import { getTask, putNewTask, queryTasks, replaceTask } from '../../data/tasks/task-repository.js';

async function assertAssignable(auth: AuthContext, userId: string): Promise<void> {
  if (userId === auth.userId) return;
  const user = await getUser(auth.practiceId, userId);
  if (!user || user.userStatus === 'deleted') throw new ValidationError(TASK_MESSAGES.assigneeUnknown, { assigned: TASK_MESSAGES.assigneeUnknown });
}

const audited = (auth: AuthContext, action: 'create' | 'update' | 'read', task: Task) =>
  writeAudit(auth, { action, entity: 'task', entityId: task.ident, ...(task.patientId ? { patientId: task.patientId } : {}) });

/**
 * `ident` is given by a job that must make its task once however often it runs (a second put of the
 * same ident is a 409 ConflictError, and nothing is notified or audited again).
 */
export async function createTask(auth: AuthContext, input: TaskCreateInput, now = new Date(), ident: string = randomUUID()): Promise<Task> {
  const assigned = input.assigned ?? auth.userId;
  await assertAssignable(auth, assigned);
  const at = now.toISOString();
  const task: Task = {
    ident,
    status: initialTaskStatus(auth.userId, assigned),
    dueOn: input.dueOn ?? null,
    assigned,
    patientId: input.patientId ?? null,
    text: input.text,
    urgent: input.urgent ?? false,
    noteDataLinks: input.noteDataLinks ?? [],
    createdAt: at,
    createdBy: auth.userId,
    lastUpdated: at,
    lastUpdatedBy: auth.userId,
    completedAt: null,
  };
  await putNewTask(auth.practiceId, task);
  await syncTaskNotification(auth, task);
  await audited(auth, 'create', task);
  return task;
}

/**
 * The status after a change (spec shell §4): an explicit status wins; a task handed to someone
 * else becomes UNREAD for them; a change by anyone but the assignee marks it UPDATED.
 */
function nextStatus(auth: AuthContext, current: Task, input: TaskUpdateInput, assigned: string): TaskStatus {
  if (input.status) return input.status;
  if (assigned !== current.assigned) return assigned === auth.userId ? 'READ' : 'UNREAD';
  const changed = (['text', 'dueOn', 'urgent', 'patientId', 'noteDataLinks'] as const).some((k) => input[k] !== undefined);
  if (changed && auth.userId !== assigned) return current.status === 'UNREAD' ? 'UNREAD' : 'UPDATED';
  return current.status;
}

export async function updateTask(auth: AuthContext, ident: string, input: TaskUpdateInput, now = new Date()): Promise<Task> {
  const current = await getTask(auth.practiceId, ident);
  if (!current) throw new NotFoundError(TASK_MESSAGES.notFound);
  if (current.status === 'DELETED') throw new ConflictError(TASK_MESSAGES.deleted);
  if (isTaskReadOnly(current)) throw new ConflictError(TASK_MESSAGES.completedReadOnly);
  if (input.lastUpdated !== undefined && input.lastUpdated !== current.lastUpdated) throw new ConflictError(TASK_MESSAGES.changed);
  const assigned = input.assigned ?? current.assigned;
  if (assigned !== current.assigned) await assertAssignable(auth, assigned);
  const status = nextStatus(auth, current, input, assigned);
  let lastUpdated = now.toISOString();
  if (lastUpdated <= current.lastUpdated) lastUpdated = new Date(Date.parse(current.lastUpdated) + 1).toISOString();
  const next: Task = {
    ...current,
    text: input.text ?? current.text,
    dueOn: input.dueOn !== undefined ? input.dueOn : current.dueOn,
    urgent: input.urgent ?? current.urgent,
    patientId: input.patientId !== undefined ? input.patientId : current.patientId,
    noteDataLinks: input.noteDataLinks ?? current.noteDataLinks,
    assigned,
    status,
    lastUpdated,
    lastUpdatedBy: auth.userId,
    completedAt: status === 'COMPLETED' ? lastUpdated : null,
  };
  await replaceTask(auth.practiceId, next, current.lastUpdated);
  await syncTaskNotification(auth, next);
  await audited(auth, 'update', next);
  return next;
}

export async function getTaskById(auth: AuthContext, ident: string): Promise<Task> {
  const task = await getTask(auth.practiceId, ident);
  if (!task) throw new NotFoundError(TASK_MESSAGES.notFound);
  await audited(auth, 'read', task);
  return task;
}

export async function listTasks(auth: AuthContext, query: TaskListQuery): Promise<TaskPage> {
  const statuses = query.status ?? DEFAULT_TASK_LIST_STATUSES;
  const assigned = query.assigned === 'me' ? auth.userId : query.assigned;
  const all = (await queryTasks([...new Set(statuses)], assigned)).filter(
    (t) =>
      (!query.patientId || t.patientId === query.patientId) &&
      taskMatchesKeyword(t, query.keyword) &&
      (!query.fromDueDate || (t.dueOn !== null && t.dueOn >= query.fromDueDate)) &&
      (!query.toDueDate || (t.dueOn !== null && t.dueOn <= query.toDueDate)),
  );
  all.sort(compareTasks(query.sort, query.order));
  const tasks = all.slice(query.offset, query.offset + query.limit);
  await writeAuditForPatients(
    auth,
    { action: 'list', entity: 'task', count: tasks.length },
    query.patientId ? [query.patientId] : tasks.map((t) => t.patientId),
  );
  return { tasks, total: all.length, limit: query.limit, offset: query.offset };
}
