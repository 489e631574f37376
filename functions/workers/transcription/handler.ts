/**
 * The transcription state machine's worker: one Lambda, dispatched on `step`.
 * Amazon Transcribe and Bedrock are wired in by the AI capability; until then the AI steps fail
 * with a named error (so the machine records the failure) instead of inventing a transcript.
 */
import { log } from '../../lib/log.js';
import {
  TRANSCRIPTION_STATUS,
  TRANSCRIPTION_STEPS,
  type TranscriptionState,
  type TranscriptionWorkerEvent,
} from './transcription-steps.js';

/** The error name is what Step Functions matches in Retry/Catch, so it is set explicitly. */
export class TranscriptionNotConfigured extends Error {
  constructor(step: string) {
    super(`Transcription is not configured for this practice (step ${step})`);
    this.name = 'TranscriptionNotConfigured';
  }
}

export class NoteGenerationNotConfigured extends Error {
  constructor() {
    super('Note generation is not configured for this practice');
    this.name = 'NoteGenerationNotConfigured';
  }
}

export class UnknownTranscriptionStep extends Error {
  constructor(step: unknown) {
    super(`Unknown transcription step: ${String(step)}`);
    this.name = 'UnknownTranscriptionStep';
  }
}

async function recordFailure(state: TranscriptionState): Promise<TranscriptionState> {
  // Error names and ids only: the Cause may quote a transcript.
  log.error('transcription failed', {
    practiceId: state.practiceId,
    transcriptionId: state.transcriptionId,
    error: state.error?.Error ?? state.transcriptionStatus,
  });
  return { ...state, transcriptionStatus: TRANSCRIPTION_STATUS.failed };
}

export async function handler(event: TranscriptionWorkerEvent): Promise<TranscriptionState> {
  switch (event.step) {
    case TRANSCRIPTION_STEPS.start:
    case TRANSCRIPTION_STEPS.check:
      throw new TranscriptionNotConfigured(event.step);
    case TRANSCRIPTION_STEPS.generateNote:
      throw new NoteGenerationNotConfigured();
    case TRANSCRIPTION_STEPS.recordFailure:
      return recordFailure(event.state);
    default:
      throw new UnknownTranscriptionStep((event as { step?: unknown }).step);
  }
}
