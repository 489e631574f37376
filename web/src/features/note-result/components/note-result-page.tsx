import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Navigate, useParams, useSearchParams } from 'react-router-dom';
import { partnerAppsQuery } from '../../../lib/partner-apps.js';
import { paths } from '../../../lib/paths.js';
import { coreProductFrom, NOTE_RESULT_CLOSE_DELAY_MS, noteResultContent } from '../note-result.js';
import '../note-result.css';

const inFrame = () => window.parent !== window;

/** Result screen shown inside a partner's frame after an order; it asks the parent to close the note. */
export function NoteResultPage() {
  const { noteId } = useParams();
  const [params] = useSearchParams();
  const framed = inFrame();
  const type = params.get('type');
  // Only a lab's hint depends on the core product; the heading and the close never wait for it.
  const apps = useQuery({ ...partnerAppsQuery, enabled: framed && type === 'lab' });

  useEffect(() => {
    if (!framed || !noteId) return;
    const timer = setTimeout(() => window.parent.postMessage({ type: 'closeNote', noteId }, '*'), NOTE_RESULT_CLOSE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [framed, noteId]);

  if (!framed) return <Navigate to={paths.home()} replace />;
  const content = noteResultContent(type, params.get('responseCode'), coreProductFrom(apps.status, apps.data));
  if (!content) return null;
  return (
    <main className="tw-note-result">
      <h1 className="tw-note-result__heading">{content.heading}</h1>
      <p className="tw-note-result__text" aria-live="polite">
        {content.text}
      </p>
    </main>
  );
}
