import { fetchAuthSession } from 'aws-amplify/auth';
import { tokensSettled } from '../../lib/screen-lock.js';
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { RECORDING } from '../../../../shared/ai/transcription-schema.js';
import { setNoteRecording } from '../../lib/recording-status.js';
import { markSessionExpired, sessionReady } from '../../lib/session-expiry.js';
import { useBeforeUnloadPrompt } from '../../lib/unsaved-changes.js';
import { createChunkUploader, type ChunkUploader } from './chunk-uploader.js';
import { initialRecorder, isRecordingActive, recorderReducer, type RecorderEvent, type RecorderModel } from './recorder-machine.js';
import { scribeApi } from './api/scribe-api.js';

const reduce = (model: RecorderModel, event: RecorderEvent) => recorderReducer(model, event);

const MIME_TYPES = ['audio/webm;codecs=opus', 'audio/webm', 'audio/ogg;codecs=opus'];

function pickMimeType(): string | undefined {
  if (typeof MediaRecorder === 'undefined' || typeof MediaRecorder.isTypeSupported !== 'function') return undefined;
  return MIME_TYPES.find((t) => MediaRecorder.isTypeSupported(t));
}

function mediaErrorMessage(error: unknown): string {
  if (error instanceof DOMException && (error.name === 'NotAllowedError' || error.name === 'SecurityError'))
    return 'The microphone was not allowed. Allow it in the browser and try again.';
  if (error instanceof DOMException && error.name === 'NotFoundError') return 'No microphone was found.';
  return 'The microphone could not be started.';
}

/** A fresh id per recording names its folder of chunks (recordings/patients/<patient>/<note>/<session>). */
function newSessionId(): string {
  return crypto.randomUUID();
}

export interface RecorderTarget {
  patientId: string;
  noteId: string;
}

/**
 * The visit recorder: MediaRecorder at 63,600 bits/s, a 10 s slice uploaded as soon as it is
 * recorded, the 1 s timer with the limit, and the session kept alive every 10 s while recording.
 */
export function useRecorder(target: RecorderTarget) {
  const [model, dispatch] = useReducer(reduce, initialRecorder);
  const [filesPath, setFilesPath] = useState<string | null>(null);
  const recorderRef = useRef<MediaRecorder | null>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const uploaderRef = useRef<ChunkUploader | null>(null);
  const mimeRef = useRef('audio/webm');
  const targetRef = useRef(target);
  targetRef.current = target;
  const active = isRecordingActive(model.state);

  const releaseMedia = () => {
    for (const track of streamRef.current?.getTracks() ?? []) track.stop();
    streamRef.current = null;
  };

  const start = useCallback(async () => {
    dispatch({ type: 'start' });
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (error) {
      dispatch({ type: 'media-failed', message: mediaErrorMessage(error) });
      return;
    }
    streamRef.current = stream;
    dispatch({ type: 'media-acquired' });
    try {
      const mimeType = pickMimeType();
      const recorder = new MediaRecorder(stream, { ...(mimeType ? { mimeType } : {}), audioBitsPerSecond: RECORDING.audioBitsPerSecond });
      mimeRef.current = recorder.mimeType || mimeType || 'audio/webm';
      const sessionId = newSessionId();
      const uploader = createChunkUploader({
        sign: (index, chunk) => scribeApi.signChunk({ ...targetRef.current, sessionId, index, contentType: mimeRef.current, size: chunk.size }),
        put: (url, chunk) => scribeApi.put(url, chunk, mimeRef.current),
        ready: sessionReady,
        isSessionError: (error) => (error as { status?: number }).status === 401,
      });
      uploaderRef.current = uploader;
      recorder.ondataavailable = (event) => uploader.add(event.data);
      recorder.onstop = () => {
        releaseMedia();
        void uploader.finish().then((outcome) => {
          setFilesPath(outcome.filesPath);
          dispatch({ type: 'stopped', saveFailed: !outcome.ok });
        });
      };
      recorderRef.current = recorder;
      // Each timeslice hands over a chunk: at most the last 10 s are lost if the tab dies.
      recorder.start(RECORDING.batchIntervalMs);
      dispatch({ type: 'recording-started' });
    } catch (error) {
      releaseMedia();
      dispatch({ type: 'media-failed', message: mediaErrorMessage(error) });
    }
  }, []);

  const pause = useCallback(() => {
    if (recorderRef.current?.state === 'recording') recorderRef.current.pause();
    dispatch({ type: 'pause' });
  }, []);
  const resume = useCallback(() => {
    if (recorderRef.current?.state === 'paused') recorderRef.current.resume();
    dispatch({ type: 'resume' });
  }, []);
  const stop = useCallback(() => dispatch({ type: 'stop' }), []);
  const discard = useCallback(() => {
    uploaderRef.current = null;
    recorderRef.current = null;
    setFilesPath(null);
    dispatch({ type: 'discard' });
  }, []);

  // 'stopping' comes from the user or from the limit; either way the recorder flushes its last slice.
  useEffect(() => {
    if (model.state === 'stopping' && recorderRef.current && recorderRef.current.state !== 'inactive') recorderRef.current.stop();
  }, [model.state]);

  useEffect(() => {
    if (model.state !== 'recording') return;
    const timer = window.setInterval(() => dispatch({ type: 'tick' }), RECORDING.timerTickMs);
    return () => window.clearInterval(timer);
  }, [model.state]);

  // A long visit outlasts the sign-in tokens: refreshing them while recording keeps the chunk uploads and the note's save working.
  useEffect(() => {
    if (!active) return;
    const keepAlive = () =>
      // The screen lock's password check hides the tokens for a moment: that is no lost session.
      tokensSettled()
        .then(() => fetchAuthSession())
        .then(
          (session) => {
            // No tokens at all: the session is gone (signed out elsewhere, storage cleared); ask for a new sign-in.
            if (!session.tokens) markSessionExpired();
          },
          () => undefined,
        );
    const timer = window.setInterval(() => void keepAlive(), RECORDING.keepAliveIntervalMs);
    return () => window.clearInterval(timer);
  }, [active]);

  useEffect(() => {
    setNoteRecording(target.noteId, active);
  }, [active, target.noteId]);
  useBeforeUnloadPrompt(active);

  // Closing the window mid-visit: the slices recorded so far are saved, the microphone is released.
  useEffect(
    () => () => {
      setNoteRecording(targetRef.current.noteId, false);
      if (recorderRef.current && recorderRef.current.state !== 'inactive') recorderRef.current.stop();
      releaseMedia();
    },
    [],
  );

  const download = useCallback(() => {
    const uploader = uploaderRef.current;
    if (!uploader) return null;
    const blob = uploader.recording(mimeRef.current.split(';')[0]);
    const ext = mimeRef.current.includes('ogg') ? 'ogg' : 'webm';
    return { url: URL.createObjectURL(blob), fileName: `visit-recording-${new Date().toISOString().slice(0, 16).replace(/[:T]/g, '-')}.${ext}` };
  }, []);

  return { model, filesPath, start, pause, resume, stop, discard, download };
}
