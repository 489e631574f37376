import { useState } from 'react';
import type { LabNoteData, LabResultItem } from '../../../../../../shared/labs/lab-schema.js';
import type { Note } from '../../../../../../shared/notes/note-schema.js';
import { FilePreview } from '../../../../components/files/file-preview.js';
import { useFeatureFlag } from '../../../../lib/feature-flags.js';
import { formatDay } from './lab-format.js';
import { LabPrint } from './lab-print.js';
import { LabResultTables } from './lab-result-tables.js';
import { LabTrendDialog } from './lab-trend-dialog.js';
import { PatientLabTable } from './patient-lab-table.js';

const STATUS_LABEL: Record<string, string> = { ordered: 'Ordered', partial: 'Preliminary', final: 'Final', cancelled: 'Cancelled' };

/**
 * A lab report brought in from a FHIR bundle: read-only, with no order form and nothing to send to
 * the lab, since no order of it exists at any lab this practice works with.
 */
export function ImportedLabView({ note }: { note: Note }) {
  const data = note.data as LabNoteData;
  const trending = useFeatureFlag('trending_labs');
  const [trendOf, setTrendOf] = useState<LabResultItem | null>(null);
  const results = data.results ?? [];
  const conclusions = Object.entries(data.conclusions ?? {}).map(([reportId, text]) => ({
    reportId,
    text,
    panel: results.find((r) => r.reportId === reportId)?.panel,
  }));
  return (
    <div className="tw-lab">
      <p className="tw-lab__imported">Imported lab report: a record of results from another system. It cannot be ordered or changed here.</p>
      <dl className="tw-lab__order">
        <div>
          <dt>Performing lab</dt>
          <dd>{data.orderedFrom || '—'}</dd>
        </div>
        <div>
          <dt>Tests</dt>
          <dd>{(data.actions ?? []).map((a) => a.display).join(', ') || '—'}</dd>
        </div>
        <div>
          <dt>Report status</dt>
          <dd>{STATUS_LABEL[data.orderStatus ?? 'final']}</dd>
        </div>
        <div>
          <dt>Collected</dt>
          <dd>{data.collectedAt ? formatDay(data.collectedAt) : '—'}</dd>
        </div>
        <div>
          <dt>Reported</dt>
          <dd>{data.lastUpdated ? formatDay(data.lastUpdated) : '—'}</dd>
        </div>
      </dl>
      {data.text && !conclusions.some((c) => c.text === data.text) ? <p className="tw-lab__text">{data.text}</p> : null}
      {results.length ? <LabResultTables results={results} trending={trending} onTrend={setTrendOf} issued /> : <p>The report holds no result lines.</p>}
      {conclusions.map((c) => (
        <section key={c.reportId} className="tw-lab__conclusion" aria-label={`Conclusion${c.panel ? ` of ${c.panel}` : ''}`}>
          <h3>Conclusion{c.panel ? `: ${c.panel}` : ''}</h3>
          <p>{c.text}</p>
        </section>
      ))}
      {note.files.length ? (
        <section className="tw-lab__files" aria-label="Lab report file">
          {note.files.map((file) => (
            <FilePreview key={file.key} fileKey={file.key} name={file.name} />
          ))}
        </section>
      ) : null}
      <LabPrint noteId={note.noteId} />
      {note.patientId ? <PatientLabTable patientId={note.patientId} currentNoteId={note.noteId} /> : null}
      {trendOf && note.patientId ? <LabTrendDialog patientId={note.patientId} item={trendOf} onClose={() => setTrendOf(null)} /> : null}
    </div>
  );
}
