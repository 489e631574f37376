import { useQuery } from '@tanstack/react-query';
import {
  AudioUploadResponse,
  ChartProposal,
  RecordingChunkResponse,
  TRANSCRIPTION_POLL,
  TranscriptionRecordingResponse,
  TranscriptionResult,
  TranscriptionStatusResponse,
  type AudioUploadBody,
  type CopilotTemplateType,
  type RecordingChunkBody,
} from '../../../../../shared/ai/transcription-schema.js';
import { TemplateListAnswer } from '../../../../../shared/templates/template-responses.js';
import { apiRequest } from '../../../lib/api-client.js';
import { isTerminal } from '../transcription-poll.js';

const path = (id: string, rest = '') => `/v1/transcriptions/${encodeURIComponent(id)}${rest}`;

export const scribeKeys = {
  status: (id: string) => ['transcriptions', id, 'status'] as const,
  result: (id: string) => ['transcriptions', id, 'result'] as const,
  recording: (id: string) => ['transcriptions', id, 'recording'] as const,
  copilotTemplates: ['templates', 'active', 'copilot'] as const,
};

export type StartedTranscription = TranscriptionStatusResponse & { noteVersion?: number };

async function putToSignedUrl(url: string, body: Blob, contentType: string): Promise<void> {
  const response = await fetch(url, { method: 'PUT', body, headers: { 'Content-Type': contentType } });
  if (!response.ok) throw new Error(`Upload failed (${response.status})`);
}

export const scribeApi = {
  signChunk: (body: RecordingChunkBody) => apiRequest({ method: 'POST', path: '/v1/transcriptions/chunks', body }, RecordingChunkResponse),
  signUpload: (body: AudioUploadBody) => apiRequest({ method: 'POST', path: '/v1/transcriptions/uploads', body }, AudioUploadResponse),
  put: putToSignedUrl,
  start: (body: {
    filesPath: string;
    patientId: string;
    noteId: string;
    fileKey?: string;
    templateIdent?: string;
    tidewellTemplateTypes: CopilotTemplateType[];
  }) => apiRequest({ method: 'POST', path: '/v1/transcriptions', body }, TranscriptionStatusResponse),
  status: (id: string, signal?: AbortSignal) => apiRequest({ path: path(id), signal }, TranscriptionStatusResponse),
  retry: (id: string) => apiRequest({ method: 'POST', path: path(id, '/retry') }, TranscriptionStatusResponse),
  result: (id: string, signal?: AbortSignal) => apiRequest({ path: path(id, '/result'), signal }, TranscriptionResult),
  recording: (id: string, signal?: AbortSignal) => apiRequest({ path: path(id, '/recording'), signal }, TranscriptionRecordingResponse),
  decide: (id: string, proposalId: string, decision: 'accept' | 'reject') =>
    apiRequest({ method: 'POST', path: path(id, `/proposals/${encodeURIComponent(proposalId)}`), body: { decision } }, ChartProposal),
};

/** Polled every 2 s until the run ends (spec notes §4 Transcription); the 15-minute limit is the panel's. */
export function useTranscriptionStatus(id: string | null, { poll }: { poll: boolean }) {
  return useQuery({
    queryKey: scribeKeys.status(id ?? ''),
    queryFn: ({ signal }) => scribeApi.status(id as string, signal),
    enabled: Boolean(id),
    refetchInterval: (query) => (poll && !(query.state.data && isTerminal(query.state.data.status)) ? TRANSCRIPTION_POLL.intervalMs : false),
    refetchIntervalInBackground: true,
  });
}

export function useTranscriptionResult(id: string | null, enabled: boolean) {
  return useQuery({
    queryKey: scribeKeys.result(id ?? ''),
    queryFn: ({ signal }) => scribeApi.result(id as string, signal),
    enabled: Boolean(id) && enabled,
    staleTime: Infinity,
  });
}

/** Spec notes §9: only active templates with wildcard transform keys are offered as Copilot templates. */
export function useCopilotTemplates(enabled: boolean) {
  return useQuery({
    queryKey: scribeKeys.copilotTemplates,
    queryFn: async ({ signal }) => {
      const list = (await apiRequest({ path: '/v1/practices/templates', query: { status: 'active' }, signal }, TemplateListAnswer)).templates;
      return list.filter((t) => t.status === 'active' && t.transformKeys.includes('wild card'));
    },
    enabled,
    staleTime: 60_000,
  });
}
