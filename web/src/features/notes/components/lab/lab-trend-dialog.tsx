import { useQuery } from '@tanstack/react-query';
import { Dialog as AriaDialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { formatLabNumber, type LabResultItem, type LabTrend } from '../../../../../../shared/labs/lab-schema.js';
import { Button } from '../../../../components/ui/button.js';
import { MODAL_WIDTH } from '../../../../components/ui/dialog.js';
import { Spinner } from '../../../../components/ui/spinner.js';
import { fetchLabTrend } from '../../api/labs-api.js';
import { errorMessage } from './lab-format.js';

/** One result line's values over the patient's lab notes, as a chart and a table (the trending_labs flag's Trend button). */
export function LabTrendDialog({ patientId, item, onClose }: { patientId: string; item: LabResultItem; onClose: () => void }) {
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
                {trend.isPending ? (
                  <Spinner label="Loading trend" />
                ) : trend.isError ? (
                  <p role="alert">{errorMessage(trend.error)}</p>
                ) : (
                  <TrendChart trend={trend.data} />
                )}
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
            <circle
              cx={x(i)}
              cy={y(p.value)}
              r={4}
              className={p.interpretation && p.interpretation !== 'N' ? 'tw-lab-trend__point tw-lab-trend__point--abnormal' : 'tw-lab-trend__point'}
            />
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
