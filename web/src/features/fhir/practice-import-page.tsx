import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useBlocker } from 'react-router-dom';
import './fhir.css';
import { ImportError, isNdjsonName, parseExport, type ParsedExport } from '../../../../shared/fhir/practice-import/export-files.js';
import { refOf } from '../../../../shared/fhir/practice-import/group.js';
import {
  describeExport,
  previewImport,
  runImport,
  type ImportIo,
  type ImportPreview,
  type ImportSummary,
  type PatientOutcome,
} from '../../../../shared/fhir/practice-import/run.js';
import { Button } from '../../components/ui/button.js';
import { ConfirmDialog } from '../../components/ui/dialog.js';
import { Page } from '../../components/ui/page.js';
import { paths } from '../../lib/paths.js';
import { useCan } from '../../lib/permissions.js';
import { isApiError } from '../../lib/api-error.js';
import { useBeforeUnloadPrompt } from '../../lib/unsaved-changes.js';
import { practiceImportCall } from './api/fhir-api.js';
import { M } from './practice-import-messages.js';

interface Picked {
  exported: ParsedExport;
  /** The export folder's other files by their path in it (files/<patient>/<name>): attachments. */
  attached: Map<string, File>;
  ndjsonFiles: number;
  /** Where this export's progress is kept: its NDJSON files' names and sizes. */
  storageKey: string;
  found: ReturnType<typeof describeExport>;
  /** Its patients, Patient/<id>, in the order they are sent. */
  refs: string[];
}

