import { lazy, Suspense, useState } from 'react';
import { DRIVE_ROOT, FILE_MESSAGES, type DriveFile } from '../../../../shared/files/drive.js';
import { Skeleton } from './viewers/skeleton.js';

// The browser is loaded when the panel is first opened, not with the window that holds the panel.
const DriveBrowser = lazy(() => import('./drive-browser.js').then((m) => ({ default: m.DriveBrowser })));

/** The drive as a collapsible picker (local routing: the folder is kept in state), spec chart-data §2b. */
export function PracticeFilesPicker({ onPick }: { onPick: (file: DriveFile) => void }) {
  const [folder, setFolder] = useState(DRIVE_ROOT);
  const [open, setOpen] = useState(false);
  return (
    <details className="tw-files-picker" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>{FILE_MESSAGES.pickerTitle}</summary>
      {open ? (
        <>
          <p className="tw-files-picker__hint">{FILE_MESSAGES.pickerHint}</p>
          <Suspense fallback={<Skeleton />}>
            <DriveBrowser picker folder={folder} onFolder={setFolder} onOpenFile={onPick} />
          </Suspense>
        </>
      ) : null}
    </details>
  );
}
