import './files.css';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { FILE_MESSAGES, folderNameError, type DriveFile } from '../../../../shared/files/drive.js';
import { uploadError } from '../../../../shared/notes/files.js';
import { showToast, toastQueue, withServerText } from '../../lib/toasts.js';
import { Button } from '../ui/button.js';
import { ConfirmDialog } from '../ui/dialog.js';
import { FilesIcon, FormsIcon } from '../ui/icons.js';
import { uploadFile } from '../../lib/upload-file.js';
import { createDriveFolder, deleteDriveFile, listDriveFolder } from '../../lib/drive.js';

export const driveQueryKey = (prefix: string) => ['drive', prefix] as const;

type Entry = { kind: 'folder'; name: string; path: string } | { kind: 'file'; file: DriveFile };
const entryId = (e: Entry) => (e.kind === 'folder' ? e.path : e.file.key);
const kb = (size: number) => `${Math.max(1, Math.round(size / 1024)).toLocaleString()} KB`;

export interface DriveBrowserProps {
  /** The folder shown (public/...); the page keeps it in the path, the picker in state. */
  folder: string;
  onFolder: (folder: string) => void;
  /** Opening a file: the page shows it in the viewer window, the picker adds it. */
  onOpenFile: (file: DriveFile) => void;
  /** The picker is a compact list: no upload, folder, move or delete actions. */
  picker?: boolean;
  deleteDisabled?: boolean;
}

