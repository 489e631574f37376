import { useEffect } from 'react';
import { Navigate, useParams, useSearchParams } from 'react-router-dom';
import { Button } from '../../../components/ui/button.js';
import { usePartnerApps } from '../../../lib/partner-apps.js';
import { paths } from '../../../lib/paths.js';
import { noteResultContent } from '../note-result.js';
import '../note-result.css';

const inFrame = () => window.parent !== window;

/**
 * Result screen shown inside a frame after an order. It stays until the user closes it (Close or
 * Escape), which asks the parent to close the note: a screen that left by itself after two seconds
 * could not be read by a screen-reader or keyboard user.
 */
export function NoteResultPage() {
  const { noteId } = useParams();
  const [params] = useSearchParams();
  const framed = inFrame();
  const apps = usePartnerApps();
  const close = () => {
    if (noteId) window.parent.postMessage({ type: 'closeNote', noteId }, '*');
  };

  useEffect(() => {
    if (!framed || !noteId) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') window.parent.postMessage({ type: 'closeNote', noteId }, '*');
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [framed, noteId]);

  if (!framed) return <Navigate to={paths.home()} replace />;
  // The invoice's "View Invoice" is the core product's, there only when the practice has its membership origin.
  const content = noteResultContent(params.get('type'), params.get('responseCode'), apps.isPending || !!apps.data?.membership);
  if (!content) return null;
  return (
    <main className="tw-note-result">
      <h1 className="tw-note-result__heading">{content.heading}</h1>
      <p className="tw-note-result__text" role="status">
        {content.text}
      </p>
      {noteId ? (
        <Button variant="primary" size="sm" onPress={close} autoFocus>
          Close
        </Button>
      ) : null}
    </main>
  );
}
