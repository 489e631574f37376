import { useState, type ReactNode } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import type { Note } from '../../../../../shared/notes/note-schema.js';
import { NOTE_LAYOUT, NOTE_MESSAGES } from '../../../../../shared/notes/note-constants.js';
import { Button } from '../../../components/ui/button.js';
import { MODAL_WIDTH } from '../../../components/ui/dialog.js';
import { Select } from '../../../components/ui/select.js';
import { displayUserName, usePracticeUsers } from '../../../lib/practice.js';
import { NoteEditor } from '../editor/note-editor.js';
import { STATUS_LABEL } from '../note-types.js';
import { formatDateTime } from './note-header.js';

interface NoteDialogProps {
  title: string;
  isOpen: boolean;
  onClose: () => void;
  children: ReactNode;
  actions: ReactNode;
  width?: keyof typeof MODAL_WIDTH;
}

function NoteDialog({ title, isOpen, onClose, children, actions, width = 'sm' }: NoteDialogProps) {
  return (
    <ModalOverlay isOpen={isOpen} onOpenChange={(open) => !open && onClose()} isDismissable className="tw-modal-overlay tw-note-modal-overlay">
      <Modal className="tw-modal" style={{ width: MODAL_WIDTH[width] }}>
        <Dialog className="tw-dialog">
          <Heading slot="title" className="tw-dialog__title">
            {title}
          </Heading>
          <div className="tw-dialog__body">{children}</div>
          <div className="tw-dialog__actions">{actions}</div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

const MIN_DATE = `${NOTE_LAYOUT.datePickerMinYear}-01-01`;
export const NOTE_DATE_MIN_MESSAGE = `The date cannot be before ${NOTE_LAYOUT.datePickerMinYear}.`;

const toLocalDate = (iso: string) => {
  const d = new Date(iso);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

/** The note date; the picker starts at year 2000 (spec notes §9). Keeps the time of day. */
export function NoteDateDialog({ isOpen, value, onClose, onSave }: { isOpen: boolean; value: string; onClose: () => void; onSave: (iso: string) => void }) {
  const [date, setDate] = useState(() => toLocalDate(value));
  const [error, setError] = useState<string | null>(null);
  const submit = () => {
    const [y, m, d] = date.split('-').map(Number);
    if (!y || !m || !d) return setError('Enter a date.');
    if (y < NOTE_LAYOUT.datePickerMinYear) return setError(NOTE_DATE_MIN_MESSAGE);
    const original = new Date(value);
    onSave(new Date(y, m - 1, d, original.getHours(), original.getMinutes()).toISOString());
  };
  return (
    <NoteDialog
      title="Note date"
      isOpen={isOpen}
      onClose={onClose}
      actions={
        <>
          <Button onPress={onClose}>Cancel</Button>
          <Button variant="primary" onPress={submit}>
            Save date
          </Button>
        </>
      }
    >
      <label className="tw-field">
        <span className="tw-field__label">Date</span>
        <input
          type="date"
          className="tw-field__input"
          min={MIN_DATE}
          value={date}
          aria-invalid={error ? true : undefined}
          onChange={(e) => {
            setDate(e.target.value);
            setError(null);
          }}
        />
        {error ? <span className="tw-field__error">{error}</span> : null}
      </label>
    </NoteDialog>
  );
}

/** Assign a draft to a colleague: they get a DRAFT notification (spec notes §4). */
export function AssignDraftDialog({
  isOpen,
  onClose,
  onAssign,
}: {
  isOpen: boolean;
  onClose: () => void;
  onAssign: (userId: string | null, name: string) => void;
}) {
  const users = usePracticeUsers({ enabled: isOpen });
  const [userId, setUserId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const options = (users.data ?? []).filter((u) => u.permissionGroup !== 'no_access').map((u) => ({ id: u.userId, label: displayUserName(u) }));
  return (
    <NoteDialog
      title="Assign draft"
      isOpen={isOpen}
      onClose={onClose}
      actions={
        <>
          <Button onPress={onClose}>Cancel</Button>
          <Button
            variant="primary"
            onPress={() => {
              if (!userId) return setError(NOTE_MESSAGES.assignUserRequired);
              onAssign(userId, options.find((o) => o.id === userId)?.label ?? '');
            }}
          >
            Assign
          </Button>
        </>
      }
    >
      <Select
        label="User"
        options={options}
        value={userId}
        placeholder={users.isPending ? 'Loading users…' : 'Select a user'}
        onChange={(value) => {
          setUserId(value);
          setError(null);
        }}
        isInvalid={Boolean(error)}
      />
      {error ? (
        <p className="tw-field__error" role="alert">
          {error}
        </p>
      ) : null}
    </NoteDialog>
  );
}

export interface LatestVersionDialogProps {
  isOpen: boolean;
  /** The note as the server has it now. */
  latest: Note;
  /** Whether the latest version can still take the user's text (it may have been signed meanwhile). */
  canKeepMine: boolean;
  onClose: () => void;
  onKeepMine: () => void;
  onReplace: () => void;
}

/**
 * After a 409: the version someone else saved, read-only, next to the user's own text (still in the
 * window behind). Replacing the user's unsaved text is a choice made here, never a side effect.
 */
export function LatestVersionDialog({ isOpen, latest, canKeepMine, onClose, onKeepMine, onReplace }: LatestVersionDialogProps) {
  const html = latest.data.formattedText || latest.data.text || '';
  return (
    <NoteDialog
      title="Latest version of this note"
      isOpen={isOpen}
      onClose={onClose}
      width="md"
      actions={
        <>
          <Button onPress={onClose}>Cancel</Button>
          {canKeepMine ? <Button onPress={onKeepMine}>Keep my text</Button> : null}
          <Button variant="danger" onPress={onReplace}>
            Replace my text
          </Button>
        </>
      }
    >
      <p className="tw-latest-version__meta">
        {STATUS_LABEL(latest.status)} · saved {formatDateTime(latest.timestamp)} · version {latest.noteVersion}
      </p>
      <div className="tw-latest-version__text" role="region" aria-label="Latest version">
        <NoteEditor ariaLabel="Latest version text" initialHtml={html} onChange={() => undefined} readOnly />
      </div>
      <p className="tw-latest-version__hint">
        {canKeepMine
          ? 'Your unsaved text stays in the note until you choose. Keep my text saves yours over this version; Replace my text discards yours.'
          : 'This version can no longer be edited. Replace my text shows it and discards your unsaved text.'}
      </p>
    </NoteDialog>
  );
}
