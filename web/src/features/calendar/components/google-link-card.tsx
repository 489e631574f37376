import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Badge } from '../../../components/ui/badge.js';
import { Button } from '../../../components/ui/button.js';
import { ConfirmDialog } from '../../../components/ui/dialog.js';
import { Select } from '../../../components/ui/select.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { runtimeConfig } from '../../../lib/runtime-config.js';
import { showToast } from '../../../lib/toasts.js';
import { chooseGoogleCalendar, fetchGoogleLink, finishGoogleLink, startGoogleLink, unlinkGoogle } from '../api/calendar-links-api.js';

/** What Google's redirect to /google-callback carried, passed on to this screen. */
const CALLBACK_KEYS = ['code', 'scope', 'state', 'error'] as const;

/**
 * The signed-in user's Google Calendar link: "Link Google Calendar" goes to Google's consent page,
 * which comes back here (by /google-callback) with the code this card hands to the server.
 */
export function GoogleLinkCard({ userId }: { userId: string }) {
  const queryClient = useQueryClient();
  const key = ['calendar', 'google', userId];
  const [params, setParams] = useSearchParams();
  const [problem, setProblem] = useState<string | null>(null);
  const [unlinking, setUnlinking] = useState(false);
  const [choice, setChoice] = useState<string | null>(null);
  const [choiceError, setChoiceError] = useState<string | null>(null);
  const status = useQuery({ queryKey: key, queryFn: ({ signal }) => fetchGoogleLink(userId, signal) });

  const start = useMutation({
    mutationFn: () => startGoogleLink(userId),
    onSuccess: ({ url }) => window.location.assign(url),
    onError: (error) => setProblem(error instanceof Error ? error.message : 'Google Calendar could not be linked'),
  });
  const finish = useMutation({
    mutationFn: (body: { code: string | null; scopes: string | null; state: string | null }) => finishGoogleLink(userId, body),
    // The screen's first read of the link may still be under way: its older answer must not replace the link's.
    onMutate: () => queryClient.cancelQueries({ queryKey: key }),
    onSuccess: (next) => {
      queryClient.setQueryData(key, next);
      setProblem(null);
      showToast('Google Calendar linked', { tone: 'success' });
    },
    onError: (error) => setProblem(error instanceof Error ? error.message : 'Google Calendar could not be linked'),
  });
  const choose = useMutation({
    mutationFn: (calendarId: string) => chooseGoogleCalendar(userId, calendarId),
    onSuccess: (next) => {
      queryClient.setQueryData(key, next);
      setChoice(null);
      setChoiceError(null);
      showToast('Google calendar saved', { tone: 'success' });
    },
    // The choice stays on screen to try again.
    onError: (error) => setChoiceError(error instanceof Error ? error.message : 'The calendar was not saved'),
  });
  const unlink = useMutation({
    mutationFn: () => unlinkGoogle(userId),
    onSuccess: (next) => {
      queryClient.setQueryData(key, next);
      showToast('Google Calendar unlinked', { tone: 'success' });
    },
    onError: (error) => showToast(error instanceof Error ? error.message : 'Not unlinked', { tone: 'error' }),
    onSettled: () => setUnlinking(false),
  });

  // The redirect's code is single-use: hand it over once, then take it out of the address bar.
  const handled = useRef(false);
  useEffect(() => {
    if (handled.current || !CALLBACK_KEYS.some((k) => params.has(k))) return;
    handled.current = true;
    const back = { code: params.get('code'), scopes: params.get('scope'), state: params.get('state') };
    const refused = params.get('error');
    const rest = new URLSearchParams(params);
    for (const k of CALLBACK_KEYS) rest.delete(k);
    setParams(rest, { replace: true });
    if (refused)
      setProblem(refused === 'access_denied' ? 'Google Calendar was not linked: access was not allowed.' : `Google Calendar was not linked (${refused}).`);
    else finish.mutate(back);
  }, [params, setParams, finish]);

  const linked = status.data?.linked ?? false;
  const writable = (status.data?.calendars ?? []).filter((c) => c.accessRole === 'owner' || c.accessRole === 'writer');
  const options = writable.map((c) => ({ id: c.id, label: c.primary ? `${c.summary} (primary)` : c.summary }));
  const saved = status.data?.calendarId ?? null;
  const current = choice ?? (writable.some((c) => c.id === saved) ? saved : null);
  const savedName = writable.find((c) => c.id === saved);
  const writes = linked && status.data?.writesEvents;
  return (
    <div className="tw-card tw-settings__card">
      <div className="tw-card__header">
        <h2 className="tw-card__title">Google Calendar</h2>
        {runtimeConfig().local ? <Badge>Local Google stand-in</Badge> : null}
      </div>
      <div className="tw-settings__form">
        <p className="tw-settings__muted">
          Link your own Google account and Tidewell adds the appointments you are the provider of to the Google calendar you choose, and keeps them up to date
          when they are moved or cancelled. Appointments already booked are added a few seconds after you link or choose another calendar. Each shows its type
          and place; patients&apos; names only if the practice turned them on for calendar feeds. Notes are never sent.
        </p>
        {status.isPending || finish.isPending ? <Spinner label={finish.isPending ? 'Linking Google Calendar' : 'Loading your Google Calendar link'} /> : null}
        {status.isError ? (
          <p className="tw-field__error" role="alert">
            {status.error.message}
          </p>
        ) : null}
        {problem ? (
          <p className="tw-field__error" role="alert">
            {problem}
          </p>
        ) : null}
        {status.data && !linked ? <p role="status">Google Calendar is not linked.</p> : null}
        {linked && status.data ? (
          <>
            <p role="status">Linked{status.data.linkedAt ? ` since ${new Date(status.data.linkedAt).toLocaleDateString('en-US')}` : ''}. Your calendars:</p>
            <ul className="tw-calendar__google-list" aria-label="Your Google calendars">
              {status.data.calendars.map((c) => (
                <li key={c.id}>
                  {c.summary}
                  {c.primary ? ' (primary)' : ''}
                </li>
              ))}
            </ul>
          </>
        ) : null}
        {linked && !writes ? (
          <p className="tw-field__error" role="alert">
            This link only reads your calendars. Unlink and link Google Calendar again to let Tidewell add your appointments.
          </p>
        ) : null}
        {writes ? (
          <form
            className="tw-calendar__google-choice"
            onSubmit={(e) => {
              e.preventDefault();
              if (current) choose.mutate(current);
              else setChoiceError('Choose a Google calendar');
            }}
          >
            <p role="status">
              Your appointments go to: <strong>{savedName ? savedName.summary : saved ? 'a calendar no longer in your list' : 'your primary calendar'}</strong>
            </p>
            <Select label="Calendar for your appointments" name="calendarId" options={options} value={current} onChange={setChoice} />
            {choiceError ? (
              <p className="tw-field__error" role="alert">
                {choiceError}
              </p>
            ) : null}
            <div className="tw-settings__actions">
              <Button variant="secondary" type="submit" isPending={choose.isPending}>
                Save calendar
              </Button>
            </div>
            {status.data?.lastSyncError ? (
              <p className="tw-field__error" role="alert">
                Last sync failed: {status.data.lastSyncError}
              </p>
            ) : status.data?.lastSyncAt ? (
              <p className="tw-settings__muted">
                Last written to Google {new Date(status.data.lastSyncAt).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' })}.
              </p>
            ) : null}
          </form>
        ) : null}
        <div className="tw-settings__actions">
          {linked ? (
            <Button variant="danger" onPress={() => setUnlinking(true)}>
              Unlink Google Calendar
            </Button>
          ) : (
            <Button variant="primary" onPress={() => start.mutate()} isPending={start.isPending} isDisabled={status.isPending || finish.isPending}>
              Link Google Calendar
            </Button>
          )}
        </div>
      </div>
      <ConfirmDialog
        isOpen={unlinking}
        onOpenChange={setUnlinking}
        title="Unlink Google Calendar?"
        confirmLabel="Unlink"
        tone="danger"
        isPending={unlink.isPending}
        onConfirm={() => unlink.mutate()}
      >
        Tidewell takes the appointments it added out of your Google calendar, then gives up its access to your Google account. You can link it again at any
        time.
      </ConfirmDialog>
    </div>
  );
}
