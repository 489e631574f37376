import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Dialog as AriaDialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { CCDA_IMPORT_MESSAGES as C, FHIR_IMPORT_MESSAGES as M, type FhirImportItem, type FhirImportPreview } from '../../../../shared/chart/fhir.js';
import type { DriveListing } from '../../../../shared/files/drive.js';
import { inlineZipFiles } from '../../../../shared/chart/fhir-zip.js';
import { Button } from '../../components/ui/button.js';
import { MODAL_WIDTH } from '../../components/ui/dialog.js';
import { listDriveFolder } from '../../lib/drive.js';
import { importChart, previewChartImport } from './api/fhir-api.js';
import { showToast, withServerText } from '../../lib/toasts.js';

const ACTION_LABEL: Record<FhirImportItem['action'], string> = { add: 'Add', present: 'Already here', skip: 'Left out' };

/** The bundle inside an export zip (bundle.json, with the zip's files carried inside it), or a bundle saved as JSON. */
async function readBundle(file: File): Promise<unknown> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const isZip = bytes[0] === 0x50 && bytes[1] === 0x4b;
  let json: string;
  let files: Record<string, Uint8Array> | undefined;
  if (isZip) {
    const { unzipSync } = await import('fflate');
    files = unzipSync(bytes);
    const entry = files['bundle.json'];
    if (!entry) throw new Error(M.notABundle);
    json = new TextDecoder().decode(entry);
  } else json = new TextDecoder().decode(bytes);
  let bundle: unknown;
  try {
    bundle = JSON.parse(json);
  } catch {
    throw new Error(M.notABundle);
  }
  return files ? inlineZipFiles(bundle, files) : bundle;
}

/** What the import sends: a FHIR bundle, or a C-CDA document (its text, or the key of a drive file). */
type Source = { bundle: unknown } | { xml: string } | { fileKey: string };

