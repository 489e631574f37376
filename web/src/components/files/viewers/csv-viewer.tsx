import type { ViewerProps } from './viewer-common.js';
import { PreviewMessage } from './viewer-common.js';
import { parseCsv } from './csv.js';
import { Skeleton } from './skeleton.js';
import { DataTable } from './table.js';
import { useFile } from './use-file.js';

export default function CsvViewer({ url, name }: ViewerProps) {
  const file = useFile(url, async (r) => parseCsv(await r.text()));
  if (file.state === 'loading') return <Skeleton />;
  if (file.state === 'error') return <PreviewMessage>{file.message}</PreviewMessage>;
  return <DataTable rows={file.value} label={name} />;
}
