import { COPILOT_ROUTES } from './copilot/routes.js';

/** The ai endpoint group: the Copilot chat (spec shell §7.1). */
export const AI_ROUTES = [...COPILOT_ROUTES] as const;
export type AiRouteKey = (typeof AI_ROUTES)[number];