/** Spec chart-data §2b: refresh, upload here, folders, open, delete, move (not yet), clear the selection. */
export function DriveBrowser({ folder, onFolder, onOpenFile, picker, deleteDisabled }: DriveBrowserProps) {
  const queryClient = useQueryClient();
  const listing = useQuery({ queryKey: driveQueryKey(folder), queryFn: () => listDriveFolder(folder) });
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [newFolder, setNewFolder] = useState<string | null>(null);
  const [folderError, setFolderError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);

  const entries: Entry[] = [
    ...(listing.data?.folders ?? []).map((name): Entry => ({ kind: 'folder', name, path: `${folder}${name}/` })),
    ...(listing.data?.files ?? []).map((file): Entry => ({ kind: 'file', file })),
  ];
  const refresh = () => queryClient.invalidateQueries({ queryKey: driveQueryKey(folder) });
  const open = (e: Entry) => (e.kind === 'folder' ? (setSelected(new Set()), onFolder(e.path)) : onOpenFile(e.file));
  const toggle = (id: string) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
  };

  const upload = async (files: File[]) => {
    if (!files.length) return;
    const problem = files.map((f) => uploadError(f.name, f.size)).find(Boolean);
    if (problem) {
      showToast(FILE_MESSAGES.uploadFailed, { tone: 'error', description: problem });
      return;
    }
    const progress = showToast(FILE_MESSAGES.uploading);
    try {
      for (const file of files) await uploadFile(file, folder);
      showToast(FILE_MESSAGES.uploaded, { tone: 'success' });
    } catch (e) {
      showToast(withServerText(FILE_MESSAGES.uploadFailed, e), { tone: 'error' });
    } finally {
      toastQueue.close(progress);
      if (input.current) input.current.value = '';
      void refresh();
    }
  };

  const askDelete = () => {
    if (entries.some((e) => e.kind === 'folder' && selected.has(e.path))) {
      showToast(FILE_MESSAGES.unableToDeleteFolders, { tone: 'error' });
      return;
    }
    setConfirmDelete(true);
  };
  const doDelete = async () => {
    setDeleting(true);
    try {
      for (const key of selected) await deleteDriveFile(key);
      setSelected(new Set());
    } catch (e) {
      showToast(withServerText('The file could not be deleted.', e), { tone: 'error' });
    } finally {
      setDeleting(false);
      setConfirmDelete(false);
      void refresh();
    }
  };

  const makeFolder = async () => {
    const name = (newFolder ?? '').trim();
    const problem = folderNameError(name);
    if (problem) return setFolderError(problem);
    try {
      await createDriveFolder(folder, name);
      setNewFolder(null);
      setFolderError(null);
      void refresh();
    } catch (e) {
      setFolderError(e instanceof Error ? e.message : FILE_MESSAGES.folderNameRequired);
    }
  };

  const crumbs = folder.slice(0, -1).split('/');
  return (
    <div className={picker ? 'tw-drive tw-drive--picker' : 'tw-drive'}>
      <div className="tw-drive__toolbar" role="toolbar" aria-label="File actions">
        <Button size="sm" onPress={() => void refresh()}>
          Refresh
        </Button>
        {picker ? null : (
          <>
            <input ref={input} type="file" multiple hidden aria-label="Files to upload" onChange={(e) => void upload(Array.from(e.target.files ?? []))} />
            <Button size="sm" variant="primary" onPress={() => input.current?.click()}>
              Upload
            </Button>
            <Button size="sm" onPress={() => (setNewFolder(''), setFolderError(null))}>
              New folder
            </Button>
            <Button size="sm" isDisabled={!selected.size} onPress={() => showToast(FILE_MESSAGES.moveSoon)}>
              Move
            </Button>
            {deleteDisabled ? null : (
              <Button size="sm" variant="danger" isDisabled={!selected.size} onPress={askDelete}>
                Delete
              </Button>
            )}
            <Button size="sm" variant="quiet" isDisabled={!selected.size} onPress={() => setSelected(new Set())}>
              Clear selection
            </Button>
          </>
        )}
      </div>
      <nav aria-label="Folder" className="tw-drive__crumbs">
        <ol>
          {crumbs.map((name, i) => {
            const path = `${crumbs.slice(0, i + 1).join('/')}/`;
            return (
              <li key={path}>
                {i === crumbs.length - 1 ? (
                  <span aria-current="page">{name}</span>
                ) : (
                  <button type="button" className="tw-link" onClick={() => (setSelected(new Set()), onFolder(path))}>
                    {name}
                  </button>
                )}
              </li>
            );
          })}
        </ol>
      </nav>
      {newFolder !== null ? (
        <form
          className="tw-drive__new-folder"
          onSubmit={(e) => {
            e.preventDefault();
            void makeFolder();
          }}
        >
          <label className="tw-field__label" htmlFor="tw-drive-folder-name">
            Folder name
          </label>
          <input
            id="tw-drive-folder-name"
            className="tw-field__input"
            value={newFolder}
            autoFocus
            aria-invalid={folderError ? true : undefined}
            aria-describedby={folderError ? 'tw-drive-folder-error' : undefined}
            onChange={(e) => setNewFolder(e.target.value)}
          />
          <Button size="sm" variant="primary" type="submit">
            Create
          </Button>
          <Button size="sm" variant="quiet" onPress={() => (setNewFolder(null), setFolderError(null))}>
            Cancel
          </Button>
          {folderError ? (
            <p id="tw-drive-folder-error" className="tw-field__error" role="alert">
              {folderError}
            </p>
          ) : null}
        </form>
      ) : null}
      {listing.isError ? (
        <p role="alert" className="tw-field__error">
          {listing.error instanceof Error ? listing.error.message : 'The folder could not be listed.'}
        </p>
      ) : null}
      <ul className="tw-drive__list" aria-label={`Files in ${folder}`} aria-busy={listing.isLoading}>
        {entries.map((e) => {
          const id = entryId(e);
          const name = e.kind === 'folder' ? e.name : e.file.name;
          return (
            <li key={id} className="tw-drive__row" data-kind={e.kind} onDoubleClick={() => open(e)}>
              {picker ? null : <input type="checkbox" aria-label={`Select ${name}`} checked={selected.has(id)} onChange={() => toggle(id)} />}
              <span aria-hidden="true" className="tw-drive__icon">
                {e.kind === 'folder' ? <FilesIcon /> : <FormsIcon />}
              </span>
              <button
                type="button"
                className="tw-link tw-drive__name"
                onClick={() => (picker && e.kind === 'file' ? undefined : open(e))}
                onKeyDown={(k) => k.key === 'Enter' && picker && e.kind === 'file' && open(e)}
                aria-label={picker && e.kind === 'file' ? `${name}: double click or press Enter to add it` : undefined}
              >
                {name}
              </button>
              <span className="tw-drive__meta">{e.kind === 'file' ? kb(e.file.size) : 'Folder'}</span>
              {e.kind === 'file' && e.file.lastModified ? <span className="tw-drive__meta">{new Date(e.file.lastModified).toLocaleDateString()}</span> : null}
            </li>
          );
        })}
        {listing.isSuccess && !entries.length ? <li className="tw-drive__empty">No results found.</li> : null}
      </ul>
      <ConfirmDialog
        isOpen={confirmDelete}
        onOpenChange={setConfirmDelete}
        title={FILE_MESSAGES.deleteConfirm}
        confirmLabel="Delete"
        tone="danger"
        isPending={deleting}
        onConfirm={() => void doDelete()}
      >
        <p>{FILE_MESSAGES.deleteWarning}</p>
      </ConfirmDialog>
    </div>
  );
}
