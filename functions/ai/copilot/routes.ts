import { AI_COPILOT_ROUTE_KEYS } from '../../../shared/ai/copilot-schema.js';

/** Spec shell §7.1: the Copilot chat, its conversations and their messages. */
export const COPILOT_ROUTES = AI_COPILOT_ROUTE_KEYS;
export type CopilotRouteKey = (typeof COPILOT_ROUTES)[number];

/** Also answered, streamed, through the ai function's URL (API Gateway buffers whole responses). */
export const COPILOT_STREAM_ROUTES = ['POST /v1/ai/conversation/stream'] as const satisfies readonly CopilotRouteKey[];
