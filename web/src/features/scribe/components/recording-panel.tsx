import { useEffect, useRef, useState } from 'react';
import { AI_MESSAGES, RECORDING } from '../../../../../shared/ai/transcription-schema.js';
import { Button } from '../../../components/ui/button.js';
import { formatElapsed, limitWarning, RECORDER_STATE_LABEL } from '../recorder-machine.js';
import { useKeepFocus } from '../use-keep-focus.js';
import { useRecorder, type RecorderTarget } from '../use-recorder.js';

export interface RecordingPanelProps {
  target: RecorderTarget;
  onNext(filesPath: string): void;
  onUploadInstead(): void;
  onClose(): void;
}

/** Spec notes §2/§4: the recording panel with its timer, pause, resume and stop, then Next or Discard. */
export function RecordingPanel({ target, onNext, onUploadInstead, onClose }: RecordingPanelProps) {
  const recorder = useRecorder(target);
  const { model } = recorder;
  const [download, setDownload] = useState<{ url: string; fileName: string } | null>(null);
  const warning = limitWarning(model);
  const minutesLeft = Math.max(1, Math.ceil((RECORDING.limitSeconds - model.elapsedSeconds) / 60));
  const live = model.state === 'recording' || model.state === 'paused';
  const ref = useRef<HTMLElement>(null);
  useKeepFocus(ref, model.state);

  useEffect(() => {
    if (model.state !== 'stopped' || !model.saveFailed) return undefined;
    const file = recorder.download();
    setDownload(file);
    return () => {
      if (file) URL.revokeObjectURL(file.url);
    };
  }, [model.state, model.saveFailed, recorder]);

  return (
    <section ref={ref} className="tw-scribe-panel" aria-label="Recording">
      <div className="tw-scribe-panel__row">
        <span className={`tw-scribe-dot tw-scribe-dot--${model.state}`} aria-hidden="true" />
        <span className="tw-scribe-panel__state" role="status">
          {RECORDER_STATE_LABEL[model.state]}
        </span>
        <span className="tw-scribe-panel__timer" aria-label={`Recorded ${formatElapsed(model.elapsedSeconds)}`}>
          {formatElapsed(model.elapsedSeconds)}
        </span>
      </div>
      {warning ? (
        <p className="tw-scribe-panel__warning" role="alert">
          The recording stops by itself in {minutesLeft} minute{minutesLeft === 1 ? '' : 's'} (90-minute limit).
        </p>
      ) : null}
      {model.forcedStop ? <p className="tw-scribe-panel__note">The recording reached its 90-minute limit and was stopped.</p> : null}
      {model.state === 'failed' && model.error ? (
        <p className="tw-field__error" role="alert">
          {model.error}
        </p>
      ) : null}
      {model.state === 'stopped' && model.saveFailed ? (
        <div className="tw-scribe-panel__error" role="alert">
          <p>{AI_MESSAGES.savingRecordingFailed}</p>
          {download ? (
            <a className="tw-button tw-button--secondary tw-button--sm" href={download.url} download={download.fileName}>
              Download recording
            </a>
          ) : null}
        </div>
      ) : null}

      <div className="tw-scribe-panel__actions">
        {model.state === 'idle' || model.state === 'failed' ? (
          <>
            <Button size="sm" variant="primary" onPress={() => void recorder.start()}>
              Start recording
            </Button>
            <Button size="sm" onPress={onUploadInstead}>
              Upload audio instead
            </Button>
            <Button size="sm" variant="quiet" onPress={onClose}>
              Cancel
            </Button>
          </>
        ) : null}
        {model.state === 'recording' ? (
          <Button size="sm" onPress={recorder.pause}>
            Pause
          </Button>
        ) : null}
        {model.state === 'paused' ? (
          <Button size="sm" onPress={recorder.resume}>
            Resume
          </Button>
        ) : null}
        {live ? (
          <Button size="sm" variant="danger" onPress={recorder.stop}>
            Stop
          </Button>
        ) : null}
        {model.state === 'stopped' ? (
          <>
            {!model.saveFailed && recorder.filesPath ? (
              <Button size="sm" variant="primary" onPress={() => onNext(recorder.filesPath as string)}>
                Next
              </Button>
            ) : null}
            <Button
              size="sm"
              variant="quiet"
              onPress={() => {
                recorder.discard();
                onClose();
              }}
            >
              Discard
            </Button>
          </>
        ) : null}
      </div>
    </section>
  );
}
