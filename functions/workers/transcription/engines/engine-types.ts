/** What a speech engine does for a run; the engines themselves are chosen in engines.ts. */
import type { AiEngine, TranscriptSegment } from '../../../../shared/ai/transcription-schema.js';
import type { NoteWriter } from '../note/note-model.js';

export interface RunAudio {
  /** The recording folder's chunks in recording order, or the one uploaded file. */
  sourceKeys: string[];
  /** Where the joined recording is written (without extension) and the run's other objects go. */
  runFolder: string;
  transcriptionId: string;
}

export type SpeechCheck = { status: 'IN_PROGRESS' } | { status: 'COMPLETED'; segments: TranscriptSegment[] } | { status: 'FAILED'; reason?: string };

export interface SpeechEngine {
  readonly engine: AiEngine;
  /** Joins the sources in order into one recording the engine reads; returns its key and type (for playback). */
  prepareAudio(audio: RunAudio): Promise<{ audioKey: string; contentType: string }>;
  /** Starts recognition: a local engine finishes here, a service returns a job to poll. */
  start(audioKey: string, audio: RunAudio): Promise<{ status: 'COMPLETED'; segments: TranscriptSegment[] } | { status: 'IN_PROGRESS'; jobName: string }>;
  check(jobName: string, audio: RunAudio): Promise<SpeechCheck>;
}

export interface Engines {
  speech: SpeechEngine;
  text: NoteWriter;
}
