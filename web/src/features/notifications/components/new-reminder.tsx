import { lazy, Suspense, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Button } from '../../../components/ui/button.js';
import type { useCreateReminder } from '../api/reminders-api.js';

const NewReminderForm = lazy(() => import('./new-reminder-form.js').then((m) => ({ default: m.NewReminderForm })));

/**
 * The dashboard's place to add a reminder for oneself: closed behind a button, open when the
 * palette's "Create a reminder" leads here (?reminder=new, with the chart's patientId when it came
 * from a chart).
 */
export function NewReminder({ create }: { create: ReturnType<typeof useCreateReminder> }) {
  const [search, setSearch] = useSearchParams();
  const asked = search.get('reminder') === 'new';
  const patientId = asked ? search.get('patientId') : null;
  const [open, setOpen] = useState(asked);
  useEffect(() => {
    if (asked) setOpen(true);
  }, [asked]);

  if (!open) {
    return (
      <div className="tw-widget__actions">
        <Button onPress={() => setOpen(true)}>New reminder</Button>
      </div>
    );
  }
  const close = () => {
    setOpen(false);
    if (asked) setSearch({}, { replace: true });
  };
  return (
    <Suspense fallback={null}>
      <NewReminderForm create={create} patientId={patientId} asked={asked} onClose={close} />
    </Suspense>
  );
}
