import { useId, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button.js';
import { AUDIO_ACCEPT, audioFilesError } from '../audio-upload.js';
import { useKeepFocus } from '../use-keep-focus.js';

/** Spec notes §5: one audio file instead of a recording; an invalid choice shows the invalid state. */
export function AudioUploadPanel({ onNext, onRecordInstead, onClose }: { onNext(file: File): void; onRecordInstead(): void; onClose(): void }) {
  const inputId = useId();
  const errorId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const ref = useRef<HTMLElement>(null);
  useKeepFocus(ref, null);

  const choose = (files: FileList | null) => {
    const list = files ? Array.from(files) : [];
    const problem = audioFilesError(list);
    setError(problem);
    setFile(problem ? null : list[0]);
  };

  return (
    <section ref={ref} className="tw-scribe-panel" aria-label="Upload audio">
      <label className="tw-field__label" htmlFor={inputId}>
        Audio file (.mp3, .wav, .webm, .ogg, .m4a; up to 250 MB)
      </label>
      <input
        ref={input}
        id={inputId}
        className={`tw-scribe-file${error ? ' tw-scribe-file--invalid' : ''}`}
        type="file"
        accept={AUDIO_ACCEPT}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(e) => choose(e.target.files)}
      />
      {error ? (
        <p id={errorId} className="tw-field__error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="tw-scribe-panel__actions">
        <Button size="sm" variant="primary" isDisabled={!file} onPress={() => file && onNext(file)}>
          Next
        </Button>
        <Button size="sm" onPress={onRecordInstead}>
          Record instead
        </Button>
        <Button size="sm" variant="quiet" onPress={onClose}>
          Cancel
        </Button>
      </div>
    </section>
  );
}
