/** The lab routes of the notes group, loaded on their first request (handler.ts). */
import { LabLinkParams, LabLinkQuery, LabOrderBody, LabPrintQuery } from '../../shared/labs/lab-schema.js';
import { NoteIdParams } from '../../shared/notes/note-schema.js';
import { route } from '../lib/http/group-handler.js';
import { labTrend, placeLabOrder } from './labs.js';
import type { LabRouteKey } from './routes.js';

export const LAB_ROUTES = {
  'POST /v1/notes/{noteId}/lab-order': route({
    params: NoteIdParams,
    body: LabOrderBody,
    permission: 'lab.order',
    run: ({ auth, params, body }) => placeLabOrder(auth, params.noteId, body),
  }),
  'GET /v1/notes/labs/print': route({
    query: LabPrintQuery,
    // pdf-lib (about 500 KB) loads with the first print, not with the other lab routes.
    run: async ({ auth, query }) => (await import('./lab-print.js')).printLab(auth, query.id),
  }),
  'GET /v2/notes/labs/link/{a}/{b}': route({
    params: LabLinkParams,
    query: LabLinkQuery,
    run: ({ auth, params, query }) => labTrend(auth, params.a, params.b, query.timezoneOffset ?? 0),
  }),
} satisfies Record<LabRouteKey, unknown>;
