import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button.js';
import { isApiError, NETWORK_ERROR_MESSAGE } from '../../../lib/api-error.js';
import type { useCreateReminder } from '../api/reminders-api.js';
import { usePatientNames } from '../api/notifications-api.js';
import { MAIN_ID, mainHeading } from '../../../lib/focus.js';

/** Longer than the palette's hand-back of focus and the route's move to the heading. */
const FOCUS_SETTLE_MS = 600;

const pad = (n: number) => String(n).padStart(2, '0');
/** A datetime-local value (local time, to the minute) for an instant. */
const toLocalInput = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;

/** A new reminder defaults to the next whole hour at least 30 minutes away, like a scheduled text. */
function defaultDue(now = new Date()): string {
  const next = new Date(now.getTime() + 30 * 60_000);
  next.setMinutes(0, 0, 0);
  next.setHours(next.getHours() + 1);
  return toLocalInput(next);
}

/**
 * The open form of the dashboard's new reminder (loaded only when opened: most visits to the
 * dashboard never add one). A refusal keeps the typed text and shows the server's words.
 */
export function NewReminderForm({
  create,
  patientId,
  asked,
  onClose,
}: {
  create: ReturnType<typeof useCreateReminder>;
  patientId: string | null;
  asked: boolean;
  onClose: () => void;
}) {
  const patientName = usePatientNames(patientId ? [patientId] : []).get(patientId ?? '');
  const [text, setText] = useState('');
  const [when, setWhen] = useState(defaultDue);
  const [error, setError] = useState<string | null>(null);
  const textRef = useRef<HTMLInputElement>(null);
  const id = useId();

  useEffect(() => {
    textRef.current?.focus();
  }, []);
  // Sent here by the palette: the closing palette hands focus back to its trigger a frame or two
  // later and the new screen's heading would take it, so keep the field focused and in view until
  // that has settled (on a phone the form sits below the other widgets).
  useEffect(() => {
    if (!asked) return undefined;
    const started = Date.now();
    const timer = window.setInterval(() => {
      const field = textRef.current;
      const active = document.activeElement;
      if (
        field &&
        active !== field &&
        (!active || active === document.body || active === mainHeading() || !document.getElementById(MAIN_ID)?.contains(active))
      ) {
        field.focus();
        field.scrollIntoView({ block: 'center' });
      }
      if (Date.now() - started > FOCUS_SETTLE_MS) window.clearInterval(timer);
    }, 50);
    return () => window.clearInterval(timer);
  }, [asked]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const due = new Date(when);
    if (!text.trim()) return setError('Reminder text is required');
    if (!when || Number.isNaN(due.getTime())) return setError('Reminder time must be a date and time');
    setError(null);
    create.mutate(
      { text: text.trim(), dueAt: due.toISOString(), ...(patientId ? { patientId } : {}) },
      {
        onSuccess: onClose,
        onError: (err) => setError(isApiError(err) ? (Object.values(err.fieldErrors)[0] ?? err.message) : NETWORK_ERROR_MESSAGE),
      },
    );
  };

  return (
    <form className="tw-reminder-form" aria-label="New reminder" onSubmit={submit} noValidate>
      {patientId ? <p className="tw-widget__meta">About {patientName ?? 'this patient'}</p> : null}
      <div className="tw-field">
        <label htmlFor={`${id}-text`} className="tw-field__label">
          Reminder
        </label>
        <input
          ref={textRef}
          id={`${id}-text`}
          className="tw-field__input"
          value={text}
          maxLength={1000}
          required
          onChange={(e) => setText(e.target.value)}
          aria-describedby={error ? `${id}-error` : undefined}
        />
      </div>
      <div className="tw-field">
        <label htmlFor={`${id}-when`} className="tw-field__label">
          Remind me at
        </label>
        <input id={`${id}-when`} type="datetime-local" className="tw-field__input" value={when} required onChange={(e) => setWhen(e.target.value)} />
      </div>
      {error ? (
        <p id={`${id}-error`} className="tw-field__error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="tw-widget__actions">
        <Button type="submit" variant="primary" isPending={create.isPending}>
          Add reminder
        </Button>
        <Button onPress={onClose}>Cancel</Button>
      </div>
    </form>
  );
}
