import type { ReactNode } from 'react';
import { Dialog as AriaDialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { Button } from './button.js';

/** Spec shell §9 modal widths. */
export const MODAL_WIDTH = { xs: 300, sm: 400, md: 650, lg: 900, xl: 1200 } as const;

export interface ConfirmDialogProps {
  isOpen: boolean;
  onOpenChange: (isOpen: boolean) => void;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  isPending?: boolean;
  tone?: 'primary' | 'danger';
}

export function ConfirmDialog({ isOpen, onOpenChange, title, children, confirmLabel, onConfirm, isPending, tone = 'primary' }: ConfirmDialogProps) {
  return (
    <ModalOverlay isOpen={isOpen} onOpenChange={onOpenChange} isDismissable className="tw-modal-overlay">
      <Modal className="tw-modal" style={{ width: MODAL_WIDTH.sm }}>
        <AriaDialog className="tw-dialog" role="alertdialog">
          {({ close }) => (
            <>
              <Heading slot="title" className="tw-dialog__title">
                {title}
              </Heading>
              <div className="tw-dialog__body">{children}</div>
              <div className="tw-dialog__actions">
                <Button variant="secondary" onPress={close}>
                  Cancel
                </Button>
                <Button variant={tone} onPress={onConfirm} isPending={isPending}>
                  {confirmLabel}
                </Button>
              </div>
            </>
          )}
        </AriaDialog>
      </Modal>
    </ModalOverlay>
  );
}
