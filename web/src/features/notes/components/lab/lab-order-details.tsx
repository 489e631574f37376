import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { labPaymentNotice, PAYMENT_STATUS_LABEL, type LabNoteData, type LabResultItem } from '../../../../../../shared/labs/lab-schema.js';
import type { Note } from '../../../../../../shared/notes/note-schema.js';
import { Spinner } from '../../../../components/ui/spinner.js';
import { useFeatureFlag } from '../../../../lib/feature-flags.js';
import { noteKeys } from '../../api/notes-api.js';
import { LabPrint } from './lab-print.js';
import { LabResultTables } from './lab-result-tables.js';
import { LabTrendDialog } from './lab-trend-dialog.js';
import { PatientLabTable } from './patient-lab-table.js';

/** How often an open lab note asks for results while the order waits at the lab. */
const RESULTS_POLL_MS = 3_000;

/** An ordered lab: the order's status, then the lab's results as they come in (asked for again while the order waits). */
export function LabOrderDetails({ note }: { note: Note }) {
  const data = note.data as LabNoteData;
  const queryClient = useQueryClient();
  const waiting = data.orderStatus !== 'final' && data.orderStatus !== 'cancelled';
  const trending = useFeatureFlag('trending_labs');
  const [trendOf, setTrendOf] = useState<LabResultItem | null>(null);

  useEffect(() => {
    if (!waiting) return;
    const timer = window.setInterval(() => void queryClient.invalidateQueries({ queryKey: noteKeys.detail(note.noteId) }), RESULTS_POLL_MS);
    return () => window.clearInterval(timer);
  }, [waiting, note.noteId, queryClient]);

  const results = data.results ?? [];
  return (
    <div className="tw-lab">
      <dl className="tw-lab__order">
        <div>
          <dt>Ordered from</dt>
          <dd>{data.orderedFrom}</dd>
        </div>
        <div>
          <dt>Requisition</dt>
          <dd>{data.labReferenceId || '—'}</dd>
        </div>
        <div>
          <dt>Order status</dt>
          <dd>{data.orderStatus}</dd>
        </div>
        <div>
          <dt>Ordering provider</dt>
          <dd>{data.orderingProvider?.name}</dd>
        </div>
        <div>
          <dt>Tests</dt>
          <dd>{(data.actions ?? []).map((a) => a.display).join(', ')}</dd>
        </div>
        <div>
          <dt>Payment</dt>
          <dd>{data.paymentStatus ? PAYMENT_STATUS_LABEL[data.paymentStatus] : '—'}</dd>
        </div>
      </dl>
      {labPaymentNotice(data.paymentStatus) ? (
        <p className="tw-lab__error" role="alert">
          {labPaymentNotice(data.paymentStatus)}
        </p>
      ) : null}
      {results.length === 0 ? (
        <p className="tw-lab__waiting" role="status">
          <Spinner label="Waiting for results" /> Waiting for results from {data.orderedFrom}.
        </p>
      ) : (
        <LabResultTables results={results} trending={trending} onTrend={setTrendOf} />
      )}
      <LabPrint noteId={note.noteId} />
      {note.patientId ? <PatientLabTable patientId={note.patientId} currentNoteId={note.noteId} /> : null}
      {trendOf && note.patientId ? <LabTrendDialog patientId={note.patientId} item={trendOf} onClose={() => setTrendOf(null)} /> : null}
    </div>
  );
}
