import { MESSAGING_ROUTE_KEYS } from '../../shared/messaging/messaging-constants.js';

/** Spec shell §7.5: SMS history, conversations, their texts and participants, scheduled events. */
export const MESSAGING_ROUTES = MESSAGING_ROUTE_KEYS;
export type MessagingRouteKey = (typeof MESSAGING_ROUTES)[number];

/** The routes that text (send-routes.ts) and the scheduled events' (scheduled-routes.ts): each set loads on its first request. */
export const SEND_ROUTE_KEYS = [
  'POST /v1/messaging/conversations',
  'POST /v1/messaging/conversations/{id}/messages',
] as const satisfies readonly MessagingRouteKey[];
export const SCHEDULED_EVENT_ROUTE_KEYS = [
  'GET /v1/scheduled-events',
  'POST /v1/scheduled-events',
  'GET /v1/scheduled-events/{id}',
  'PUT /v1/scheduled-events/{id}',
  'DELETE /v1/scheduled-events/{id}',
] as const satisfies readonly MessagingRouteKey[];
