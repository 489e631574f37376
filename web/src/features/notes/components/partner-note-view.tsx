import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { PARTNER_CLOSE_DELAY_MS, partnerFrameUrl, partnerMessageAction } from '../../../../../shared/partners/partner-schema.js';
import type { Note } from '../../../../../shared/notes/note-schema.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { partnerAppLabel, usePartnerApps } from '../../../lib/partner-apps.js';
import { noteKeys } from '../api/notes-api.js';

interface PartnerResult {
  title?: string;
  summary: string;
  fields?: { label: string; value: string }[];
}

/** What the partner wrote back, read-only (the note's data once its signed delivery arrived). */
function PartnerResultView({ result, partnerName }: { result: PartnerResult; partnerName: string }) {
  return (
    <div className="tw-partner-result">
      <h3 className="tw-partner-result__title">{result.title || partnerName}</h3>
      <p>{result.summary}</p>
      {result.fields?.length ? (
        <dl className="tw-partner-result__fields">
          {result.fields.map((f, i) => (
            <div key={i}>
              <dt>{f.label}</dt>
              <dd>{f.value}</dd>
            </div>
          ))}
        </dl>
      ) : null}
    </div>
  );
}

/**
 * A PARTNER note (spec shell §4 Partner windows): the partner's page in a sandboxed frame from its
 * origin, which the CSP's frame-src allows and nothing else. Window messages count only from that
 * origin: 'success' shows the success alert, 'closeNote' closes the window after 2000 ms; any other
 * origin's message is ignored and logged.
 */
export function PartnerNoteView({ note, onClose }: { note: Note; onClose: () => void }) {
  const apps = usePartnerApps();
  const queryClient = useQueryClient();
  const [alert, setAlert] = useState<string | null>(null);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  const partnerAppId = typeof note.data.partnerAppId === 'string' ? note.data.partnerAppId : '';
  const app = apps.data?.partnerApps.find((a) => a.partnerAppId === partnerAppId);
  const origin = app?.origin;

  useEffect(() => {
    if (!origin) return;
    let timer: number | undefined;
    const onMessage = (event: MessageEvent) => {
      const action = partnerMessageAction(event, origin);
      if (action.kind === 'ignored') {
        // Never the message's content: it may carry patient data.
        if (action.reason === 'origin' && event.origin !== window.location.origin)
          console.warn('Partner window: ignored a message from another origin', event.origin);
        else if (action.reason === 'origin') console.warn('Partner window: ignored a message not from the partner origin', event.origin);
        return;
      }
      if (action.kind === 'success') {
        setAlert(action.message);
        // The partner's signed delivery has written the note: the timeline and this note show it.
        void queryClient.invalidateQueries({ queryKey: noteKeys.all });
        return;
      }
      window.clearTimeout(timer);
      timer = window.setTimeout(() => closeRef.current(), PARTNER_CLOSE_DELAY_MS);
    };
    window.addEventListener('message', onMessage);
    return () => {
      window.removeEventListener('message', onMessage);
      window.clearTimeout(timer);
    };
  }, [origin, queryClient]);

  const result = note.data.result as PartnerResult | undefined;
  const partnerName = app ? partnerAppLabel(app) : String(note.data.partnerName ?? 'Partner app');
  if (result && typeof result.summary === 'string') {
    return (
      <>
        {alert ? (
          <p className="tw-partner-alert" role="alert">
            {alert}
          </p>
        ) : null}
        <PartnerResultView result={result} partnerName={partnerName} />
      </>
    );
  }
  if (apps.isPending) return <Spinner label="Loading partner app" />;
  if (!app) return <p className="tw-note-window__error">This partner app is not available to the practice any more.</p>;
  return (
    <div className="tw-partner-window">
      {alert ? (
        <p className="tw-partner-alert" role="alert">
          {alert}
        </p>
      ) : null}
      <iframe
        className="tw-partner-frame"
        title={partnerName}
        src={partnerFrameUrl(app, note.noteId, note.patientId)}
        // Scripts and forms for the partner's page; its own origin for its own calls; no top navigation, popups or downloads.
        sandbox="allow-scripts allow-forms allow-same-origin"
        referrerPolicy="no-referrer"
        allow=""
      />
    </div>
  );
}
