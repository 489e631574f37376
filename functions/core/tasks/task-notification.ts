import type { Task } from '../../../shared/tasks/task-schema.js';
import type { AuthContext } from '../../lib/auth/auth-context.js';
import { createNotification, findLatestBySource, updateNotification } from '../../data/notifications/notification-repository.js';

/** The TASK notification of a task has a deterministic id, so a retried create cannot make two. */
export const taskNotificationId = (ident: string) => `task-${ident}`;

function fields(task: Task) {
  return { assigned: task.assigned, text: task.text, urgent: task.urgent, patientId: task.patientId, dueOn: task.dueOn, notificationStatus: task.status };
}

/**
 * Keeps the assignee's TASK notification in step with the task (the stream announces it): created
 * when someone else assigns the task, updated on every later change. A task the creator keeps
 * for themselves never notifies anyone.
 */
export async function syncTaskNotification(auth: AuthContext, task: Task): Promise<void> {
  const [existing] = await findLatestBySource(auth.practiceId, 'TASK', task.ident);
  if (existing) {
    await updateNotification(auth.practiceId, existing.notificationId, fields(task), auth);
    return;
  }
  if (task.assigned === auth.userId) return;
  await createNotification(
    auth.practiceId,
    { notificationId: taskNotificationId(task.ident), notificationType: 'TASK', sourceId: task.ident, ...fields(task) },
    auth,
  );
}
