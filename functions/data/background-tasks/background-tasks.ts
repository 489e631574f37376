import { randomUUID } from 'node:crypto';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { BackgroundTaskType, DoseSpotSyncCounts } from '../../../shared/partners/dosespot.js';
import { BackgroundTask } from '../../../shared/partners/dosespot-responses.js';
import { parseItem, type Item } from '../../lib/table/item.js';
import { documentClient } from '../../lib/table/client.js';
import { tableName, TTL_ATTRIBUTE } from '../../lib/table/definition.js';
import { queryAll } from '../../lib/table/query-all.js';

/*
 * Background task records (spec shell §3: statuses COMPLETED, ACTIVE, PROCESSING, FAILED, DELETED;
 * types syncPatientRx, createCommunication, createScheduledNote): one item per run,
 * sk BGTASK#<type>#<startedAt>#<taskId>, so a Query on the type's prefix reads them newest first.
 * Kept 90 days (TTL): the hourly sync writes about 2,200 in that time.
 */
const KEEP_SECONDS = 90 * 86_400;
/** A run still PROCESSING this long after it started was cut off (the schedule target's timeout is 60 s). */
const STALE_AFTER_MS = 15 * 60_000;
export const BACKGROUND_TASK_STOPPED = 'The task stopped before it finished: its function timed out or was interrupted.';

const prefix = (taskType: BackgroundTaskType) => `BGTASK#${taskType}#`;
const taskKey = (task: Pick<BackgroundTask, 'taskType' | 'startedAt' | 'taskId'>) => `${prefix(task.taskType)}${task.startedAt}#${task.taskId}`;

export interface RunningTask {
  task: BackgroundTask;
  /** COMPLETED with what it did. */
  complete(result: DoseSpotSyncCounts, at?: Date): Promise<BackgroundTask>;
  /** FAILED with why (a text without PHI: it is shown to admins and prescribers). */
  fail(reason: string, at?: Date): Promise<BackgroundTask>;
}

/** Writes the PROCESSING record a run starts with; the run then completes or fails it. */
export async function startBackgroundTask(
  practiceId: string,
  start: Pick<BackgroundTask, 'taskType' | 'trigger' | 'requestedBy' | 'patientId'>,
  now = new Date(),
): Promise<RunningTask> {
  const task: BackgroundTask = {
    ...start,
    taskId: randomUUID(),
    status: 'PROCESSING',
    startedAt: now.toISOString(),
    completedAt: null,
    result: null,
    failureReason: null,
  };
  const key = { practiceId, sk: taskKey(task) };
  await documentClient().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...key, entityType: 'BACKGROUND_TASK', ...task, [TTL_ATTRIBUTE]: Math.floor(now.getTime() / 1000) + KEEP_SECONDS },
      ConditionExpression: 'attribute_not_exists(sk)',
    }),
  );
  // Only a PROCESSING run moves on, once: a retried completion cannot turn a FAILED run COMPLETED.
  const finish = async (changes: Pick<BackgroundTask, 'status' | 'result' | 'failureReason'>, at: Date): Promise<BackgroundTask> => {
    const next: BackgroundTask = { ...task, ...changes, completedAt: at.toISOString() };
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'SET #s = :s, completedAt = :c, #r = :r, failureReason = :f',
        ConditionExpression: '#s = :processing',
        ExpressionAttributeNames: { '#s': 'status', '#r': 'result' },
        ExpressionAttributeValues: { ':s': next.status, ':c': next.completedAt, ':r': next.result, ':f': next.failureReason, ':processing': 'PROCESSING' },
      }),
    );
    return next;
  };
  return {
    task,
    complete: (result, at = new Date()) => finish({ status: 'COMPLETED', result, failureReason: null }, at),
    fail: (reason, at = new Date()) => finish({ status: 'FAILED', result: null, failureReason: reason }, at),
  };
}

/** Items written before a field existed read as that field's default. */
function fromItem(item: Item, now: Date): BackgroundTask {
  const task = parseItem('background task', BackgroundTask, { patientId: null, completedAt: null, result: null, failureReason: null, ...item });
  // A run whose function died never wrote its outcome: reporting it PROCESSING forever would hide that.
  if (task.status === 'PROCESSING' && now.getTime() - Date.parse(task.startedAt) > STALE_AFTER_MS)
    return { ...task, status: 'FAILED', failureReason: BACKGROUND_TASK_STOPPED };
  return task;
}

/** The type's runs, newest first, optionally only those in the given statuses. */
export async function listBackgroundTasks(
  practiceId: string,
  taskType: BackgroundTaskType,
  opts: { statuses?: readonly BackgroundTask['status'][]; limit: number },
  now = new Date(),
): Promise<BackgroundTask[]> {
  const items = await queryAll(
    {
      KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':p': practiceId, ':prefix': prefix(taskType) },
      ScanIndexForward: false,
    },
    // The statuses are matched after the stale check (a cut-off run is FAILED), so a filtered read
    // goes through the type's 90 days of runs: small items, a page or two.
    opts.statuses ? Number.POSITIVE_INFINITY : opts.limit,
  );
  const tasks = items.map((item) => fromItem(item, now));
  return (opts.statuses ? tasks.filter((t) => opts.statuses!.includes(t.status)) : tasks).slice(0, opts.limit);
}
