export const TRANSCRIPTION_ROUTES = [
  'POST /v1/transcriptions',
  'POST /v1/transcriptions/chunks',
  'POST /v1/transcriptions/uploads',
  'GET /v1/transcriptions/{transcriptionId}',
  'POST /v1/transcriptions/{transcriptionId}/retry',
  'GET /v1/transcriptions/{transcriptionId}/result',
  'GET /v1/transcriptions/{transcriptionId}/recording',
  'POST /v1/transcriptions/{transcriptionId}/proposals/{proposalId}',
] as const;
export type TranscriptionRouteKey = (typeof TRANSCRIPTION_ROUTES)[number];
