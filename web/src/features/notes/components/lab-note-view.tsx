import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Dialog as AriaDialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import {
  formatLabNumber,
  LAB_MESSAGES,
  LAB_TESTS,
  labAbnormality,
  labPaymentNotice,
  labTableNotes,
  labRangeText,
  labValueText,
  PAYMENT_STATUS_LABEL,
  type LabNoteData,
  type LabResultItem,
  type LabTestCode,
  type LabTrend,
} from '../../../../../shared/labs/lab-schema.js';
import type { Note } from '../../../../../shared/notes/note-schema.js';
import { Button } from '../../../components/ui/button.js';
import { Checkbox } from '../../../components/ui/checkbox.js';
import { MODAL_WIDTH } from '../../../components/ui/dialog.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { FilePreview } from '../../../components/files/file-preview.js';
import { isApiError } from '../../../lib/api-error.js';
import { useFeatureFlag } from '../../../lib/feature-flags.js';
import { paths } from '../../../lib/paths.js';
import { fetchLabNotes, fetchLabPdf, fetchLabTrend, orderLab } from '../api/labs-api.js';
import { useNoteWindows } from '../windows/note-windows-context.js';
import { noteKeys } from '../api/notes-api.js';

/** How often an open lab note asks for results while the order waits at the lab. */
const RESULTS_POLL_MS = 3_000;
const FLAG_LABEL = { high: 'High', low: 'Low', abnormal: 'Abnormal' } as const;

function errorMessage(error: unknown): string {
  if (isApiError(error)) return error.message;
  return error instanceof Error ? error.message : String(error);
}

/** A LAB note (spec notes §2–§9): the order form, then the order's status and the lab's results. */
export default function LabNoteView({ note, editable }: { note: Note; editable: boolean }) {
  const data = note.data as LabNoteData;
  // Kept here: the ordered note replaces the form's, and the result screen must stay until it closes the window.
  const [submitted, setSubmitted] = useState(false);
  if (submitted) {
    // The practice's note-result screen: 'Order submitted!', then it asks this window to close.
    return <iframe className="tw-lab-result-frame" title="Lab order result" src={`/#${paths.noteResult(note.noteId, { type: 'lab' })}`} />;
  }
  // An imported report was never ordered here: it is a record of results, with nothing to order or wait for.
  if (data.source === 'import') return <ImportedLabView note={note} />;
  if (!data.hgId) return <LabOrderForm note={note} editable={editable} onSubmitted={() => setSubmitted(true)} />;
  return <LabOrderDetails note={note} />;
}

function LabOrderForm({ note, editable, onSubmitted }: { note: Note; editable: boolean; onSubmitted: () => void }) {
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

function LabOrderDetails({ note }: { note: Note }) {
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
      {note.patientId ? <LabTable patientId={note.patientId} currentNoteId={note.noteId} /> : null}
      {trendOf && note.patientId ? <LabTrendDialog patientId={note.patientId} item={trendOf} onClose={() => setTrendOf(null)} /> : null}
    </div>
  );
}

