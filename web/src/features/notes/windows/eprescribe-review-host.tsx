import { lazy, Suspense } from 'react';
import { setEPrescribeReview, useEPrescribeReviewRequest } from './use-eprescribe.js';

/** The step's dialog is fetched the first time a prescriber opens ePrescribe on a patient. */
const EPrescribeReviewDialog = lazy(() => import('./eprescribe-review-dialog.js').then((m) => ({ default: m.EPrescribeReviewDialog })));

/** The before-e-prescribing step over every route, or nothing while nobody is opening ePrescribe. */
export function EPrescribeReviewHost() {
  const request = useEPrescribeReviewRequest();
  if (!request) return null;
  return (
    <Suspense fallback={null}>
      <EPrescribeReviewDialog request={request} onClose={() => setEPrescribeReview(null)} />
    </Suspense>
  );
}
