/** The ai group's Lambda: the route tables of its feature folders, composed. */
import { groupHandler } from '../lib/http/group-handler.js';
import { AI_ROUTES } from './routes.js';
import { TRANSCRIPTION_HANDLERS } from './transcriptions/handlers.js';

export const handler = groupHandler(AI_ROUTES, { ...TRANSCRIPTION_HANDLERS });
