import { useRef, useState } from 'react';
import { uploadError } from '../../../../../shared/notes/files.js';
import type { NoteFile } from '../../../../../shared/notes/note-schema.js';
import { contentTypeOf } from '../../../lib/drive.js';
import { PracticeFilesPicker } from '../../../components/files/practice-files-picker.js';
import { Button } from '../../../components/ui/button.js';
import { showToast } from '../../../lib/toasts.js';
import { uploadFile } from '../../../lib/upload-file.js';
import { noteFileUrl } from '../api/note-files-api.js';

async function openFile(key: string) {
  window.open(await noteFileUrl(key), '_blank', 'noopener');
}

/** A document note's attachments: listed with download links; while editable, more can be attached. */
export function NoteFiles({
  files,
  folder,
  editable,
  onAttached,
}: {
  files: readonly NoteFile[];
  folder: string;
  editable: boolean;
  onAttached: (file: NoteFile) => Promise<void>;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const attach = async (file: File | undefined) => {
    if (!file) return;
    const problem = uploadError(file.name, file.size);
    if (problem) return setError(problem);
    setError(null);
    setUploading(true);
    try {
      await onAttached(await uploadFile(file, folder));
    } catch (e) {
      setError(e instanceof Error ? e.message : 'The file could not be uploaded.');
    } finally {
      setUploading(false);
      if (input.current) input.current.value = '';
    }
  };

  return (
    <section className="tw-note-files" aria-label="Attached files">
      {files.length ? (
        <ul className="tw-note-files__list">
          {files.map((file) => (
            <li key={file.key}>
              <button
                type="button"
                className="tw-link tw-note-files__name"
                onClick={() => void openFile(file.key).catch(() => showToast('The file could not be opened.', { tone: 'error' }))}
              >
                {file.name}
              </button>
              {file.size ? <span className="tw-note-files__size">{Math.max(1, Math.round(file.size / 1024))} KB</span> : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="tw-note-files__empty">No files attached.</p>
      )}
      {editable ? (
        <>
          <input ref={input} type="file" hidden aria-label="File to attach" onChange={(e) => void attach(e.target.files?.[0])} />
          <Button size="sm" onPress={() => input.current?.click()} isPending={uploading}>
            Attach file
          </Button>
          <PracticeFilesPicker
            onPick={(file) => {
              if (files.some((f) => f.key === file.key)) return;
              setError(null);
              void onAttached({ key: file.key, name: file.name, contentType: contentTypeOf(file.name), size: file.size }).catch((e: unknown) =>
                setError(e instanceof Error ? e.message : 'The file could not be attached.'),
              );
            }}
          />
        </>
      ) : null}
      {error ? (
        <p className="tw-field__error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}