/** The lab report PDF on the practice's letterhead, downloaded. */
function LabPrint({ noteId }: { noteId: string }) {
  const [printing, setPrinting] = useState(false);
  const [printError, setPrintError] = useState<string | null>(null);
  const print = async () => {
    setPrintError(null);
    setPrinting(true);
    try {
      const { fileName, blob } = await fetchLabPdf(noteId);
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = fileName;
      link.click();
      window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch {
      setPrintError(LAB_MESSAGES.pdfError);
    } finally {
      setPrinting(false);
    }
  };

  return (
    <div className="tw-lab__actions">
      <Button size="sm" onPress={() => void print()} isPending={printing}>
        Print
      </Button>
      {printError ? (
        <p className="tw-lab__error" role="alert">
          {printError}
        </p>
      ) : null}
    </div>
  );
}

/** One table per panel the lab reported: each line's value, its flag when out of range, and the reference range. */
function LabResultTables({ results, trending, onTrend, issued = false }: { results: LabResultItem[]; trending: boolean; onTrend: (item: LabResultItem) => void; issued?: boolean }) {
  const panels = [...new Set(results.map((r) => r.panel ?? ''))];
  return (
    <>
      {panels.map((panel) => (
        // A narrow window scrolls a wide table sideways; the region takes focus so the keyboard can scroll it.
        <div key={panel} className="tw-lab__results-scroll" role="region" aria-label={`${panel || 'Results'}, scrollable`} tabIndex={0}>
          <table className="tw-lab__results">
            <caption>{panel || 'Results'}</caption>
            <thead>
              <tr>
                <th scope="col">Test</th>
                <th scope="col">Result</th>
                <th scope="col">Flag</th>
                <th scope="col">Reference range</th>
                {issued ? <th scope="col">Issued</th> : null}
                {trending ? <th scope="col">Trend</th> : null}
              </tr>
            </thead>
            <tbody>
              {results
                .filter((r) => (r.panel ?? '') === panel)
                .map((r) => {
                  const flag = labAbnormality(r);
                  return (
                    <tr key={r.id} className={flag ? 'tw-lab__row--abnormal' : undefined}>
                      <th scope="row">{r.text}</th>
                      <td>{labValueText(r)}</td>
                      <td>{flag ? <span className="tw-lab__flag">{FLAG_LABEL[flag]}</span> : ''}</td>
                      <td>{labRangeText(r)}</td>
                      {issued ? <td>{r.issued ? formatDay(r.issued) : ''}</td> : null}
                      {trending ? (
                        <td>
                          {r.valueQuantity ? (
                            <Button size="sm" variant="secondary" aria-label={`Trend of ${r.text}`} onPress={() => onTrend(r)}>
                              Trend
                            </Button>
                          ) : null}
                        </td>
                      ) : null}
                    </tr>
                  );
                })}
            </tbody>
          </table>
        </div>
      ))}
    </>
  );
}

const formatDay = (iso: string) => new Date(iso).toLocaleDateString('en-US');
const STATUS_LABEL: Record<string, string> = { ordered: 'Ordered', partial: 'Preliminary', final: 'Final', cancelled: 'Cancelled' };

/**
 * A lab report brought in from a FHIR bundle: read-only, with no order form and nothing to send to
 * the lab, since no order of it exists at any lab this practice works with.
 */
function ImportedLabView({ note }: { note: Note }) {
  const data = note.data as LabNoteData;
  const trending = useFeatureFlag('trending_labs');
  const [trendOf, setTrendOf] = useState<LabResultItem | null>(null);
  const results = data.results ?? [];
  const conclusions = Object.entries(data.conclusions ?? {}).map(([reportId, text]) => ({ reportId, text, panel: results.find((r) => r.reportId === reportId)?.panel }));
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
      {note.patientId ? <LabTable patientId={note.patientId} currentNoteId={note.noteId} /> : null}
      {trendOf && note.patientId ? <LabTrendDialog patientId={note.patientId} item={trendOf} onClose={() => setTrendOf(null)} /> : null}
    </div>
  );
}

function LabTrendDialog({ patientId, item, onClose }: { patientId: string; item: LabResultItem; onClose: () => void }) {
  const trend = useQuery({ queryKey: ['labs', 'trend', patientId, item.code], queryFn: ({ signal }) => fetchLabTrend(patientId, item.code, signal) });
  return (
    <ModalOverlay isOpen onOpenChange={(open) => (open ? undefined : onClose())} isDismissable className="tw-modal-overlay">
      <Modal className="tw-modal" style={{ width: MODAL_WIDTH.md }}>
        <AriaDialog className="tw-dialog">
          {({ close }) => (
            <>
              <Heading slot="title" className="tw-dialog__title">
                {item.text} over time
              </Heading>
              <div className="tw-dialog__body">
                {trend.isPending ? <Spinner label="Loading trend" /> : trend.isError ? <p role="alert">{errorMessage(trend.error)}</p> : <TrendChart trend={trend.data} />}
              </div>
              <div className="tw-dialog__actions">
                <Button variant="secondary" onPress={close}>
                  Close
                </Button>
              </div>
            </>
          )}
        </AriaDialog>
      </Modal>
    </ModalOverlay>
  );
}

