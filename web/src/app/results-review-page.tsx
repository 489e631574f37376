import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import type { LabReview } from '../../../shared/labs/lab-review-format.js';
import { Button } from '../components/ui/button.js';
import { Spinner } from '../components/ui/spinner.js';
import { fetchNote, noteKeys } from '../features/notes/api/notes-api.js';
import { useNoteWindows } from '../features/notes/windows/note-windows-context.js';
import { ResultsReviewPage } from '../features/results-review/components/results-review-page.js';
import { refreshTasks } from '../features/tasks/api/task-badge.js';
import '../features/notes/notes.css';

/** The chart's own view of a lab note: its result tables, the trend of each value, the patient's other labs. */
const LabNoteView = lazy(() => import('../features/notes/components/lab-note-view.js'));

function LabResult({ review }: { review: LabReview }) {
  const windows = useNoteWindows();
  const note = useQuery({ queryKey: noteKeys.detail(review.noteId), queryFn: ({ signal }) => fetchNote(review.noteId, signal) });
  if (note.isPending) return <Spinner label="Loading lab results" />;
  if (note.isError) return <p role="alert">The lab note could not be loaded.</p>;
  return (
    <>
      <Button size="sm" variant="secondary" onPress={() => windows.openNote({ noteId: review.noteId, noteType: 'LAB', patientId: review.patientId })}>
        Open lab note
      </Button>
      <Suspense fallback={<Spinner label="Loading lab results" />}>
        <LabNoteView note={note.data} editable={false} />
      </Suspense>
    </>
  );
}

/** /results-review: the review list from its feature, the lab view and the tasks refresh from theirs. */
export function ResultsReviewRoute() {
  const queryClient = useQueryClient();
  return <ResultsReviewPage renderResult={(review) => <LabResult review={review} />} onTaskCreated={() => refreshTasks(queryClient)} />;
}
