import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { AppointmentOccurrence } from '../../../../../shared/calendar/calendar-responses.js';
import { hoursConflict } from '../../../../../shared/calendar/working-hours.js';
import { showToast } from '../../../lib/toasts.js';
import { fetchUserCalendarSettings, useSaveAppointment } from '../api/calendar-api.js';
import { timeLabel } from '../calendar-dates.js';
import { movedInput, type ChangeScope } from './appointment-changes.js';

/** A move or resize waiting on the questions it asks: outside the provider's time, then which of a series. */
export interface PendingChange {
  occurrence: AppointmentOccurrence;
  start: string;
  end: string;
  step: 'hours' | 'scope';
  conflict: { kind: 'off' | 'blocked'; label: string } | null;
}

/**
 * Saving a dragged or keyed move of an appointment: asks first when the new time is outside the
 * provider's hours, then which of a series to change, and says what happened (a toast, or the
 * server's refusal in moveError).
 */
export function useAppointmentMoves(timeZone: string | undefined) {
  const queryClient = useQueryClient();
  const save = useSaveAppointment();
  const [pending, setPending] = useState<PendingChange | null>(null);
  const [moveError, setMoveError] = useState<string | null>(null);

  async function commit(change: PendingChange, scope: ChangeScope) {
    setPending(null);
    const o = change.occurrence;
    try {
      await save.mutateAsync({
        appointmentId: o.appointmentId,
        input: movedInput(o, change.start, change.end, scope),
        occurrence: scope === 'one' ? o.occurrenceDay : undefined,
      });
      setMoveError(null);
      showToast(`Appointment moved to ${timeLabel(change.start, timeZone!)} – ${timeLabel(change.end, timeZone!)}`, { tone: 'success' });
    } catch (error) {
      setMoveError(error instanceof Error ? error.message : 'The appointment was not moved');
    }
  }
  const afterHours = (change: PendingChange) => (change.occurrence.recurring ? setPending({ ...change, step: 'scope' }) : void commit(change, 'series'));
  /** A drag or a key moved or resized an occurrence: ask what needs asking, then save. */
  async function requestChange(occurrence: AppointmentOccurrence, start: string, end: string) {
    setMoveError(null);
    let conflict: PendingChange['conflict'] = null;
    try {
      const theirs = await fetchUserCalendarSettings(queryClient, occurrence.providerId);
      conflict = hoursConflict(start, end, timeZone!, theirs);
    } catch {
      // Without their settings the move is still checked for double booking by the server.
    }
    const change: PendingChange = { occurrence, start, end, step: 'hours', conflict };
    if (conflict) setPending(change);
    else afterHours(change);
  }

  return { pending, moveError, requestChange, afterHours, commit, dismiss: () => setPending(null) };
}
