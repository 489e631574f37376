import { lazy, Suspense, useState } from 'react';
import './fhir.css';
import { CCDA_IMPORT_MESSAGES, FHIR_IMPORT_MESSAGES, FHIR_MESSAGES, type FhirExportResult } from '../../../../shared/chart/fhir.js';
import { Button } from '../../components/ui/button.js';
import { exportChartFhir } from './api/fhir-api.js';
import { useCan } from '../../lib/permissions.js';
import { showToast, withServerText } from '../../lib/toasts.js';

const ImportDialog = lazy(() => import('./import-dialog.js').then((m) => ({ default: m.ImportDialog })));

/** Hands the browser the zip as a download: the link is cross-origin, so an <a download> on it would just open it. */
async function download(result: FhirExportResult): Promise<void> {
  const res = await fetch(result.url);
  if (!res.ok) throw new Error(FHIR_MESSAGES.exportFailed);
  const href = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = href;
  a.download = result.fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}

/** The chart's record transfer: export to FHIR, import a FHIR bundle or a C-CDA document (providers and admins). */
export function ChartTransferPanel({ patientId }: { patientId: string }) {
  const allowed = useCan('chart.fhir');
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState('');
  const [importing, setImporting] = useState<false | 'fhir' | 'ccda'>(false);
  if (!allowed) return null;

  async function exportChart() {
    setBusy(true);
    setStatus(FHIR_MESSAGES.exporting);
    try {
      const result = await exportChartFhir(patientId);
      await download(result);
      const done = FHIR_MESSAGES.exported(result.resources, result.files);
      setStatus(done);
      showToast(done, { tone: 'success' });
    } catch (error) {
      setStatus('');
      showToast(withServerText(FHIR_MESSAGES.exportFailed, error), { tone: 'error' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="tw-chart-transfer" aria-labelledby="tw-chart-transfer-title">
      <h2 id="tw-chart-transfer-title" className="tw-chart-transfer__title">
        Record transfer
      </h2>
      <div className="tw-chart-transfer__actions">
        <Button onPress={() => void exportChart()} isDisabled={busy}>
          {busy ? FHIR_MESSAGES.exporting : FHIR_MESSAGES.exportChart}
        </Button>
        <Button onPress={() => setImporting('fhir')}>{FHIR_IMPORT_MESSAGES.importBundle}</Button>
        <Button onPress={() => setImporting('ccda')}>{CCDA_IMPORT_MESSAGES.importCcda}</Button>
      </div>
      {importing ? (
        <Suspense fallback={null}>
          <ImportDialog key={importing} patientId={patientId} format={importing} isOpen onOpenChange={(open) => setImporting(open ? importing : false)} />
        </Suspense>
      ) : null}
      <p role="status" className="tw-chart-transfer__status">
        {status}
      </p>
    </section>
  );
}