/** Choose a FHIR export or a C-CDA document, see what it would add to this chart, and confirm. */
export function ImportDialog({
  patientId,
  isOpen,
  onOpenChange,
  format = 'fhir',
}: {
  patientId: string;
  isOpen: boolean;
  onOpenChange: (open: boolean) => void;
  format?: 'fhir' | 'ccda';
}) {
  const queryClient = useQueryClient();
  const inputId = useId();
  const [bundle, setBundle] = useState<Source | null>(null);
  const [preview, setPreview] = useState<FhirImportPreview | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const ccda = format === 'ccda';
  const path = `/v1/patients/${encodeURIComponent(patientId)}/${ccda ? 'ccda' : 'fhir'}-import`;
  const title = ccda ? C.importCcda : M.importBundle;

  function reset(open: boolean) {
    if (!open) {
      setBundle(null);
      setPreview(null);
      setError('');
    }
    onOpenChange(open);
  }

  async function previewOf(source: Source | (() => Promise<Source>)) {
    setPreview(null);
    setError('');
    setBusy(true);
    try {
      const read = typeof source === 'function' ? await source() : source;
      setBundle(read);
      setPreview(await previewChartImport(path, read));
    } catch (e) {
      setError(e instanceof Error && e.message ? e.message : ccda ? C.notCcda : M.notABundle);
    } finally {
      setBusy(false);
    }
  }

  function choose(file: File | undefined) {
    if (!file) {
      setPreview(null);
      return;
    }
    void previewOf(async () => (ccda ? { xml: await file.text() } : { bundle: await readBundle(file) }));
  }

  async function confirm(close: () => void) {
    setBusy(true);
    try {
      const result = await importChart(path, bundle);
      await queryClient.invalidateQueries({ queryKey: ['patients', patientId] });
      await queryClient.invalidateQueries({ queryKey: ['notes'] });
      showToast(M.imported(result.added), { tone: 'success' });
      close();
    } catch (e) {
      showToast(withServerText(ccda ? C.importFailed : M.importFailed, e), { tone: 'error' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <ModalOverlay isOpen={isOpen} onOpenChange={reset} isDismissable className="tw-modal-overlay">
      <Modal className="tw-modal" style={{ width: MODAL_WIDTH.md }}>
        <AriaDialog className="tw-dialog tw-fhir-import">
          {({ close }) => (
            <>
              <Heading slot="title" className="tw-dialog__title">
                {title}
              </Heading>
              <div className="tw-dialog__body">
                <label htmlFor={inputId} className="tw-fhir-import__label">
                  {ccda ? C.chooseFile : M.chooseFile}
                </label>
                <input
                  id={inputId}
                  type="file"
                  accept={ccda ? '.xml,application/xml,text/xml' : '.zip,.json,application/zip,application/json,application/fhir+json'}
                  onChange={(e) => choose(e.currentTarget.files?.[0])}
                />
                {ccda ? <DrivePicker onPick={(fileKey) => void previewOf({ fileKey })} /> : null}
                {error ? (
                  <p role="alert" className="tw-fhir-import__error">
                    {error}
                  </p>
                ) : null}
                {preview ? (
                  <div className="tw-fhir-import__preview">
                    <p role="status">
                      {preview.title ? <>{preview.title}. </> : null}
                      {preview.sourcePatient ? <strong>{preview.sourcePatient}: </strong> : null}
                      {M.preview(preview.add, preview.present, preview.skip)}
                    </p>
                    {/* A long bundle scrolls here: focusable, so the keyboard can scroll it too. */}
                    <div className="tw-fhir-import__scroll" role="region" aria-label="Import preview" tabIndex={0}>
                      <table className="tw-fhir-import__table">
                        <caption className="tw-visually-hidden">What the import brings into this chart</caption>
                        <thead>
                          <tr>
                            {ccda ? <th scope="col">Section</th> : null}
                            <th scope="col">Item</th>
                            <th scope="col">Import</th>
                          </tr>
                        </thead>
                        <tbody>
                          {preview.items.map((item, i) => (
                            <tr key={i} className={`tw-fhir-import__row--${item.action}`}>
                              {ccda ? <td>{item.section ?? ''}</td> : null}
                              <td>{item.summary}</td>
                              <td>{item.reason ? `${ACTION_LABEL[item.action]}: ${item.reason}` : ACTION_LABEL[item.action]}</td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    </div>
                  </div>
                ) : null}
              </div>
              <div className="tw-dialog__actions">
                <Button variant="secondary" onPress={close}>
                  Cancel
                </Button>
                <Button variant="primary" onPress={() => void confirm(close)} isDisabled={!preview || preview.add === 0 || busy} isPending={busy && !!preview}>
                  {M.confirm}
                </Button>
              </div>
            </>
          )}
        </AriaDialog>
      </Modal>
    </ModalOverlay>
  );
}

/** The practice drive's folders and XML files: a C-CDA saved there is imported by its key, without downloading it. */
function DrivePicker({ onPick }: { onPick: (key: string) => void }) {
  const [open, setOpen] = useState(false);
  const [listing, setListing] = useState<DriveListing | null>(null);
  const [error, setError] = useState('');

  async function list(prefix: string) {
    setError('');
    try {
      setListing(await listDriveFolder(prefix));
    } catch {
      setError(C.driveFailed);
    }
  }

  if (!open) {
    return (
      <div className="tw-fhir-import__drive">
        <Button
          variant="secondary"
          onPress={() => {
            setOpen(true);
            void list('public/');
          }}
        >
          {C.fromDrive}
        </Button>
      </div>
    );
  }
  const files = listing?.files.filter((f) => /\.xml$/i.test(f.name)) ?? [];
  const parent = listing && listing.prefix !== 'public/' ? listing.prefix.replace(/[^/]+\/$/, '') : undefined;
  return (
    <div className="tw-fhir-import__drive" role="group" aria-label={C.fromDrive}>
      {error ? <p role="alert">{error}</p> : null}
      {listing ? (
        <ul className="tw-fhir-import__drive-list">
          {parent ? (
            <li>
              <Button variant="secondary" onPress={() => void list(parent)}>
                {C.driveUp}
              </Button>
            </li>
          ) : null}
          {listing.folders.map((f) => (
            <li key={f}>
              <Button variant="secondary" onPress={() => void list(`${listing.prefix}${f}/`)}>
                {`Folder: ${f}`}
              </Button>
            </li>
          ))}
          {files.map((f) => (
            <li key={f.key}>
              <Button variant="secondary" onPress={() => onPick(f.key)}>
                {f.name}
              </Button>
            </li>
          ))}
          {files.length === 0 ? <li>{C.driveEmpty}</li> : null}
        </ul>
      ) : null}
    </div>
  );
}
