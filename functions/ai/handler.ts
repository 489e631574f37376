/** The ai group's Lambda: the route tables of its feature folders (copilot/, transcriptions/), composed. */
import { groupHandler } from '../lib/http/group-handler.js';
import { streamingGroupHandler } from '../lib/http/streaming-group-handler.js';
import { COPILOT_HANDLERS } from './copilot/handler.js';
import { COPILOT_STREAM_ROUTES } from './copilot/routes.js';
import { AI_ROUTES } from './routes.js';
import { TRANSCRIPTION_HANDLERS } from './transcriptions/handlers.js';

const api = groupHandler(AI_ROUTES, { ...COPILOT_HANDLERS, ...TRANSCRIPTION_HANDLERS });

/**
 * Response streaming (RESPONSE_STREAM function URL) for the Copilot's streamed reply; every route,
 * the streamed one and the transcription routes included, also answers through API Gateway with
 * the whole body at once.
 */
export const handler = streamingGroupHandler(api, COPILOT_STREAM_ROUTES);
