import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { maySignPrescription } from '../../../../../shared/notes/rx.js';
import { useCurrentUser } from '../../../lib/practice.js';
import { noteKeys } from '../api/notes-api.js';
import { openEPrescribe } from './eprescribe.js';

export const EPRESCRIBE_LABEL = 'ePrescribe';

/** Spec shell §2.6 ePrescribe (DoseSpot): offered to prescribers only; null for anyone else. */
export function useEPrescribe(): ((patientId: string | null) => void) | null {
  const me = useCurrentUser();
  const queryClient = useQueryClient();
  const prescriber = !!me.data && maySignPrescription(me.data);
  const open = useCallback(
    (patientId: string | null) =>
      void openEPrescribe(patientId, () => {
        void queryClient.invalidateQueries({ queryKey: noteKeys.all });
        // Each synced prescription also added a chart medication.
        if (patientId) void queryClient.invalidateQueries({ queryKey: ['patients', patientId, 'medications'] });
      }),
    [queryClient],
  );
  return prescriber ? open : null;
}
