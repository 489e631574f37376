import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import type { DriveFile } from '../../../../../shared/files/drive.js';
import { DriveBrowser } from '../../../components/files/drive-browser.js';
import { FileViewerWindow } from '../../../components/files/file-viewer-window.js';
import { Page } from '../../../components/ui/page.js';

/** /files/{folderPath}: the folder comes from the path, so a folder can be linked and the back button goes up. */
export function FileDrivePage() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const folder = decodeURIComponent(pathname.replace(/^\/files\//, '')).replace(/\/?$/, '/');
  const [viewing, setViewing] = useState<DriveFile | null>(null);
  return (
    <Page title="File Drive">
      <DriveBrowser folder={folder} onFolder={(path) => void navigate(`/files/${path.split('/').map(encodeURIComponent).join('/')}`)} onOpenFile={setViewing} />
      <FileViewerWindow file={viewing} onClose={() => setViewing(null)} />
    </Page>
  );
}
