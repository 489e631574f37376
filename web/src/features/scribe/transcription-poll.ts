import {
  TERMINAL_TRANSCRIPTION_STATUSES,
  TRANSCRIPTION_POLL,
  TRANSCRIPTION_RETRY_AFTER_MS,
  type TranscriptionStatus,
} from '../../../../shared/ai/transcription-schema.js';

/**
 * Spec notes §4 leaves the retry threshold open: 3 minutes without an update (the contract's
 * TRANSCRIPTION_RETRY_AFTER_MS). Every pipeline step writes updatedAt when it starts, so a quieter run
 * has stalled; the server applies the same threshold, so a retry of a run still moving changes nothing.
 */
export const STALE_RETRY_MS = TRANSCRIPTION_RETRY_AFTER_MS;

export type PollDecision = 'done' | 'timeout' | 'retry' | 'wait';

export interface PollInput {
  status: TranscriptionStatus;
  updatedAt: string;
  /** When this client started watching. */
  startedAt: number;
  now: number;
  /** When this client last asked for a retry, if it did. */
  lastRetryAt: number | null;
  staleMs?: number;
  limitMs?: number;
}

export function isTerminal(status: TranscriptionStatus): boolean {
  return TERMINAL_TRANSCRIPTION_STATUSES.includes(status);
}

export function pollDecision({
  status,
  updatedAt,
  startedAt,
  now,
  lastRetryAt,
  staleMs = STALE_RETRY_MS,
  limitMs = TRANSCRIPTION_POLL.limitMs,
}: PollInput): PollDecision {
  if (isTerminal(status)) return 'done';
  if (now - startedAt >= limitMs) return 'timeout';
  const updated = Date.parse(updatedAt);
  const quietSince = Math.max(Number.isNaN(updated) ? startedAt : updated, lastRetryAt ?? 0);
  return now - quietSince > staleMs ? 'retry' : 'wait';
}

/** The status in words for the progress panel. */
export const TRANSCRIPTION_STATUS_TEXT: Record<TranscriptionStatus, string> = {
  not_started: 'Not started',
  queued: 'Waiting to start',
  processing: 'Processing',
  processing_audio_file: 'Preparing the audio',
  processing_transcription: 'Transcribing the visit',
  processing_formatting_text: 'Writing the note',
  processing_after_visit_summary: 'Writing the after visit summary',
  completed: 'Note ready',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/** The order the steps run in, for the panel's step list. */
export const TRANSCRIPTION_STEPS: readonly TranscriptionStatus[] = [
  'queued',
  'processing_audio_file',
  'processing_transcription',
  'processing_formatting_text',
  'processing_after_visit_summary',
  'completed',
];
