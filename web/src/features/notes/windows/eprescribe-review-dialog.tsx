import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Dialog as AriaDialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { EPRESCRIBE_REVIEW_MESSAGES as M } from '../../../../../shared/chart/eprescribe-review.js';
import { Button } from '../../../components/ui/button.js';
import { MODAL_WIDTH } from '../../../components/ui/dialog.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { ApiError } from '../../../lib/api-error.js';
import { confirmEPrescribeReview, fetchEPrescribeReview } from '../api/prescriptions-api.js';
import { openEPrescribe } from './eprescribe.js';
import './eprescribe-review.css';
import type { EPrescribeReviewRequest } from './use-eprescribe.js';

/**
 * Before e-prescribing: DoseSpot's drug is chosen inside its own window, where Tidewell cannot check
 * it against the chart, so the prescriber sees the patient's active allergies (severity, reaction)
 * and active medications first; continuing records the confirmation and opens DoseSpot.
 */
export function EPrescribeReviewDialog({ request, onClose }: { request: EPrescribeReviewRequest; onClose: () => void }) {
  const allergiesId = useId();
  const medicationsId = useId();
  const review = useQuery({
    queryKey: ['patients', request.patientId, 'eprescribe-review'],
    queryFn: ({ signal }) => fetchEPrescribeReview(request.patientId, signal),
    staleTime: 0,
    gcTime: 0,
  });
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onContinue = async () => {
    const shown = review.data;
    if (!shown || pending) return;
    // Opened at the click, so the browser does not take DoseSpot's tab for a popup.
    const tab = window.open('about:blank', '_blank');
    setPending(true);
    setError(null);
    try {
      await confirmEPrescribeReview(request.patientId, {
        allergyIds: shown.allergies.map((a) => a.ident),
        medicationIds: shown.medications.map((m) => m.ident),
      });
    } catch (err) {
      tab?.close();
      setPending(false);
      setError(err instanceof ApiError ? err.message : M.loadFailed);
      if (err instanceof ApiError && err.status === 409) void review.refetch();
      return;
    }
    onClose();
    void openEPrescribe(request.patientId, request.onSynced, tab);
  };

  return (
    <ModalOverlay isOpen onOpenChange={(open) => !open && onClose()} isDismissable className="tw-modal-overlay">
      <Modal className="tw-modal" style={{ width: MODAL_WIDTH.md }}>
        <AriaDialog className="tw-dialog tw-erx-review">
          <Heading slot="title" className="tw-dialog__title">
            {M.title}
          </Heading>
          {review.isPending ? (
            <Spinner label="Loading allergies and medications" />
          ) : review.isError ? (
            <p role="alert" className="tw-erx-review__error">
              {M.loadFailed}
            </p>
          ) : (
            <>
              <section aria-labelledby={allergiesId} className="tw-erx-review__section">
                <h3 id={allergiesId} className="tw-erx-review__heading">
                  {M.allergies}
                </h3>
                {review.data.allergies.length ? (
                  <ul className="tw-erx-review__list">
                    {review.data.allergies.map((a) => (
                      <li key={a.ident} className="tw-erx-review__item">
                        <span className="tw-erx-review__name">{a.name}</span>
                        <span className={`tw-erx-review__severity tw-erx-review__severity--${a.severity.toLowerCase().replace(/\W+/g, '-')}`}>
                          {a.severity}
                        </span>
                        <span>Reaction: {a.reaction}</span>
                      </li>
                    ))}
                  </ul>
                ) : (
                  <p className="tw-erx-review__empty">{M.noAllergies}</p>
                )}
              </section>
              <section aria-labelledby={medicationsId} className="tw-erx-review__section">
                <h3 id={medicationsId} className="tw-erx-review__heading">
                  {M.medications}
                </h3>
                {review.data.medications.length ? (
                  <ul className="tw-erx-review__list">
                    {review.data.medications.map((m) => (
                      <li key={m.ident} className="tw-erx-review__item">
                        <span className="tw-erx-review__name">{m.name}</span>
                        {m.instructions ? <span>{m.instructions}</span> : null}
                      </li>
                    ))}
                  </ul>
                ) : (
                  <p className="tw-erx-review__empty">{M.noMedications}</p>
                )}
              </section>
              <p className="tw-erx-review__note">{M.checkedOnSync}</p>
            </>
          )}
          {error ? (
            <p role="alert" className="tw-erx-review__error">
              {error}
            </p>
          ) : null}
          <div className="tw-dialog__actions">
            <Button variant="secondary" onPress={onClose}>
              Cancel
            </Button>
            <Button variant="primary" onPress={() => void onContinue()} isPending={pending} isDisabled={!review.data}>
              {M.confirm}
            </Button>
          </div>
        </AriaDialog>
      </Modal>
    </ModalOverlay>
  );
}
