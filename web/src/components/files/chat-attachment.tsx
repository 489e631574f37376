import './files.css';
import { useEffect, useRef, useState } from 'react';
import { FILE_MESSAGES } from '../../../../shared/files/drive.js';
import { fileExtension } from '../../../../shared/notes/files.js';
import { showToast } from '../../lib/toasts.js';
import { Button } from '../ui/button.js';
import { signedFileUrl } from '../../lib/drive.js';
import { FileViewerWindow } from './file-viewer-window.js';

/** Spec chart-data §2a, §9: chat images show as thumbnails 250 px wide. */
export const CHAT_THUMBNAIL_WIDTH = 250;
/** Spec chart-data §9: an attachment signs its URL only once it has been visible this long. */
export const SIGNED_URL_VISIBILITY_DELAY_MS = 1000;

const THUMBNAIL_TYPES = new Set(['jpeg', 'jpg', 'gif', 'png', 'bmp', 'tiff', 'tif']);

export interface ChatFile {
  key: string;
  name: string;
}

/** True once the element has stayed on screen for the delay; a scroll past it does not count. */
function useSeenFor<T extends Element>(delayMs: number): [React.RefObject<T | null>, boolean] {
  const ref = useRef<T>(null);
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || seen) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const observer = new IntersectionObserver(([entry]) => {
      clearTimeout(timer);
      if (entry?.isIntersecting) timer = setTimeout(() => setSeen(true), delayMs);
    });
    observer.observe(el);
    return () => {
      clearTimeout(timer);
      observer.disconnect();
    };
  }, [delayMs, seen]);
  return [ref, seen];
}

function Thumbnail({ file, onOpen }: { file: ChatFile; onOpen: () => void }) {
  const [ref, seen] = useSeenFor<HTMLButtonElement>(SIGNED_URL_VISIBILITY_DELAY_MS);
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!seen) return;
    let live = true;
    signedFileUrl(file.key).then(
      (signed) => live && setUrl(signed),
      () => {
        console.error('Failed to get or convert signed URL');
        if (live) setFailed(true);
      },
    );
    return () => {
      live = false;
    };
  }, [seen, file.key]);
  return (
    <button
      ref={ref}
      type="button"
      className="tw-chat-attachment__thumb"
      style={{ width: CHAT_THUMBNAIL_WIDTH }}
      onClick={onOpen}
      data-state={url ? 'ready' : failed ? 'error' : 'waiting'}
    >
      {url ? (
        <img src={url} alt="" width={CHAT_THUMBNAIL_WIDTH} onError={() => setFailed(true)} />
      ) : (
        <span className="tw-chat-attachment__placeholder" aria-hidden="true" />
      )}
      <span className="tw-chat-attachment__name">{failed ? `${file.name}: ${FILE_MESSAGES.unablePreview}` : file.name}</span>
    </button>
  );
}

async function download(file: ChatFile) {
  try {
    window.open(await signedFileUrl(file.key), '_blank', 'noopener');
    showToast(`Downloading ${file.name}`, { tone: 'success' });
  } catch {
    showToast(FILE_MESSAGES.unablePreview, { tone: 'error' });
  }
}

/**
 * The chat attachment viewer (spec chart-data §2a): an image is a 250 px thumbnail that opens in
 * the file viewer window; any other file is a card with a download button and a confirmation toast.
 */
export function ChatAttachments({ files, label = 'Attachments' }: { files: readonly ChatFile[]; label?: string }) {
  const [viewing, setViewing] = useState<ChatFile | null>(null);
  return (
    <>
      <ul className="tw-chat-attachments" aria-label={label}>
        {files.map((file) => (
          <li key={file.key}>
            {THUMBNAIL_TYPES.has(fileExtension(file.name).toLowerCase()) ? (
              <Thumbnail file={file} onOpen={() => setViewing(file)} />
            ) : (
              <div className="tw-chat-attachment__card">
                <span className="tw-chat-attachment__name">{file.name}</span>
                <Button size="sm" aria-label={`Download ${file.name}`} onPress={() => void download(file)}>
                  Download
                </Button>
              </div>
            )}
          </li>
        ))}
      </ul>
      <FileViewerWindow file={viewing} onClose={() => setViewing(null)} />
    </>
  );
}
