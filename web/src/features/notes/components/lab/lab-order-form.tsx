import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { LAB_MESSAGES, LAB_TESTS, type LabTestCode } from '../../../../../../shared/labs/lab-schema.js';
import type { Note } from '../../../../../../shared/notes/note-schema.js';
import { Button } from '../../../../components/ui/button.js';
import { Checkbox } from '../../../../components/ui/checkbox.js';
import { orderLab } from '../../api/labs-api.js';
import { noteKeys } from '../../api/notes-api.js';
import { errorMessage } from './lab-format.js';

/** A lab note not yet ordered: the tests to order and Order lab, which sends the order and hands the saved note to the cache. */
export function LabOrderForm({ note, editable, onSubmitted }: { note: Note; editable: boolean; onSubmitted: () => void }) {
  const queryClient = useQueryClient();
  const [tests, setTests] = useState<LabTestCode[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const order = async () => {
    setError(null);
    if (!note.patientId) return setError(LAB_MESSAGES.noPatient);
    if (tests.length === 0) return setError(LAB_MESSAGES.noTests);
    setPending(true);
    try {
      const saved = await orderLab(note.noteId, { noteVersion: note.noteVersion, tests });
      onSubmitted();
      queryClient.setQueryData(noteKeys.detail(note.noteId), saved);
      void queryClient.invalidateQueries({ queryKey: noteKeys.timelines() });
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setPending(false);
    }
  };
  return (
    <div className="tw-lab">
      <fieldset className="tw-lab__tests" disabled={!editable}>
        <legend className="tw-field__label">Tests to order</legend>
        {LAB_TESTS.map((t) => (
          <Checkbox
            key={t.code}
            label={t.display}
            isDisabled={!editable}
            isSelected={tests.includes(t.code)}
            onChange={(on) => {
              setError(null);
              setTests((now) => (on ? [...now, t.code] : now.filter((c) => c !== t.code)));
            }}
          />
        ))}
      </fieldset>
      {error ? (
        <p className="tw-lab__error" role="alert">
          {error}
        </p>
      ) : null}
      {editable ? (
        <Button variant="primary" size="sm" onPress={() => void order()} isPending={pending}>
          Order lab
        </Button>
      ) : null}
    </div>
  );
}