/** A 53-bit string hash: progress keys and the patients done are kept as hashes, no identifier of a patient in the browser's storage. */
function hash(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

const storedDone = (key: string): Set<string> => {
  try {
    return new Set((JSON.parse(localStorage.getItem(key) ?? '[]') as unknown[]).map(String));
  } catch {
    return new Set();
  }
};

const countDone = (p: Picked) => {
  const stored = storedDone(p.storageKey);
  return p.refs.filter((ref) => stored.has(hash(ref))).length;
};

/** A file picked in a folder is named by its path below the folder picked (the export folder itself). */
const pathInFolder = (f: File) => (f.webkitRelativePath ? f.webkitRelativePath.split('/').slice(1).join('/') : f.name);

async function readPicked(files: File[], fromFolder: boolean): Promise<Picked> {
  // From a folder, the export's NDJSON files are those at its top, as the CLI reads them; files/ holds the attachments.
  const ndjson = files.filter((f) => isNdjsonName(f.name) && (!fromFolder || !pathInFolder(f).includes('/')));
  if (ndjson.length === 0) throw new ImportError(fromFolder ? M.noNdjsonInFolder : M.noNdjson, 'bad-export');
  const exported = parseExport(await Promise.all(ndjson.map(async (f) => ({ name: f.name, text: await f.text() }))));
  if (!exported.resources.some((r) => r.resourceType === 'Patient')) throw new ImportError(M.noPatients, 'bad-export');
  const attached = new Map(fromFolder ? files.filter((f) => !ndjson.includes(f)).map((f) => [pathInFolder(f), f] as const) : []);
  const names = ndjson
    .map((f) => `${f.name}:${f.size}`)
    .sort()
    .join('|');
  const found = describeExport(exported);
  return {
    exported,
    attached,
    ndjsonFiles: ndjson.length,
    storageKey: `tw-practice-import:${hash(names)}`,
    found,
    refs: found.groups.map((g) => refOf(g.patient)),
  };
}

/** The API as the run needs it: every answer with its status, a refusal too. */
const webIo = (picked: Picked): ImportIo => ({
  call: practiceImportCall,
  put: async (url, bytes, contentType) => {
    const res = await fetch(url, { method: 'PUT', headers: { 'content-type': contentType }, body: new Blob([bytes as BlobPart]) });
    return { ok: res.ok, status: res.status };
  },
  readFile: async (path) => {
    const file = picked.attached.get(path);
    return file ? new Uint8Array(await file.arrayBuffer()) : undefined;
  },
  progress: {
    load: async () => {
      const done = storedDone(picked.storageKey);
      return picked.refs.filter((r) => done.has(hash(r)));
    },
    save: async (done) => localStorage.setItem(picked.storageKey, JSON.stringify(done.map(hash))),
  },
});

function Found({ picked, done }: { picked: Picked; done: number }) {
  const { found } = picked;
  const attachedHere = found.filePaths.filter((p) => picked.attached.has(p)).length;
  return (
    <section className="tw-bulk-export__latest" aria-labelledby="tw-import-found">
      <h3 id="tw-import-found" className="tw-bulk-export__heading">
        {M.found(found.groups.length, picked.exported.resources.length, picked.ndjsonFiles)}
      </h3>
      <ul className="tw-bulk-export__types tw-practice-import__counts" aria-label={M.countsLabel}>
        {Object.entries(picked.exported.counts).map(([type, n]) => (
          <li key={type}>
            <span className="tw-bulk-export__type">{type}</span> <span className="tw-settings__muted">{n}</span>
          </li>
        ))}
      </ul>
      {found.filePaths.length ? <p>{M.attached(found.filePaths.length, attachedHere)}</p> : null}
      {found.unassigned.length ? <p>{M.unassigned(found.unassigned.length, found.unassignedTypes)}</p> : null}
      {found.practitioners.length ? <p className="tw-settings__muted">{M.practitioners(found.practitioners.length)}</p> : null}
      {done ? <p>{done >= found.groups.length ? M.allDone(found.groups.length) : M.earlier(done, found.groups.length)}</p> : null}
    </section>
  );
}

/** The dry run's answer: what importing would bring in and make, checked against the practice with reads only. */
function Preview({ preview }: { preview: ImportPreview }) {
  const missing = preview.files.filter((f) => !f.present).length;
  return (
    <section className="tw-practice-import__summary" aria-labelledby="tw-import-preview">
      <h3 id="tw-import-preview" className="tw-bulk-export__heading">
        {M.previewHeading}
      </h3>
      <p role="status">{M.previewWould(preview)}</p>
      <table className="tw-bulk-export__history">
        <caption>{M.previewCountsCaption}</caption>
        <thead>
          <tr>
            <th scope="col">Resource type</th>
            <th scope="col">Count</th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(preview.counts).map(([type, n]) => (
            <tr key={type}>
              <td>{type}</td>
              <td>{n}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h4 className="tw-bulk-export__heading">{M.previewUsersHeading}</h4>
      {preview.users.matched.length || preview.users.unmatched.length ? (
        <ul aria-label={M.previewUsersHeading}>
          {preview.users.matched.map((email) => (
            <li key={email}>{M.previewMatched(email)}</li>
          ))}
          {preview.users.unmatched.map((email) => (
            <li key={email}>{M.previewUnmatched(email)}</li>
          ))}
        </ul>
      ) : (
        <p>{M.previewNoPractitioners}</p>
      )}
      {preview.calendar.types.length || preview.calendar.locations.length ? <p>{M.previewCalendar(preview.calendar)}</p> : null}
      {preview.unassigned.count ? <p>{M.unassigned(preview.unassigned.count, preview.unassigned.types)}</p> : null}
      {preview.files.length ? (
        <table className="tw-bulk-export__history">
          <caption>{M.previewFilesCaption(preview.files.length, missing)}</caption>
          <thead>
            <tr>
              <th scope="col">File</th>
              <th scope="col">In the export picked</th>
            </tr>
          </thead>
          <tbody>
            {preview.files.map((f) => (
              <tr key={f.path}>
                <td>{f.path}</td>
                <td>{f.present ? M.filePresent : M.fileMissing}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p>{M.previewNoFiles}</p>
      )}
    </section>
  );
}

function Outcomes({ outcomes }: { outcomes: PatientOutcome[] }) {
  const failed = outcomes.filter((o) => o.error);
  const imported = outcomes.filter((o) => !o.error);
  return (
    <>
      {failed.length ? (
        <div className="tw-practice-import__failed">
          <h3 className="tw-bulk-export__heading">{M.failedHeading(failed.length)}</h3>
          <ul aria-label={M.failedLabel}>
            {failed.map((o) => (
              <li key={o.n}>
                {o.patient}: {o.error}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {imported.length ? (
        <table className="tw-bulk-export__history">
          <caption>{M.importedCaption}</caption>
          <thead>
            <tr>
              <th scope="col">Patient</th>
              <th scope="col">Chart</th>
              <th scope="col">Added</th>
              <th scope="col">Already here</th>
            </tr>
          </thead>
          <tbody>
            {imported.slice(-M.shown).map((o) => (
              <tr key={o.n}>
                <td>{o.patientId ? <Link to={paths.patient(o.patientId)}>{o.patient}</Link> : o.patient}</td>
                <td>{o.created ? M.newChart : M.chartHere}</td>
                <td>{o.added}</td>
                <td>{o.present}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </>
  );
}

function Summary({ summary }: { summary: ImportSummary }) {
  return (
    <div className="tw-practice-import__summary">
      <p role="status">{summary.stopped ? M.stopped(summary.resumed + summary.sent - summary.failed.length, summary.patients) : M.finished(summary)}</p>
      {summary.resumed && !summary.stopped ? <p className="tw-settings__muted">{M.resumedBefore(summary.resumed)}</p> : null}
      {summary.calendar.types.length || summary.calendar.locations.length ? <p>{M.calendar(summary.calendar)}</p> : null}
      {summary.users.matched.length ? <p>{M.matched(summary.users.matched)}</p> : null}
      {summary.users.unmatched.length ? <p>{M.unmatched(summary.users.unmatched)}</p> : null}
      {summary.leftOut.length ? (
        <ul className="tw-bulk-export__types" aria-label={M.leftOutLabel}>
          {summary.leftOut.map((l) => (
            <li key={`${l.resourceType}|${l.reason}`}>
              {l.count} {l.resourceType}: {l.reason}
            </li>
          ))}
        </ul>
      ) : null}
      {summary.missingFiles.length ? <p>{M.missingFiles(summary.missingFiles.length)}</p> : null}
    </div>
  );
}

/**
 * The import runs in this tab: closing or reloading it asks first (the browser's own question), and
 * leaving for another screen asks here; leaving anyway stops the run after the patient being sent.
 */
function LeaveWhileImporting({ running }: { running: boolean }) {
  const blocker = useBlocker(({ currentLocation, nextLocation }) => running && currentLocation.pathname !== nextLocation.pathname);
  useBeforeUnloadPrompt(running);
  return (
    <ConfirmDialog
      isOpen={blocker.state === 'blocked'}
      onOpenChange={(open) => {
        if (!open && blocker.state === 'blocked') blocker.reset();
      }}
      title={M.leaveTitle}
      confirmLabel={M.leaveConfirm}
      tone="danger"
      onConfirm={() => blocker.proceed?.()}
    >
      {M.leaveBody}
    </ConfirmDialog>
  );
}

/** Settings > Data import: an admin rebuilds the practice from a whole-practice FHIR export, patient by patient, as `npm run practice -- import` does. */
export function PracticeImportPage({ nav }: { nav: ReactNode }) {
  const allowed = useCan('practice.fhir.import');
  const folderInput = useRef<HTMLInputElement>(null);
  const filesInput = useRef<HTMLInputElement>(null);
  const [picked, setPicked] = useState<Picked>();
  const [reading, setReading] = useState(false);
  const [error, setError] = useState('');
  const [running, setRunning] = useState<{ n: number; total: number; patient: string }>();
  const [stopping, setStopping] = useState(false);
  const [outcomes, setOutcomes] = useState<PatientOutcome[]>([]);
  const [summary, setSummary] = useState<ImportSummary>();
  const [done, setDone] = useState(0);
  const [preview, setPreview] = useState<ImportPreview>();
  const [checking, setChecking] = useState(false);
  const stop = useRef<AbortController>(undefined);

  // React's types do not know the folder picker's attribute.
  useEffect(() => folderInput.current?.setAttribute('webkitdirectory', ''), [allowed]);
  useEffect(() => () => stop.current?.abort(), []);

  const refs = picked?.refs ?? [];

  async function pick(list: FileList | null, fromFolder: boolean) {
    const files = Array.from(list ?? []);
    if (!files.length) return;
    setError('');
    setSummary(undefined);
    setPreview(undefined);
    setOutcomes([]);
    setReading(true);
    try {
      const next = await readPicked(files, fromFolder);
      setPicked(next);
      setDone(countDone(next));
    } catch (e) {
      setPicked(undefined);
      setError(e instanceof ImportError ? e.message : M.unreadable);
    } finally {
      setReading(false);
    }
  }

  async function check() {
    if (!picked) return;
    setError('');
    setSummary(undefined);
    setOutcomes([]);
    setChecking(true);
    try {
      setPreview(await previewImport(picked.exported, { call: practiceImportCall, hasFile: async (path) => picked.attached.has(path) }));
    } catch (e) {
      setPreview(undefined);
      setError(e instanceof ImportError ? (e.kind === 'refused' ? M.refused : e.message) : isApiError(e) ? e.message : M.unexpected);
    } finally {
      setChecking(false);
    }
  }

  async function start(again: boolean) {
    if (!picked) return;
    setPreview(undefined);
    const controller = new AbortController();
    stop.current = controller;
    setError('');
    setSummary(undefined);
    setOutcomes([]);
    setStopping(false);
    setRunning({ n: 0, total: refs.length, patient: '' });
    try {
      const result = await runImport(
        {
          exported: picked.exported,
          where: 'the files picked',
          apiLabel: 'the practice API',
          again,
          out: () => undefined,
          signal: controller.signal,
          onPatientStart: (n, total, patient) => setRunning({ n, total, patient }),
          onPatient: (o) => setOutcomes((all) => [...all, o]),
        },
        webIo(picked),
      );
      setSummary(result);
    } catch (e) {
      setError(e instanceof ImportError ? (e.kind === 'refused' ? M.refused : e.message) : isApiError(e) ? e.message : M.unexpected);
    } finally {
      setRunning(undefined);
      setStopping(false);
      setDone(countDone(picked));
    }
  }

  const busy = Boolean(running);
  const allDone = picked !== undefined && done >= refs.length;
  return (
    <Page title="Settings" nav={nav}>
      <div className="tw-card tw-settings__card tw-bulk-export">
        <div className="tw-card__header">
          <h2 className="tw-card__title">{M.title}</h2>
        </div>
        <p className="tw-settings__muted tw-settings__hint">{M.hint}</p>
        {!allowed ? (
          <p>{M.adminsOnly}</p>
        ) : (
          <>
            <div className="tw-practice-import__pick" role="group" aria-label={M.pickLabel}>
              <input
                ref={folderInput}
                type="file"
                multiple
                hidden
                aria-label={M.folderInput}
                onChange={(e) => void pick(e.target.files, true).finally(() => (e.target.value = ''))}
              />
              <input
                ref={filesInput}
                type="file"
                multiple
                hidden
                accept=".ndjson"
                aria-label={M.filesInput}
                onChange={(e) => void pick(e.target.files, false).finally(() => (e.target.value = ''))}
              />
              <Button variant={picked ? 'secondary' : 'primary'} size="sm" onPress={() => folderInput.current?.click()} isDisabled={busy} isPending={reading}>
                {M.pickFolder}
              </Button>
              <Button variant="secondary" size="sm" onPress={() => filesInput.current?.click()} isDisabled={busy} isPending={reading}>
                {M.pickFiles}
              </Button>
            </div>
            {error ? (
              <p role="alert" className="tw-practice-import__error">
                {error}
              </p>
            ) : null}
            {picked ? <Found picked={picked} done={done} /> : null}
            {picked && !busy ? (
              <div className="tw-practice-import__actions">
                <Button variant="secondary" size="sm" onPress={() => void check()} isPending={checking}>
                  {M.check}
                </Button>
                {allDone ? (
                  <Button variant="primary" size="sm" onPress={() => void start(true)}>
                    {M.again}
                  </Button>
                ) : (
                  <Button variant="primary" size="sm" onPress={() => void start(false)}>
                    {done ? M.resume(refs.length - done) : M.start(refs.length)}
                  </Button>
                )}
              </div>
            ) : null}
            {running ? (
              <div className="tw-bulk-export__progress tw-practice-import__running">
                <progress
                  max={running.total || 1}
                  value={Math.max(0, running.n - 1)}
                  aria-label={M.progressLabel}
                  aria-valuetext={M.running(running.n, running.total, running.patient)}
                />
                <p role="status">{stopping ? M.stopping : M.running(running.n, running.total, running.patient)}</p>
                <p className="tw-settings__muted">{M.keepOpen}</p>
                <Button
                  variant="secondary"
                  size="sm"
                  isDisabled={stopping}
                  onPress={() => {
                    setStopping(true);
                    stop.current?.abort();
                  }}
                >
                  {M.stop}
                </Button>
              </div>
            ) : null}
            {preview ? <Preview preview={preview} /> : null}
            {summary ? <Summary summary={summary} /> : null}
            <Outcomes outcomes={outcomes} />
            <LeaveWhileImporting running={busy} />
          </>
        )}
      </div>
    </Page>
  );
}
