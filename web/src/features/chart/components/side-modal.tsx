import type { ReactNode } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { CloseIcon } from '../../../components/ui/icons.js';

export interface SideModalProps {
  title: string;
  isOpen: boolean;
  /** Called for Escape, a press outside and the close button; the form decides what closing means. */
  onDismiss: () => void;
  children: ReactNode;
  footer: ReactNode;
}

/** The chart's forms open in a panel on the right, keeping the summary visible beside them. */
export function SideModal({ title, isOpen, onDismiss, children, footer }: SideModalProps) {
  return (
    <ModalOverlay
      isOpen={isOpen}
      isDismissable
      onOpenChange={(open) => {
        if (!open) onDismiss();
      }}
      className="tw-chart-drawer-overlay"
    >
      <Modal className="tw-chart-drawer">
        <Dialog className="tw-chart-drawer__dialog" aria-label={title}>
          <header className="tw-chart-drawer__header">
            <Heading slot="title" className="tw-chart-drawer__title">
              {title}
            </Heading>
            <button type="button" className="tw-chart-icon-button" aria-label="Close" onClick={onDismiss}>
              <CloseIcon />
            </button>
          </header>
          <div className="tw-chart-drawer__body">{children}</div>
          <footer className="tw-chart-drawer__footer">{footer}</footer>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
