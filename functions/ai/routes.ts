/** The ai group's route keys: each feature folder keeps its own list (Copilot spec shell §7.1; transcriptions notes §7). */
import { COPILOT_ROUTES } from './copilot/routes.js';
import { TRANSCRIPTION_ROUTES } from './transcriptions/routes.js';

export const AI_ROUTES = [...COPILOT_ROUTES, ...TRANSCRIPTION_ROUTES] as const;
export type AiRouteKey = (typeof AI_ROUTES)[number];
