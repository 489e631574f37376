import {
  ConversationInput,
  NOTIFICATION_TYPES,
  NotificationCreateInput,
  NotificationIdParams,
  NotificationListQuery,
  NotificationUpdateInput,
  type UnreadCount,
} from '../../shared/notifications/notification-schema.js';
import { ReminderCreateInput, ReminderIdParams, ReminderListQuery, ReminderUpdateInput } from '../../shared/reminders/reminder-schema.js';
import { TaskCreateInput, TaskIdParams, TaskListQuery, TaskUpdateInput } from '../../shared/tasks/task-schema.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import { groupHandler, route } from '../lib/http/group-handler.js';
import { setConversationStatus } from '../core/notifications/conversation-status.js';
import { listNotifications } from './list-notifications.js';
import { countUnread, createNotification, deleteNotification, updateNotification } from '../data/notifications/notification-repository.js';
import { createReminder, deleteReminder, listReminders, updateReminder } from './reminders/reminder-use-cases.js';
import { NOTIFICATION_ROUTES } from './routes.js';
import { createTask, getTaskById, listTasks, updateTask } from '../core/tasks/task-use-cases.js';

export const handler = groupHandler(NOTIFICATION_ROUTES, {
  'GET /v1/notifications': route({
    query: NotificationListQuery,
    run: ({ auth, query }) => listNotifications(auth, query),
  }),
  'POST /v1/notifications': route({
    body: NotificationCreateInput,
    status: 201,
    run: async ({ auth, body }) => {
      const n = await createNotification(auth.practiceId, body, auth);
      await writeAudit(auth, { action: 'create', entity: 'notification', entityId: n.notificationId, ...(n.patientId ? { patientId: n.patientId } : {}) });
      return n;
    },
  }),
  'GET /v1/notifications/unread-count': route({
    run: async ({ auth }): Promise<UnreadCount> => {
      const { byType, assignedToMe } = await countUnread(auth.practiceId, auth.userId);
      const count = NOTIFICATION_TYPES.filter((t) => t !== 'TASK').reduce((sum, t) => sum + byType[t], 0);
      return { count, byType, assignedToMe };
    },
  }),
  'PUT /v1/notifications/mark-conversation-read': route({
    body: ConversationInput,
    run: ({ auth, body }) => setConversationStatus(auth, 'read', body),
  }),
  'PUT /v1/notifications/archive-conversation': route({
    body: ConversationInput,
    run: ({ auth, body }) => setConversationStatus(auth, 'archive', body),
  }),
  'PUT /v1/notifications/unarchive-conversation': route({
    body: ConversationInput,
    run: ({ auth, body }) => setConversationStatus(auth, 'unarchive', body),
  }),
  'PUT /v1/notifications/{id}': route({
    params: NotificationIdParams,
    body: NotificationUpdateInput,
    run: async ({ auth, params, body }) => {
      const { notificationVersion, ...changes } = body;
      const n = await updateNotification(auth.practiceId, params.id, changes, auth, { expectedVersion: notificationVersion });
      await writeAudit(auth, { action: 'update', entity: 'notification', entityId: n.notificationId, ...(n.patientId ? { patientId: n.patientId } : {}) });
      return n;
    },
  }),
  'DELETE /v1/notifications/{id}': route({
    params: NotificationIdParams,
    run: async ({ auth, params }) => {
      const n = await deleteNotification(auth.practiceId, params.id, auth);
      await writeAudit(auth, { action: 'delete', entity: 'notification', entityId: n.notificationId, ...(n.patientId ? { patientId: n.patientId } : {}) });
      return n;
    },
  }),
  'GET /v1/tasks': route({
    query: TaskListQuery,
    run: ({ auth, query }) => listTasks(auth, query),
  }),
  'POST /v1/tasks': route({
    body: TaskCreateInput,
    status: 201,
    run: ({ auth, body }) => createTask(auth, body),
  }),
  'GET /v1/tasks/{id}': route({
    params: TaskIdParams,
    run: ({ auth, params }) => getTaskById(auth, params.id),
  }),
  'PUT /v1/tasks/{id}': route({
    // One variable name per path position: API Gateway routes /v1/tasks/{id} for GET and PUT alike.
    params: TaskIdParams,
    body: TaskUpdateInput,
    run: ({ auth, params, body }) => updateTask(auth, params.id, body),
  }),
  'GET /v1/reminders': route({
    query: ReminderListQuery,
    run: ({ auth, query }) => listReminders(auth, query.open),
  }),
  'POST /v1/reminders': route({
    body: ReminderCreateInput,
    status: 201,
    run: ({ auth, body }) => createReminder(auth, body),
  }),
  'PUT /v1/reminders/{reminderId}': route({
    params: ReminderIdParams,
    body: ReminderUpdateInput,
    run: ({ auth, params, body }) => updateReminder(auth, params.reminderId, body),
  }),
  'DELETE /v1/reminders/{reminderId}': route({
    params: ReminderIdParams,
    run: ({ auth, params }) => deleteReminder(auth, params.reminderId),
  }),
});
