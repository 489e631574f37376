import { useState } from 'react';
import { DRIVE_ROOT, FILE_MESSAGES, type DriveFile } from '../../../../shared/files/drive.js';
import { DriveBrowser } from './drive-browser.js';

/** The drive as a collapsible picker (local routing: the folder is kept in state), spec chart-data §2b. */
export function PracticeFilesPicker({ onPick }: { onPick: (file: DriveFile) => void }) {
  const [folder, setFolder] = useState(DRIVE_ROOT);
  const [open, setOpen] = useState(false);
  return (
    <details className="tw-files-picker" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>{FILE_MESSAGES.pickerTitle}</summary>
      <p className="tw-files-picker__hint">{FILE_MESSAGES.pickerHint}</p>
      {open ? <DriveBrowser picker folder={folder} onFolder={setFolder} onOpenFile={onPick} /> : null}
    </details>
  );
}
