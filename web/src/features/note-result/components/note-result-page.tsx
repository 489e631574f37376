import { useEffect } from 'react';
import { Navigate, useParams, useSearchParams } from 'react-router-dom';
import { paths } from '../../../lib/paths.js';
import { NOTE_RESULT_CLOSE_DELAY_MS, noteResultContent } from '../note-result.js';
import '../note-result.css';

const inFrame = () => window.parent !== window;

/** Result screen shown inside a partner's frame after an order; it asks the parent to close the note. */
export function NoteResultPage() {
  const { noteId } = useParams();
  const [params] = useSearchParams();
  const framed = inFrame();

  useEffect(() => {
    if (!framed || !noteId) return;
    const timer = setTimeout(() => window.parent.postMessage({ type: 'closeNote', noteId }, '*'), NOTE_RESULT_CLOSE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [framed, noteId]);

  if (!framed) return <Navigate to={paths.home()} replace />;
  const content = noteResultContent(params.get('type'), params.get('responseCode'));
  if (!content) return null;
  return (
    <main className="tw-note-result">
      <h1 className="tw-note-result__heading">{content.heading}</h1>
      <p className="tw-note-result__text">{content.text}</p>
    </main>
  );
}
