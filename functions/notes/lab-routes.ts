/** The lab routes of the notes group, loaded on their first request (handler.ts). */
import { LabLinkParams, LabLinkQuery, LabOrderBody, LabPrintQuery } from '../../shared/labs/lab-schema.js';
import { NoteIdParams } from '../../shared/notes/note-schema.js';
import { route } from '../lib/http/group-handler.js';
import { LabReviewBody, LabReviewListQuery, LabReviewParams, LabReviewSettings } from '../../shared/labs/lab-review.js';
import { getLabReviewSettings } from '../data/labs/lab-reviews.js';
import { getLabReviewFor, listLabReviews, putLabReviewSettings, reviewLabResult } from './lab-reviews.js';
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
  'GET /v1/notes/labs/reviews': route({
    query: LabReviewListQuery,
    permission: 'lab.review',
    run: ({ auth, query }) => listLabReviews(auth, query.status, query.limit),
  }),
  'GET /v1/notes/labs/reviews/{noteId}': route({
    params: LabReviewParams,
    permission: 'lab.review',
    run: ({ auth, params }) => getLabReviewFor(auth, params.noteId),
  }),
  'POST /v1/notes/labs/reviews/{noteId}': route({
    params: LabReviewParams,
    body: LabReviewBody,
    permission: 'lab.review',
    run: ({ auth, params, body }) => reviewLabResult(auth, params.noteId, body),
  }),
  'GET /v1/notes/labs/review-settings': route({
    run: ({ auth }) => getLabReviewSettings(auth.practiceId),
  }),
  'POST /v1/notes/labs/review-settings': route({
    body: LabReviewSettings,
    permission: 'practice.settings.change',
    run: ({ auth, body }) => putLabReviewSettings(auth, body),
  }),
} satisfies Record<LabRouteKey, unknown>;
