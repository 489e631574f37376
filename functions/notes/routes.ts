export const NOTE_ROUTES = [
  'POST /v2/notes',
  'GET /v2/notes',
  'GET /v1/notes',
  'GET /v1/notes/{noteId}',
  'POST /v1/notes/{noteId}',
  'DELETE /v1/notes/{noteId}',
  'POST /v1/notes/{noteId}/sign',
  'POST /v1/notes/{noteId}/update-signed-note',
  'POST /v1/notes/{noteId}/addend',
  'POST /v1/notes/{noteId}/change-patient',
  'POST /v1/notes/{noteId}/toggle-access',
  'POST /v1/notes/{noteId}/send',
  'POST /v1/notes/{noteId}/assign',
] as const;
export type NoteRouteKey = (typeof NOTE_ROUTES)[number];
