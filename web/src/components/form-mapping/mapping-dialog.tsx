import type { ReactNode } from 'react';
import { Dialog as AriaDialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { Button } from '../ui/button.js';
import { MODAL_WIDTH } from '../ui/dialog.js';
import { Spinner } from '../ui/spinner.js';
import './form-mapping.css';

interface MappingDialogProps {
  title: ReactNode;
  onClose: () => void;
  /** False while the saved mapping loads or after it failed to; `loadError` then says why. */
  isLoaded: boolean;
  loadError: string | null;
  /** Why the last save failed; the edits stay in the table to try again. */
  error: string | null;
  confirmLabel: string;
  confirmDisabled: boolean;
  pending: boolean;
  onConfirm: () => void;
  children: ReactNode;
}

/** The wide dialog a form's mapping is edited in: its table once loaded, the save error, then Cancel and the confirm button. */
export function MappingDialog({ title, onClose, isLoaded, loadError, error, confirmLabel, confirmDisabled, pending, onConfirm, children }: MappingDialogProps) {
  return (
    <ModalOverlay isOpen isDismissable onOpenChange={(open) => (open ? undefined : onClose())} className="tw-modal-overlay">
      <Modal className="tw-modal" style={{ width: `min(${MODAL_WIDTH.xl}px, 96vw)` }}>
        <AriaDialog className="tw-dialog">
          <Heading slot="title" className="tw-dialog__title">
            {title}
          </Heading>
          {isLoaded ? children : loadError ? <p role="alert">{loadError}</p> : <Spinner label="Loading mapping" />}
          {error ? (
            <p className="tw-mapping__error" role="alert">
              {error}
            </p>
          ) : null}
          <div className="tw-dialog__actions">
            <Button onPress={onClose}>Cancel</Button>
            <Button variant="primary" isDisabled={confirmDisabled} isPending={pending} onPress={onConfirm}>
              {pending ? 'Saving…' : confirmLabel}
            </Button>
          </div>
        </AriaDialog>
      </Modal>
    </ModalOverlay>
  );
}
