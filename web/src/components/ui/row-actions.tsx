import type { ReactNode } from 'react';
import { Button } from './button.js';
import { ConfirmDialog } from './dialog.js';

/** A settings list row's Edit and Remove buttons, named after the row so a screen reader tells them apart. */
export function EditRemoveCell({ name, onEdit, onRemove }: { name: string; onEdit: () => void; onRemove: () => void }) {
  return (
    <td>
      <Button size="sm" variant="quiet" aria-label={`Edit ${name}`} onPress={onEdit}>
        Edit
      </Button>
      <Button size="sm" variant="quiet" aria-label={`Remove ${name}`} onPress={onRemove}>
        Remove
      </Button>
    </td>
  );
}

interface RemoveDialogProps<T> {
  /** The row being removed; the dialog is open while there is one. */
  item: T | null;
  onClose: () => void;
  title: string;
  isPending: boolean;
  onConfirm: (item: T) => void;
  /** What removing it changes, and what stays. */
  children: ReactNode;
}

/** Asks before a row is removed: the danger-toned confirmation every settings list uses. */
export function RemoveDialog<T>({ item, onClose, title, isPending, onConfirm, children }: RemoveDialogProps<T>) {
  return (
    <ConfirmDialog
      isOpen={item !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={title}
      confirmLabel="Remove"
      tone="danger"
      isPending={isPending}
      onConfirm={() => (item === null ? undefined : onConfirm(item))}
    >
      {children}
    </ConfirmDialog>
  );
}
