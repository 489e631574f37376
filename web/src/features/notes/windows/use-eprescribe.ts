import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import { maySignPrescription } from '../../../../../shared/notes/rx-signing.js';
import { useCurrentUser } from '../../../lib/practice.js';
import { noteKeys } from '../api/note-keys.js';
import { openEPrescribe } from './eprescribe.js';

export const EPRESCRIBE_LABEL = 'ePrescribe';

/** A patient waiting at the before-e-prescribing step (EPrescribeReviewHost shows it). */
export interface EPrescribeReviewRequest {
  patientId: string;
  onSynced: () => void;
}

let request: EPrescribeReviewRequest | null = null;
const listeners = new Set<() => void>();

export function setEPrescribeReview(next: EPrescribeReviewRequest | null): void {
  request = next;
  for (const listener of listeners) listener();
}

export function useEPrescribeReviewRequest(): EPrescribeReviewRequest | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => request,
  );
}

/**
 * Spec shell §2.6 ePrescribe (DoseSpot): offered to prescribers only; null for anyone else. With a
 * patient, DoseSpot opens from the before-e-prescribing step (the patient's active allergies and
 * medications, confirmed), since the drug is chosen inside DoseSpot where Tidewell cannot check it.
 */
export function useEPrescribe(): ((patientId: string | null) => void) | null {
  const me = useCurrentUser();
  const queryClient = useQueryClient();
  const prescriber = !!me.data && maySignPrescription(me.data);
  const open = useCallback(
    (patientId: string | null) => {
      if (!patientId) {
        void openEPrescribe(null, () => undefined);
        return;
      }
      setEPrescribeReview({
        patientId,
        onSynced: () => {
          void queryClient.invalidateQueries({ queryKey: noteKeys.all });
          // Each synced prescription also added a chart medication.
          void queryClient.invalidateQueries({ queryKey: ['patients', patientId, 'medications'] });
        },
      });
    },
    [queryClient],
  );
  return prescriber ? open : null;
}
