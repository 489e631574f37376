/** The scheduled events' routes (spec shell §7.5), loaded with the first of them a container serves (handler.ts). */
import {
  ScheduledEventCreateBody,
  ScheduledEventIdParams,
  ScheduledEventListQuery,
  ScheduledEventUpdateBody,
} from '../../shared/messaging/messaging-schema.js';
import { route } from '../lib/http/group-handler.js';
import type { SCHEDULED_EVENT_ROUTE_KEYS } from './routes.js';
import { cancelScheduledEvent, createScheduledEvent, listScheduledEvents, readScheduledEvent, rescheduleEvent } from './scheduled-events.js';

export const SCHEDULED_EVENT_ROUTES = {
  'GET /v1/scheduled-events': route({ query: ScheduledEventListQuery, permission: 'sms.send', run: ({ auth, query }) => listScheduledEvents(auth, query) }),
  'POST /v1/scheduled-events': route({
    body: ScheduledEventCreateBody,
    permission: 'sms.send',
    status: 201,
    run: ({ auth, body }) => createScheduledEvent(auth, body),
  }),
  'GET /v1/scheduled-events/{id}': route({
    params: ScheduledEventIdParams,
    permission: 'sms.send',
    run: ({ auth, params }) => readScheduledEvent(auth, params.id),
  }),
  'PUT /v1/scheduled-events/{id}': route({
    params: ScheduledEventIdParams,
    body: ScheduledEventUpdateBody,
    run: ({ auth, params, body }) => rescheduleEvent(auth, params.id, body.when),
  }),
  'DELETE /v1/scheduled-events/{id}': route({ params: ScheduledEventIdParams, run: ({ auth, params }) => cancelScheduledEvent(auth, params.id) }),
} satisfies Record<(typeof SCHEDULED_EVENT_ROUTE_KEYS)[number], unknown>;
