import { useQuery } from '@tanstack/react-query';
import type {
  AudioUploadBody,
  AudioUploadResponse,
  ChartProposal,
  CopilotTemplateType,
  RecordingChunkBody,
  RecordingChunkResponse,
  TranscriptionRecordingResponse,
  TranscriptionResult,
  TranscriptionStatusResponse,
} from '../../../../../shared/ai/transcription-schema.js';
import { TRANSCRIPTION_POLL } from '../../../../../shared/ai/transcription-schema.js';
import { Template } from '../../../../../shared/templates/template-schema.js';
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
  signChunk: (body: RecordingChunkBody) => apiRequest<RecordingChunkResponse>({ method: 'POST', path: '/v1/transcriptions/chunks', body }),
  signUpload: (body: AudioUploadBody) => apiRequest<AudioUploadResponse>({ method: 'POST', path: '/v1/transcriptions/uploads', body }),
  put: putToSignedUrl,
  start: (body: {
    filesPath: string;
    patientId: string;
    noteId: string;
    fileKey?: string;
    templateIdent?: string;
    tidewellTemplateTypes: CopilotTemplateType[];
  }) => apiRequest<StartedTranscription>({ method: 'POST', path: '/v1/transcriptions', body }),
  status: (id: string, signal?: AbortSignal) => apiRequest<TranscriptionStatusResponse>({ path: path(id), signal }),
  retry: (id: string) => apiRequest<TranscriptionStatusResponse>({ method: 'POST', path: path(id, '/retry') }),
  result: (id: string, signal?: AbortSignal) => apiRequest<TranscriptionResult>({ path: path(id, '/result'), signal }),
  recording: (id: string, signal?: AbortSignal) => apiRequest<TranscriptionRecordingResponse>({ path: path(id, '/recording'), signal }),
  decide: (id: string, proposalId: string, decision: 'accept' | 'reject') =>
    apiRequest<ChartProposal>({ method: 'POST', path: path(id, `/proposals/${encodeURIComponent(proposalId)}`), body: { decision } }),
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
      const body = await apiRequest<unknown>({ path: '/v1/practices/templates', query: { status: 'active' }, signal });
      const list = Array.isArray(body)
        ? body
        : ((body as { templates?: unknown[]; items?: unknown[] }).templates ?? (body as { items?: unknown[] }).items ?? []);
      return list.map((t) => Template.parse(t)).filter((t) => t.status === 'active' && t.transformKeys.includes('wild card'));
    },
    enabled,
    staleTime: 60_000,
  });
}
