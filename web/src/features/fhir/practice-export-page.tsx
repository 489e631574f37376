import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import './fhir.css';
import { FHIR_BULK_MESSAGES as M, type FhirBulkExport, type FhirBulkExportView, type FhirBulkFile } from '../../../../shared/chart/fhir-bulk.js';
import { Button } from '../../components/ui/button.js';
import { Page } from '../../components/ui/page.js';
import { fetchBulkExport, fetchBulkExports, resumeBulkExport, startBulkExport } from './api/fhir-api.js';
import { useCan } from '../../lib/permissions.js';
import { showToast, withServerText } from '../../lib/toasts.js';

const keys = {
  list: ['fhir-exports'] as const,
  one: (exportId: string) => ['fhir-exports', exportId] as const,
};
/** While an export runs its progress is read again this often. */
const POLL_MS = 1500;

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const size = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`);
const statusLabel: Record<FhirBulkExport['status'], string> = { running: 'Running', completed: 'Ready', failed: 'Stopped' };

function Progress({ view }: { view: FhirBulkExport }) {
  const total = Math.max(view.patientsTotal, view.patientsDone);
  const text = total === 0 ? M.counting : M.running(view.patientsDone, total);
  return (
    <div className="tw-bulk-export__progress">
      {/* Without a value the bar is indeterminate until the patients are counted. */}
      <progress max={total || 1} value={total === 0 ? undefined : view.patientsDone} aria-label="Export progress" aria-valuetext={text} />
      <p role="status">{text}</p>
    </div>
  );
}

function Downloads({ view }: { view: FhirBulkExportView }) {
  const byType = new Map<string, FhirBulkFile[]>();
  for (const file of view.files ?? []) byType.set(file.type, [...(byType.get(file.type) ?? []), file]);
  const minutes = Math.round((view.linksExpireInSeconds ?? 900) / 60);
  return (
    <div className="tw-bulk-export__downloads">
      <p role="status">
        {M.completed} {view.patientsDone} patients, {view.resources} resources, {view.filesCopied} files.
      </p>
      {view.filesMissing ? (
        <p>
          {view.filesMissing} attached {view.filesMissing === 1 ? 'file was' : 'files were'} no longer in storage; the manifest&apos;s error file names each.
          {view.manifest?.error?.[0] ? (
            <>
              {' '}
              <a href={view.manifest.error[0].url} target="_blank" rel="noreferrer">
                OperationOutcome.ndjson
              </a>
            </>
          ) : null}
        </p>
      ) : null}
      <p className="tw-settings__muted">Links stop working {minutes} minutes after this page loaded them; open the page again for new ones.</p>
      <p>
        <a href={view.manifestUrl} target="_blank" rel="noreferrer">
          manifest.json
        </a>{' '}
        <span className="tw-settings__muted">(Bulk Data manifest)</span>
      </p>
      <ul className="tw-bulk-export__types" aria-label="Export files by resource type">
        {[...byType].map(([type, files]) => (
          <li key={type}>
            <span className="tw-bulk-export__type">{type}</span> <span className="tw-settings__muted">({view.resourceCounts[type] ?? 0} resources)</span>
            <ul className="tw-bulk-export__files">
              {files.map((f) => (
                <li key={f.name}>
                  <a href={f.url} target="_blank" rel="noreferrer">
                    {f.name}
                  </a>{' '}
                  <span className="tw-settings__muted">{size(f.bytes)}</span>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </div>
  );
}

function Latest({ exportId }: { exportId: string }) {
  const queryClient = useQueryClient();
  const view = useQuery({
    queryKey: keys.one(exportId),
    queryFn: ({ signal }) => fetchBulkExport(exportId, signal),
    refetchInterval: (q) => (q.state.data?.status === 'running' ? POLL_MS : false),
    // Links expire: each visit asks for fresh ones.
    staleTime: 0,
  });
  const resume = useMutation({
    mutationFn: () => resumeBulkExport(exportId),
    onSuccess: () => showToast(M.resumed, { tone: 'success' }),
    onError: (error) => showToast(withServerText('The export could not be resumed.', error), { tone: 'error' }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: keys.list }),
  });
  const data = view.data;
  if (!data) return view.isError ? <p role="alert">The export could not be loaded.</p> : <p role="status">Loading…</p>;
  return (
    <section className="tw-bulk-export__latest" aria-labelledby="tw-bulk-latest">
      <h3 id="tw-bulk-latest" className="tw-bulk-export__heading">
        Export of {when(data.startedAt)} <span className="tw-settings__muted">by {data.startedBy.name}</span>
      </h3>
      {data.status === 'running' ? <Progress view={data} /> : null}
      {data.status === 'failed' ? (
        <div className="tw-bulk-export__failed">
          <p role="alert">{M.failed(data.error ?? 'unknown reason')}</p>
          <p className="tw-settings__muted">
            {data.patientsDone} of {data.patientsTotal} patients were written; resuming carries on after them.
          </p>
          <Button variant="primary" onPress={() => resume.mutate()} isPending={resume.isPending}>
            {M.resume}
          </Button>
        </div>
      ) : null}
      {data.status === 'completed' ? <Downloads view={data} /> : null}
    </section>
  );
}

/** Settings > Data export: an admin exports every patient's chart as FHIR Bulk Data and downloads it. */
export function PracticeExportPage({ nav }: { nav: ReactNode }) {
  const allowed = useCan('practice.fhir.export');
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: keys.list,
    queryFn: ({ signal }) => fetchBulkExports(signal),
    enabled: allowed,
  });
  const start = useMutation({
    mutationFn: () => startBulkExport(),
    onSuccess: (started) => {
      // The new export shows at once, running, while the list and its progress are read again.
      queryClient.setQueryData(keys.one(started.exportId), started);
      queryClient.setQueryData<{ exports: FhirBulkExport[] }>(keys.list, (old) => ({ exports: [started, ...(old?.exports ?? [])] }));
      showToast(M.started, { tone: 'success' });
    },
    onError: (error) => showToast(withServerText('The export could not be started.', error), { tone: 'error' }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: keys.list }),
  });
  const exports = list.data?.exports ?? [];
  const latest = exports[0];
  const running = exports.some((e) => e.status === 'running');

  return (
    <Page title="Settings" nav={nav}>
      <div className="tw-card tw-settings__card tw-bulk-export">
        <div className="tw-card__header">
          <h2 className="tw-card__title">{M.title}</h2>
          {allowed ? (
            <Button variant="primary" size="sm" onPress={() => start.mutate()} isPending={start.isPending} isDisabled={running}>
              {start.isPending ? M.starting : M.start}
            </Button>
          ) : null}
        </div>
        <p className="tw-settings__muted tw-settings__hint">
          Every patient&apos;s chart as FHIR R4, one NDJSON file per resource type and batch of patients, with a Bulk Data manifest and the files attached to
          notes, written to the practice&apos;s storage. It runs on its own; you are notified when it is ready.
        </p>
        {!allowed ? <p>{M.adminsOnly}</p> : null}
        {allowed && list.isSuccess && !latest ? <p>{M.noExports}</p> : null}
        {latest ? <Latest key={latest.exportId} exportId={latest.exportId} /> : null}
        {exports.length > 1 ? (
          <table className="tw-bulk-export__history">
            <caption>Earlier exports</caption>
            <thead>
              <tr>
                <th scope="col">Started</th>
                <th scope="col">By</th>
                <th scope="col">Status</th>
                <th scope="col">Patients</th>
              </tr>
            </thead>
            <tbody>
              {exports.slice(1, 6).map((e) => (
                <tr key={e.exportId}>
                  <td>{when(e.startedAt)}</td>
                  <td>{e.startedBy.name}</td>
                  <td>{statusLabel[e.status]}</td>
                  <td>
                    {e.patientsDone} of {Math.max(e.patientsTotal, e.patientsDone)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </div>
    </Page>
  );
}
