import { MESSAGING_ROUTE_KEYS } from '../../shared/messaging/messaging-constants.js';

/** Spec shell §7.5: SMS history, conversations, their texts and participants, scheduled events. */
export const MESSAGING_ROUTES = MESSAGING_ROUTE_KEYS;
export type MessagingRouteKey = (typeof MESSAGING_ROUTES)[number];
