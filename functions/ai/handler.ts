/** The ai group's Lambda: the route tables of its feature folders (copilot/, transcriptions/), composed. */
import { groupHandler, lazyRoutes } from '../lib/http/group-handler.js';
import { streamingGroupHandler } from '../lib/http/streaming-group-handler.js';
import { COPILOT_HANDLERS } from './copilot/handler.js';
import { COPILOT_STREAM_ROUTES } from './copilot/routes.js';
import { AI_ROUTES } from './routes.js';
import { TRANSCRIPTION_ROUTES } from './transcriptions/routes.js';

// The scribe's routes load with the first recording a container serves: a Copilot chat, the
// group's most frequent call, does not carry them.
const api = groupHandler(AI_ROUTES, {
  ...COPILOT_HANDLERS,
  ...lazyRoutes(TRANSCRIPTION_ROUTES, () => import('./transcriptions/handlers.js').then((m) => m.TRANSCRIPTION_HANDLERS)),
});

/**
 * Response streaming (RESPONSE_STREAM function URL) for the Copilot's streamed reply; every route,
 * the streamed one and the transcription routes included, also answers through API Gateway with
 * the whole body at once.
 */
export const handler = streamingGroupHandler(api, COPILOT_STREAM_ROUTES);
