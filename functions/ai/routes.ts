/** The ai group's route keys: each feature folder (transcriptions/, …) keeps its own list. */
import { TRANSCRIPTION_ROUTES } from './transcriptions/routes.js';

export const AI_ROUTES = [...TRANSCRIPTION_ROUTES] as const;
export type AiRouteKey = (typeof AI_ROUTES)[number];
