import { useState, type ReactNode } from 'react';
import { Dialog as AriaDialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { CHART_MESSAGES } from '../../../../../shared/chart/constants.js';
import { Button } from '../../../components/ui/button.js';
import { ConfirmDialog, MODAL_WIDTH } from '../../../components/ui/dialog.js';
import { Form } from '../../../components/ui/form.js';
import { MenuButton, MenuItem } from '../../../components/ui/menu.js';
import { TextField } from '../../../components/ui/text-field.js';
import { isApiError } from '../../../lib/api-error.js';
import { useTouchScreen } from '../../../lib/use-media-query.js';
import { KebabIcon, PinIcon } from './kebab-icon.js';

export interface ItemAction {
  id: string;
  label: string;
  onAction: () => void;
}

/** The kebab menu of a card or a group; a `delete` action is shown in the danger colour. */
export function ActionsMenu({ label, actions }: { label: string; actions: ItemAction[] }) {
  return (
    <MenuButton label={<KebabIcon />} ariaLabel={label} className="tw-chart-item__menu">
      {actions.map((action) => (
        <MenuItem
          key={action.id}
          id={action.id}
          onAction={action.onAction}
          className={action.id.startsWith('delete') ? 'tw-chart-menu-item tw-menu__item--danger' : 'tw-chart-menu-item'}
        >
          {action.label}
        </MenuItem>
      ))}
    </MenuButton>
  );
}

export interface ItemCardProps {
  /** Accessible name of the card (the item's name). */
  label: string;
  /** Accessible name of its menu ("Actions for allergy Penicillin"). */
  menuLabel: string;
  pinned?: boolean;
  actions: ItemAction[];
  /** Double-click edits; `field` is the body field under the pointer, for the form to focus. */
  onEdit?: (field?: string) => void;
  children: ReactNode;
}

/**
 * One chart item: its summary, a pin marker and the kebab menu; a double-click opens the edit form.
 * Touch screens, where nobody double-clicks, get a visible Edit button instead.
 */
export function ItemCard({ label, menuLabel, pinned = false, actions, onEdit, children }: ItemCardProps) {
  const touch = useTouchScreen();
  return (
    <li
      className={['tw-chart-item', pinned ? 'tw-chart-item--pinned' : ''].filter(Boolean).join(' ')}
      onDoubleClick={onEdit ? (event) => onEdit((event.target as HTMLElement).closest('[data-field]')?.getAttribute('data-field') ?? undefined) : undefined}
      aria-label={label}
      data-pinned={pinned || undefined}
    >
      <div className="tw-chart-item__content">{children}</div>
      <div className="tw-chart-item__side">
        {pinned ? (
          <span className="tw-chart-item__pin" title="Pinned">
            <PinIcon filled />
            <span className="tw-visually-hidden">Pinned</span>
          </span>
        ) : null}
        {touch && onEdit ? (
          <Button variant="quiet" size="sm" className="tw-chart-item__edit" aria-label={`Edit ${label}`} onPress={() => onEdit()}>
            Edit
          </Button>
        ) : null}
        <ActionsMenu label={menuLabel} actions={actions} />
      </div>
    </li>
  );
}

export interface GroupCardProps {
  name: string;
  /** "2 doses", "3 items". */
  countLabel?: string;
  /** Quiet link buttons in the header (Pin all, Add dose). */
  links?: ReactNode;
  /** Renames the stored group; rejects with the API error. Without it the group has no menu. */
  onRename?: (name: string) => Promise<unknown>;
  /** Deletes the group with its items. */
  onDelete?: () => Promise<unknown>;
  /** What the delete question says will go ("“Lifestyle” and its 2 items …"). */
  deleteText?: string;
  /** Extra class of the card list (compact dose rows). */
  listClassName?: string;
  children: ReactNode;
}

/** A named group of cards (a general-information group, a vaccine series) with rename and delete. */
export function GroupCard({ name, countLabel, links, onRename, onDelete, deleteText, listClassName, children }: GroupCardProps) {
  const [renaming, setRenaming] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const actions: ItemAction[] = [
    ...(onRename ? [{ id: 'rename', label: 'Rename group', onAction: () => setRenaming(true) }] : []),
    ...(onDelete ? [{ id: 'delete', label: 'Delete group', onAction: () => setConfirmDelete(true) }] : []),
  ];
  return (
    <section className="tw-chart-group" aria-label={name}>
      <header className="tw-chart-group__header">
        <h3 className="tw-chart-group__name">{name}</h3>
        {countLabel ? <span className="tw-chart-muted">{countLabel}</span> : null}
        <span className="tw-chart-group__actions">
          {links}
          {actions.length ? <ActionsMenu label={`Actions for group ${name}`} actions={actions} /> : null}
        </span>
      </header>
      <ul className={['tw-chart-list', listClassName].filter(Boolean).join(' ')}>{children}</ul>
      {renaming && onRename ? <RenameGroupDialog name={name} onRename={onRename} onClose={() => setRenaming(false)} /> : null}
      {onDelete ? (
        <ConfirmDialog
          isOpen={confirmDelete}
          onOpenChange={setConfirmDelete}
          title="Delete group?"
          confirmLabel="Delete"
          tone="danger"
          isPending={deleting}
          onConfirm={() => {
            setDeleting(true);
            void onDelete().finally(() => {
              setDeleting(false);
              setConfirmDelete(false);
            });
          }}
        >
          {deleteText}
        </ConfirmDialog>
      ) : null}
    </section>
  );
}

/** Group name form: an empty name is refused with the spec's "Group Name is not valid". */
function RenameGroupDialog({ name, onRename, onClose }: { name: string; onRename: (name: string) => Promise<unknown>; onClose: () => void }) {
  const [value, setValue] = useState(name);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const submit = async () => {
    const next = value.trim();
    if (!next) {
      setError(CHART_MESSAGES.groupNameInvalid);
      return;
    }
    if (next === name) {
      onClose();
      return;
    }
    setSaving(true);
    try {
      await onRename(next);
      onClose();
    } catch (failure) {
      const fieldError = isApiError(failure) ? (failure.fieldErrors.name ?? failure.fieldErrors['group.name']) : undefined;
      setError(fieldError ?? (failure instanceof Error ? failure.message : CHART_MESSAGES.groupNameInvalid));
    } finally {
      setSaving(false);
    }
  };

  return (
    <ModalOverlay isOpen isDismissable onOpenChange={(open) => (open ? undefined : onClose())} className="tw-modal-overlay">
      <Modal className="tw-modal" style={{ width: MODAL_WIDTH.sm }}>
        <AriaDialog className="tw-dialog" aria-label="Rename group">
          <Heading slot="title" className="tw-dialog__title">
            Rename group
          </Heading>
          <Form
            className="tw-chart-rename"
            validationErrors={error ? { name: error } : {}}
            onSubmit={(event) => {
              event.preventDefault();
              void submit();
            }}
          >
            <div className="tw-dialog__body">
              <TextField
                label="Group Name"
                name="name"
                value={value}
                onChange={(next) => {
                  setValue(next);
                  setError(null);
                }}
                autoFocus
              />
            </div>
            <div className="tw-dialog__actions">
              <Button variant="secondary" onPress={onClose}>
                Cancel
              </Button>
              <Button variant="primary" type="submit" isPending={saving}>
                Save
              </Button>
            </div>
          </Form>
        </AriaDialog>
      </Modal>
    </ModalOverlay>
  );
}
