import { useQuery } from '@tanstack/react-query';
import { labAbnormality, labTableNotes, type LabNoteData } from '../../../../../../shared/labs/lab-schema.js';
import { Button } from '../../../../components/ui/button.js';
import { Spinner } from '../../../../components/ui/spinner.js';
import { noteKeys } from '../../api/notes-api.js';
import { fetchLabNotes } from '../../api/labs-api.js';
import { useNoteWindows } from '../../windows/note-windows-context.js';

/** The patient's lab results over time (deleted notes and orders still at the lab left out); each opens its note. */
export function PatientLabTable({ patientId, currentNoteId }: { patientId: string; currentNoteId: string }) {
  const windows = useNoteWindows();
  const labs = useQuery({ queryKey: [...noteKeys.all, 'labs', patientId], queryFn: ({ signal }) => fetchLabNotes(patientId, signal) });
  if (labs.isPending) return <Spinner label="Loading lab results" />;
  if (labs.isError) return null;
  const rows = labTableNotes(labs.data);
  if (rows.length === 0) return null;
  return (
    <table className="tw-lab__results">
      <caption>Lab results for this patient</caption>
      <thead>
        <tr>
          <th scope="col">Date</th>
          <th scope="col">Tests</th>
          <th scope="col">Out of range</th>
          <th scope="col">
            <span className="tw-visually-hidden">Open</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((n) => {
          const d = n.data as LabNoteData;
          const out = (d.results ?? []).filter((r) => labAbnormality(r) !== null).length;
          const day = new Date(n.eventTimestamp).toLocaleDateString('en-US');
          return (
            <tr key={n.noteId}>
              <td>{day}</td>
              <td>{(d.actions ?? []).map((a) => a.display).join(', ')}</td>
              <td>{out}</td>
              <td>
                {n.noteId === currentNoteId ? (
                  'This note'
                ) : (
                  <Button
                    size="sm"
                    variant="secondary"
                    aria-label={`Open lab of ${day}`}
                    onPress={() => windows.openNote({ noteId: n.noteId, noteType: 'LAB', patientId })}
                  >
                    Open
                  </Button>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
