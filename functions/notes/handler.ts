import {
  AddendNoteBody,
  AssignDraftBody,
  ChangePatientBody,
  CreateNoteBody,
  DeleteNoteQuery,
  NoteIdParams,
  NotesListQuery,
  NotesPageQuery,
  SignNoteBody,
  UpdateNoteBody,
  UpdateSignedNoteBody,
  VersionOnlyBody,
} from '../../shared/notes/note-schema.js';
import type { Context } from 'aws-lambda';
import { groupHandler, lazyRoute, route, type HttpEvent, type LazyRoute } from '../lib/http/group-handler.js';
import { createNote } from '../core/notes/create-note.js';
import { getNoteById } from './read-notes.js';
import { LAB_ROUTE_KEYS, NOTE_ROUTES, TEMPLATE_ROUTE_KEYS, type LabRouteKey, type TemplateRouteKey } from './routes.js';
import { saveNote } from './save-note.js';

/** Each template route loads with the first request of any of them. */
function templateRoutes<K extends TemplateRouteKey>(keys: readonly K[]): Record<K, LazyRoute> {
  return Object.fromEntries(keys.map((key) => [key, lazyRoute(() => import('./template-routes.js').then((m) => m.TEMPLATE_ROUTES[key]))])) as Record<
    K,
    LazyRoute
  >;
}

/** Delete, restore, move and access changes are rare beside reads and saves: they load with their first request. */
const noteActions = () => import('./note-actions.js');
/** Editing a signed note or adding an addendum loads with its first request. */
const signedNotes = () => import('./signed-note.js');

/** Each lab route loads with the first request of any of them; the PDF's pdf-lib only with the print route's own import. */
function labRoutes<K extends LabRouteKey>(keys: readonly K[]): Record<K, LazyRoute> {
  return Object.fromEntries(keys.map((key) => [key, lazyRoute(() => import('./lab-routes.js').then((m) => m.LAB_ROUTES[key]))])) as Record<K, LazyRoute>;
}

const userRoutes = groupHandler(NOTE_ROUTES, {
  'POST /v2/notes': route({ body: CreateNoteBody, status: 201, run: ({ auth, body }) => createNote(auth, body) }),
  // The timeline's paged read loads with its first request (a chart opened), keeping the cold start small.
  'GET /v2/notes': route({ query: NotesPageQuery, run: async ({ auth, query }) => (await import('./notes-page.js')).notesPage(auth, query) }),
  'GET /v1/notes': route({ query: NotesListQuery, run: async ({ auth, query }) => (await import('./note-history.js')).listNotes(auth, query) }),
  'GET /v1/notes/{noteId}': route({ params: NoteIdParams, run: ({ auth, params }) => getNoteById(auth, params.noteId) }),
  'POST /v1/notes/{noteId}': route({
    params: NoteIdParams,
    body: UpdateNoteBody,
    run: ({ auth, params, body }) => saveNote(auth, params.noteId, body),
  }),
  'DELETE /v1/notes/{noteId}': route({
    params: NoteIdParams,
    query: DeleteNoteQuery,
    run: async ({ auth, params, query }) => (await noteActions()).deleteNote(auth, params.noteId, query.noteVersion),
  }),
  'POST /v1/notes/{noteId}/sign': route({
    params: NoteIdParams,
    body: SignNoteBody,
    run: async ({ auth, params, body }) => (await import('./sign-note.js')).signNote(auth, params.noteId, body),
  }),
  'POST /v1/notes/{noteId}/update-signed-note': route({
    params: NoteIdParams,
    body: UpdateSignedNoteBody,
    run: async ({ auth, params, body }) => (await signedNotes()).updateSignedNote(auth, params.noteId, body),
  }),
  'POST /v1/notes/{noteId}/addend': route({
    params: NoteIdParams,
    body: AddendNoteBody,
    run: async ({ auth, params, body }) => (await signedNotes()).addendNote(auth, params.noteId, body),
  }),
  'POST /v1/notes/{noteId}/restore': route({
    params: NoteIdParams,
    permission: 'note.restore',
    run: async ({ auth, params }) => (await noteActions()).restoreNote(auth, params.noteId),
  }),
  'POST /v1/notes/{noteId}/change-patient': route({
    params: NoteIdParams,
    body: ChangePatientBody,
    run: async ({ auth, params, body }) => (await noteActions()).changeNotePatient(auth, params.noteId, body),
  }),
  'POST /v1/notes/{noteId}/toggle-access': route({
    params: NoteIdParams,
    body: VersionOnlyBody,
    run: async ({ auth, params, body }) => (await noteActions()).toggleNoteAccess(auth, params.noteId, body),
  }),
  'POST /v1/notes/{noteId}/send': route({
    params: NoteIdParams,
    body: VersionOnlyBody,
    // Sending email is rare beside writing notes: it loads with the first send, the SES client after it.
    run: async ({ auth, params, body }) => (await import('./send-email.js')).sendEmailNote(auth, params.noteId, body),
  }),
  'POST /v1/notes/{noteId}/assign': route({
    params: NoteIdParams,
    body: AssignDraftBody,
    run: async ({ auth, params, body }) => (await import('./assign-draft.js')).assignDraft(auth, params.noteId, body),
  }),
  // pdf-lib (about 500 KB) loads with the first prescription printed, never on a cold start.
  'GET /v1/notes/{noteId}/prescription-pdf': lazyRoute(() => import('./rx-print.js').then((m) => m.RX_PRINT_ROUTE)),
  'GET /v1/notes/faxes': lazyRoute(() => import('./fax-deliveries.js').then((m) => m.FAX_NOTES_ROUTE)),
  ...templateRoutes(TEMPLATE_ROUTE_KEYS),
  ...labRoutes(LAB_ROUTE_KEYS),
});

/** Signed deliveries are rare next to the windows' calls: their code loads on the first one. */
const DELIVERY_PREFIX = 'POST /v1/partner-deliveries/';
export async function handler(event: HttpEvent, context: Context) {
  if (event.routeKey?.startsWith(DELIVERY_PREFIX)) {
    const { handleDelivery } = await import('./partner-deliveries.js');
    return handleDelivery(event, context);
  }
  return userRoutes(event, context);
}
