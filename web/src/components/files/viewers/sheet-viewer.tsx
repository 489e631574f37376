import readXlsxFile from 'read-excel-file/browser';
import { useState } from 'react';
import type { ViewerProps } from './viewer-common.js';
import { PreviewMessage } from './viewer-common.js';
import { Skeleton } from './skeleton.js';
import { DataTable } from './table.js';
import { useFile } from './use-file.js';

/** Spec chart-data §2a: the spreadsheet viewer's minimum height. */
export const SHEET_MIN_HEIGHT = 650;

/** xlsx with one button per sheet. */
export default function SheetViewer({ url, name, minHeight = SHEET_MIN_HEIGHT }: ViewerProps & { minHeight?: number }) {
  const file = useFile(url, async (r) => readXlsxFile(await r.blob()));
  const [active, setActive] = useState(0);
  if (file.state === 'loading') return <Skeleton />;
  if (file.state === 'error') return <PreviewMessage>{file.message}</PreviewMessage>;
  const sheets = file.value;
  const sheet = sheets[Math.min(active, sheets.length - 1)];
  return (
    <div className="tw-sheet-viewer" style={{ minHeight }}>
      <div className="tw-sheet-viewer__tabs" role="group" aria-label="Sheets">
        {sheets.map((s, i) => (
          <button key={s.sheet} type="button" className="tw-button tw-button--sm tw-button--secondary" aria-pressed={i === active} onClick={() => setActive(i)}>
            {s.sheet}
          </button>
        ))}
      </div>
      {sheet ? <DataTable rows={sheet.data} label={`${name}, ${sheet.sheet}`} /> : null}
    </div>
  );
}
