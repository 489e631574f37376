import { RECORDING } from '../../../../shared/ai/transcription-schema.js';

/** Spec notes §4 Recording: the visible states idle, recording, paused, stopped and the finer internal ones. */
export type RecorderState = 'idle' | 'acquiring_media' | 'ready' | 'recording' | 'paused' | 'stopping' | 'stopped' | 'failed';

export interface RecorderModel {
  state: RecorderState;
  /** Seconds recorded so far; paused time does not count. */
  elapsedSeconds: number;
  /** Set when the limit stopped the recording rather than the user. */
  forcedStop: boolean;
  /** Some audio could not be saved to the cloud: the user downloads what was recorded instead. */
  saveFailed: boolean;
  error: string | null;
}

export type RecorderEvent =
  | { type: 'start' }
  | { type: 'media-acquired' }
  | { type: 'media-failed'; message: string }
  | { type: 'recording-started' }
  | { type: 'pause' }
  | { type: 'resume' }
  | { type: 'tick' }
  | { type: 'stop' }
  | { type: 'stopped'; saveFailed: boolean }
  | { type: 'discard' };

export const initialRecorder: RecorderModel = { state: 'idle', elapsedSeconds: 0, forcedStop: false, saveFailed: false, error: null };

export interface RecordingLimits {
  limitSeconds: number;
  warningBeforeSeconds: number;
}
export const DEFAULT_LIMITS: RecordingLimits = { limitSeconds: RECORDING.limitSeconds, warningBeforeSeconds: RECORDING.warningBeforeSeconds };

/** Events that do not apply to the current state are ignored, so a late timer or a double press changes nothing. */
export function recorderReducer(model: RecorderModel, event: RecorderEvent, limits: RecordingLimits = DEFAULT_LIMITS): RecorderModel {
  const { state } = model;
  switch (event.type) {
    case 'start':
      return state === 'idle' || state === 'failed' ? { ...initialRecorder, state: 'acquiring_media' } : model;
    case 'media-acquired':
      return state === 'acquiring_media' ? { ...model, state: 'ready' } : model;
    case 'media-failed':
      return state === 'acquiring_media' || state === 'ready' ? { ...model, state: 'failed', error: event.message } : model;
    case 'recording-started':
      return state === 'ready' ? { ...model, state: 'recording' } : model;
    case 'pause':
      return state === 'recording' ? { ...model, state: 'paused' } : model;
    case 'resume':
      return state === 'paused' ? { ...model, state: 'recording' } : model;
    case 'tick': {
      if (state !== 'recording') return model;
      const elapsedSeconds = model.elapsedSeconds + 1;
      // Spec notes §4: stop is forced at the time limit.
      if (elapsedSeconds >= limits.limitSeconds) return { ...model, elapsedSeconds: limits.limitSeconds, state: 'stopping', forcedStop: true };
      return { ...model, elapsedSeconds };
    }
    case 'stop':
      return state === 'recording' || state === 'paused' ? { ...model, state: 'stopping' } : model;
    case 'stopped':
      return state === 'stopping' ? { ...model, state: 'stopped', saveFailed: event.saveFailed } : model;
    case 'discard':
      return state === 'stopped' || state === 'failed' ? initialRecorder : model;
  }
}

/** The warning shows from 300 s before the limit until the recording ends. */
export function limitWarning(model: RecorderModel, limits: RecordingLimits = DEFAULT_LIMITS): boolean {
  const live = model.state === 'recording' || model.state === 'paused';
  return live && model.elapsedSeconds >= limits.limitSeconds - limits.warningBeforeSeconds;
}

/** Audio is being captured or kept open: what the 'Recording in progress' banner and the keep-alive follow. */
export function isRecordingActive(state: RecorderState): boolean {
  return state === 'recording' || state === 'paused' || state === 'stopping';
}

/** h:mm:ss above an hour, otherwise mm:ss. */
export function formatElapsed(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${two(m)}:${two(s)}`;
}

export const RECORDER_STATE_LABEL: Record<RecorderState, string> = {
  idle: 'Not recording',
  acquiring_media: 'Waiting for the microphone',
  ready: 'Microphone ready',
  recording: 'Recording',
  paused: 'Paused',
  stopping: 'Saving the recording',
  stopped: 'Recording stopped',
  failed: 'Recording failed',
};
