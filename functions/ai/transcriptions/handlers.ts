import * as z from '../../../shared/zod.js';
import { AudioUploadBody, CreateTranscriptionBody, ProposalDecisionBody, RecordingChunkBody } from '../../../shared/ai/transcription-schema.js';
import { route, type RouteSpec } from '../../lib/http/group-handler.js';
import { decideProposal } from './proposal-decisions.js';
import type { TranscriptionRouteKey } from './routes.js';
import {
  createTranscription,
  presignAudioUpload,
  presignChunk,
  retryTranscription,
  transcriptionRecording,
  transcriptionResult,
  transcriptionStatus,
} from './transcription-use-cases.js';

const transcriptionId = z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'The transcription id is not valid'));
const Params = z.object({ transcriptionId });
const ProposalParams = z.object({ transcriptionId, proposalId: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'The proposal id is not valid')) });

/* eslint-disable-next-line @typescript-eslint/no-explicit-any */
export const TRANSCRIPTION_HANDLERS: { readonly [K in TranscriptionRouteKey]: RouteSpec<any, any, any> } = {
  'POST /v1/transcriptions': route({ body: CreateTranscriptionBody, status: 201, run: ({ auth, body }) => createTranscription(auth, body) }),
  'POST /v1/transcriptions/chunks': route({ body: RecordingChunkBody, run: ({ auth, body }) => presignChunk(auth, body) }),
  'POST /v1/transcriptions/uploads': route({ body: AudioUploadBody, run: ({ auth, body }) => presignAudioUpload(auth, body) }),
  'GET /v1/transcriptions/{transcriptionId}': route({ params: Params, run: ({ auth, params }) => transcriptionStatus(auth, params.transcriptionId) }),
  'POST /v1/transcriptions/{transcriptionId}/retry': route({ params: Params, run: ({ auth, params }) => retryTranscription(auth, params.transcriptionId) }),
  'GET /v1/transcriptions/{transcriptionId}/result': route({ params: Params, run: ({ auth, params }) => transcriptionResult(auth, params.transcriptionId) }),
  'GET /v1/transcriptions/{transcriptionId}/recording': route({
    params: Params,
    run: ({ auth, params }) => transcriptionRecording(auth, params.transcriptionId),
  }),
  'POST /v1/transcriptions/{transcriptionId}/proposals/{proposalId}': route({
    params: ProposalParams,
    body: ProposalDecisionBody,
    run: ({ auth, params, body }) => decideProposal(auth, params.transcriptionId, params.proposalId, body),
  }),
};
