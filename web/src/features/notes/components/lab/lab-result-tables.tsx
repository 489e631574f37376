import { labAbnormality, labRangeText, labValueText, type LabResultItem } from '../../../../../../shared/labs/lab-schema.js';
import { Button } from '../../../../components/ui/button.js';
import { formatDay } from './lab-format.js';

const FLAG_LABEL = { high: 'High', low: 'Low', abnormal: 'Abnormal' } as const;

/** One table per panel the lab reported: each line's value, its flag when out of range, and the reference range. */
export function LabResultTables({
  results,
  trending,
  onTrend,
  issued = false,
}: {
  results: LabResultItem[];
  trending: boolean;
  onTrend: (item: LabResultItem) => void;
  issued?: boolean;
}) {
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