/** One analyte's values (numeric only) as a line over time, with the reference band and a table of the same numbers. */
function TrendChart({ trend }: { trend: LabTrend }) {
  const points = trend.points;
  if (points.length === 0) return <p>No numeric values to trend.</p>;
  const width = 560;
  const height = 220;
  const pad = { left: 56, right: 16, top: 16, bottom: 32 };
  const range = points[points.length - 1]?.ranges?.[0];
  const values = [...points.map((p) => p.value), ...(range?.low !== undefined ? [range.low] : []), ...(range?.high !== undefined ? [range.high] : [])];
  let min = Math.min(...values);
  let max = Math.max(...values);
  if (min === max) {
    min -= 1;
    max += 1;
  }
  const span = max - min;
  min -= span * 0.1;
  max += span * 0.1;
  const x = (i: number) => pad.left + (points.length === 1 ? (width - pad.left - pad.right) / 2 : (i * (width - pad.left - pad.right)) / (points.length - 1));
  const y = (v: number) => pad.top + ((max - v) * (height - pad.top - pad.bottom)) / (max - min);
  const unit = points[0]?.unit ?? '';
  const ticks = [max, (max + min) / 2, min];
  return (
    <figure className="tw-lab-trend">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`${trend.text} trend, ${points.length} values`}>
        {range?.low !== undefined && range?.high !== undefined ? (
          <rect x={pad.left} width={width - pad.left - pad.right} y={y(range.high)} height={y(range.low) - y(range.high)} className="tw-lab-trend__band" />
        ) : null}
        {ticks.map((t) => (
          <g key={t}>
            <line x1={pad.left} x2={width - pad.right} y1={y(t)} y2={y(t)} className="tw-lab-trend__grid" />
            <text x={pad.left - 6} y={y(t) + 4} textAnchor="end" className="tw-lab-trend__label">
              {formatLabNumber(t)}
            </text>
          </g>
        ))}
        <polyline points={points.map((p, i) => `${x(i)},${y(p.value)}`).join(' ')} className="tw-lab-trend__line" />
        {points.map((p, i) => (
          <g key={`${p.noteId}-${i}`}>
            <circle cx={x(i)} cy={y(p.value)} r={4} className={p.interpretation && p.interpretation !== 'N' ? 'tw-lab-trend__point tw-lab-trend__point--abnormal' : 'tw-lab-trend__point'} />
            <text x={x(i)} y={height - 10} textAnchor="middle" className="tw-lab-trend__label">
              {p.day}
            </text>
          </g>
        ))}
      </svg>
      <table className="tw-lab__results">
        <caption>
          {trend.text}
          {unit ? ` (${unit})` : ''}
        </caption>
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Value</th>
          </tr>
        </thead>
        <tbody>
          {points.map((p, i) => (
            <tr key={`${p.noteId}-${i}`} className={p.interpretation && p.interpretation !== 'N' ? 'tw-lab__row--abnormal' : undefined}>
              <td>{p.day}</td>
              <td>{formatLabNumber(p.value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

/** The patient's lab results over time (deleted notes and orders still at the lab left out); each opens its note. */
function LabTable({ patientId, currentNoteId }: { patientId: string; currentNoteId: string }) {
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
                  <Button size="sm" variant="secondary" aria-label={`Open lab of ${day}`} onPress={() => windows.openNote({ noteId: n.noteId, noteType: 'LAB', patientId })}>
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
