import { groupHandler } from '../lib/http/group-handler.js';
import { streamingGroupHandler } from '../lib/http/streaming-group-handler.js';
import { COPILOT_HANDLERS } from './copilot/handler.js';
import { COPILOT_STREAM_ROUTES } from './copilot/routes.js';
import { AI_ROUTES } from './routes.js';

const api = groupHandler(AI_ROUTES, { ...COPILOT_HANDLERS });

/**
 * Response streaming (RESPONSE_STREAM function URL) for the Copilot's streamed reply; every route,
 * the streamed one included, also answers through API Gateway with the whole body at once.
 */
export const handler = streamingGroupHandler(api, COPILOT_STREAM_ROUTES);
