import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { Task, TASK_MESSAGES, type TaskStatus } from '../../../shared/tasks/task-schema.js';
import { ConflictError } from '../../lib/errors.js';
import { documentClient } from '../../lib/table/client.js';
import { INDEXES, tableName } from '../../lib/table/definition.js';
import { queryIndexPartition } from '../../lib/table/query-all.js';
import { isConditionFailure } from '../../lib/table/condition-failure.js';
import { putIfUnchanged } from '../../lib/table/put-if-unchanged.js';
import { parseItem, type Item } from '../../lib/table/item.js';

/*
 * Task items (docs/access-patterns.md):
 *   item          pk practiceId, sk TASK#<ident>
 *   by status     gsi1 gsi1pk TASKS#<status>, gsi1sk <createdAt>#<ident>
 *   by assignee   gsi2 gsi2pk TASKS#ASSIGNED#<userId>#<status>, gsi2sk <createdAt>#<ident>
 */
export const taskKey = (ident: string) => `TASK#${ident}`;
export const tasksByStatusPartition = (status: TaskStatus) => `TASKS#${status}`;
export const tasksByAssigneePartition = (userId: string, status: TaskStatus) => `TASKS#ASSIGNED#${userId}#${status}`;

function toItem(practiceId: string, t: Task): Item {
  const sortKey = `${t.createdAt}#${t.ident}`;
  return {
    ...t,
    practiceId,
    sk: taskKey(t.ident),
    entityType: 'TASK',
    gsi1pk: tasksByStatusPartition(t.status),
    gsi1sk: sortKey,
    gsi2pk: tasksByAssigneePartition(t.assigned, t.status),
    gsi2sk: sortKey,
  };
}

/** Items written before a field existed read as that field's default. */
const fromItem = (item: Item): Task =>
  parseItem('task', Task, {
    dueOn: null,
    patientId: null,
    text: '',
    urgent: false,
    noteDataLinks: [],
    createdBy: '',
    lastUpdated: item.createdAt,
    lastUpdatedBy: '',
    completedAt: null,
    ...item,
  });

export async function getTask(practiceId: string, ident: string): Promise<Task | null> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: taskKey(ident) }, ConsistentRead: true }));
  return out.Item ? fromItem(out.Item) : null;
}

export async function putNewTask(practiceId: string, task: Task): Promise<void> {
  try {
    await documentClient().send(new PutCommand({ TableName: tableName(), Item: toItem(practiceId, task), ConditionExpression: 'attribute_not_exists(sk)' }));
  } catch (error) {
    if (isConditionFailure(error)) throw new ConflictError('A task with this id already exists');
    throw error;
  }
}

/** Replaces the task if it is still the version the caller read (lastUpdated), else 409. */
export async function replaceTask(practiceId: string, task: Task, seenLastUpdated: string): Promise<void> {
  if (!(await putIfUnchanged(toItem(practiceId, task), 'lastUpdated', seenLastUpdated))) throw new ConflictError(TASK_MESSAGES.changed);
}

async function queryPartition(index: 'gsi1' | 'gsi2', pk: string): Promise<Task[]> {
  return (await queryIndexPartition(INDEXES[index], pk)).map(fromItem);
}

/** Tasks of the given statuses: by assignee (gsi2) when one is named, else the practice's (gsi1). */
export async function queryTasks(statuses: readonly TaskStatus[], assigned?: string): Promise<Task[]> {
  const parts = await Promise.all(
    statuses.map((s) => (assigned ? queryPartition('gsi2', tasksByAssigneePartition(assigned, s)) : queryPartition('gsi1', tasksByStatusPartition(s)))),
  );
  return parts.flat();
}
