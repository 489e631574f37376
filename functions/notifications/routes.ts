export const NOTIFICATION_ROUTES = [
  'GET /v1/notifications',
  'POST /v1/notifications',
  'GET /v1/notifications/unread-count',
  'PUT /v1/notifications/mark-conversation-read',
  'PUT /v1/notifications/archive-conversation',
  'PUT /v1/notifications/unarchive-conversation',
  'PUT /v1/notifications/{id}',
  'DELETE /v1/notifications/{id}',
] as const;
export type NotificationRouteKey = (typeof NOTIFICATION_ROUTES)[number];
