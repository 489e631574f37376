export const NOTIFICATION_ROUTES = [
  'GET /v1/notifications',
  'POST /v1/notifications',
  'GET /v1/notifications/unread-count',
  'PUT /v1/notifications/mark-conversation-read',
  'PUT /v1/notifications/archive-conversation',
  'PUT /v1/notifications/unarchive-conversation',
  'PUT /v1/notifications/{id}',
  'DELETE /v1/notifications/{id}',
  'GET /v1/tasks',
  'POST /v1/tasks',
  'GET /v1/tasks/{id}',
  'PUT /v1/tasks/{id}',
  'GET /v1/reminders',
  'POST /v1/reminders',
  'PUT /v1/reminders/{reminderId}',
  'DELETE /v1/reminders/{reminderId}',
] as const;
export type NotificationRouteKey = (typeof NOTIFICATION_ROUTES)[number];
