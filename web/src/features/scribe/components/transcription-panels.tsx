import { AI_MESSAGES, type TranscriptionStatusResponse } from '../../../../../shared/ai/transcription-schema.js';
import { useRef } from 'react';
import { Button } from '../../../components/ui/button.js';
import { TRANSCRIPTION_STATUS_TEXT, TRANSCRIPTION_STEPS } from '../transcription-poll.js';
import { useKeepFocus } from '../use-keep-focus.js';

/** Spec notes §2: the transcription progress panel, the status in words and the steps done so far. */
export function TranscriptionProgressPanel({ status }: { status: TranscriptionStatusResponse }) {
  const at = TRANSCRIPTION_STEPS.indexOf(status.status);
  const ref = useRef<HTMLElement>(null);
  useKeepFocus(ref, null);
  return (
    <section ref={ref} className="tw-scribe-panel" aria-label="Creating the note">
      <p className="tw-scribe-panel__state" role="status" aria-live="polite" tabIndex={-1}>
        {TRANSCRIPTION_STATUS_TEXT[status.status]}…
      </p>
      <ol className="tw-scribe-steps">
        {TRANSCRIPTION_STEPS.slice(0, -1).map((step, i) => (
          <li
            key={step}
            className={i < at ? 'tw-scribe-steps__done' : i === at ? 'tw-scribe-steps__current' : undefined}
            aria-current={i === at ? 'step' : undefined}
          >
            {TRANSCRIPTION_STATUS_TEXT[step]}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** Spec notes §8: 'AI Note Creation Unsuccessful' with an apology and Dismiss. */
export function TranscriptionFailedPanel({ message, onDismiss }: { message?: string; onDismiss(): void }) {
  const ref = useRef<HTMLElement>(null);
  useKeepFocus(ref, null);
  return (
    <section ref={ref} className="tw-scribe-panel tw-scribe-panel--failed" role="alert" aria-label={AI_MESSAGES.creationUnsuccessful}>
      <h3 className="tw-scribe-panel__title">{AI_MESSAGES.creationUnsuccessful}</h3>
      <p>We are sorry: the note could not be created from this recording. The recording is kept; you can try again or write the note yourself.</p>
      {message ? <p className="tw-scribe-panel__detail">{message}</p> : null}
      <div className="tw-scribe-panel__actions">
        <Button size="sm" onPress={onDismiss}>
          Dismiss
        </Button>
      </div>
    </section>
  );
}
