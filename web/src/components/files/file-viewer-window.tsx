import './files.css';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { Button } from '../ui/button.js';
import { MODAL_WIDTH } from '../ui/dialog.js';
import { drivePath, signedFileUrl } from '../../lib/drive.js';
import { copyToClipboard } from '../../lib/clipboard.js';
import { FilePreview } from './file-preview.js';
import { showToast } from '../../lib/toasts.js';
import { FILE_MESSAGES } from '../../../../shared/files/drive.js';

async function download(key: string) {
  try {
    window.open(await signedFileUrl(key), '_blank', 'noopener');
  } catch {
    showToast(FILE_MESSAGES.unablePreview, { tone: 'error' });
  }
}

/** The file viewer window: the previewer and a download button. */
export function FileViewerWindow({ file, onClose }: { file: { key: string; name: string } | null; onClose: () => void }) {
  return (
    <ModalOverlay isOpen={!!file} onOpenChange={(open) => !open && onClose()} isDismissable className="tw-modal-overlay">
      <Modal className="tw-modal tw-file-viewer-window" style={{ width: MODAL_WIDTH.lg }}>
        <Dialog className="tw-dialog">
          {({ close }) =>
            file ? (
              <>
                <div className="tw-file-viewer-window__header">
                  <Heading slot="title" className="tw-dialog__title">
                    {file.name}
                  </Heading>
                  {drivePath(file.key) ? (
                    <Button size="sm" variant="quiet" onPress={() => void copyToClipboard(drivePath(file.key) ?? '')}>
                      Copy path
                    </Button>
                  ) : null}
                  <Button size="sm" onPress={() => void download(file.key)}>
                    Download
                  </Button>
                  <Button size="sm" variant="quiet" onPress={close}>
                    Close
                  </Button>
                </div>
                <div className="tw-file-viewer-window__body" tabIndex={0} role="region" aria-label={`Preview of ${file.name}`}>
                  <FilePreview fileKey={file.key} name={file.name} />
                </div>
              </>
            ) : null
          }
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
