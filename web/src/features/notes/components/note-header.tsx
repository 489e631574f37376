import { Button as AriaButton, ToggleButton } from 'react-aria-components';
import { isLockable, NOTE_STATUS_TONE } from '../../../../../shared/notes/note-constants.js';
import type { Note } from '../../../../../shared/notes/note-schema.js';
import { MenuButton, MenuItem } from '../../../components/ui/menu.js';
import { CloseIcon } from '../../../components/ui/icons.js';
import { NOTE_TYPE_LABEL, STATUS_LABEL } from '../note-types.js';
import type { NoteStage } from '../windows/note-window-state.js';
import { ExpandIcon, LockIcon, MinimizeIcon, MoreIcon, NoteTypeIcon, ShrinkIcon } from './note-icons.js';

export const formatDateTime = (iso: string) =>
  new Date(iso).toLocaleString('en-US', { month: '2-digit', day: '2-digit', year: 'numeric', hour: 'numeric', minute: '2-digit' });

export interface NoteHeaderProps {
  note: Note;
  titleId: string;
  patientName: string;
  stage: NoteStage;
  fullscreenOnly: boolean;
  onStage: (stage: NoteStage) => void;
  onClose: () => void;
  onToggleLock: () => void;
  lockPending: boolean;
  menuHidden: boolean;
  canChangeDate: boolean;
  /** False when the permissions table refuses this user deleting the note (a signed note of someone else). */
  canDelete?: boolean;
  /** Spec notes §4: fax export only for SIGNED or ADDENDED notes of a patient. */
  canFax?: boolean;
  onMenuAction: (action: 'date' | 'toggle-menu' | 'assign' | 'delete' | 'fax') => void;
}

export function NoteStatusBadge({ status }: { status: Note['status'] }) {
  return <span className={`tw-note-status tw-note-status--${NOTE_STATUS_TONE[status]}`}>{STATUS_LABEL(status)}</span>;
}

/** Spec notes §2: lock toggle, menu, type icon and label, status badge with signing time, window controls. */
export function NoteHeader({
  note,
  titleId,
  patientName,
  stage,
  fullscreenOnly,
  onStage,
  onClose,
  onToggleLock,
  lockPending,
  menuHidden,
  canChangeDate,
  canDelete = true,
  canFax = false,
  onMenuAction,
}: NoteHeaderProps) {
  const lockable = isLockable(note.noteType);
  const isDraft = note.status === 'DRAFT';
  return (
    <div className="tw-note-window__header">
      <div className="tw-note-window__title">
        <NoteTypeIcon type={note.noteType} className="tw-note-window__type-icon" />
        <h2 id={titleId} className="tw-note-window__heading">
          <span>{NOTE_TYPE_LABEL[note.noteType]}</span>
          {patientName ? <span className="tw-note-window__patient"> · {patientName}</span> : null}
        </h2>
        <NoteStatusBadge status={note.status} />
        {note.signed ? (
          <span className="tw-note-window__signed" title="Signed">
            Signed {formatDateTime(note.signed)}
          </span>
        ) : null}
      </div>
      <div className="tw-note-window__controls">
        <ToggleButton
          className="tw-icon-button"
          isSelected={note.hidden}
          isDisabled={!lockable || lockPending}
          onChange={onToggleLock}
          aria-label={note.hidden ? 'Locked: hidden from the patient portal' : 'Unlocked: visible in the patient portal'}
        >
          <LockIcon locked={note.hidden} />
        </ToggleButton>
        <MenuButton ariaLabel="Note menu" className="tw-icon-button" label={<MoreIcon />}>
          {canChangeDate ? <MenuItem onAction={() => onMenuAction('date')}>Change date</MenuItem> : null}
          <MenuItem onAction={() => onMenuAction('toggle-menu')}>{menuHidden ? 'Show Menu' : 'Hide Menu'}</MenuItem>
          {isDraft ? <MenuItem onAction={() => onMenuAction('assign')}>Assign draft</MenuItem> : null}
          {canFax ? <MenuItem onAction={() => onMenuAction('fax')}>Fax</MenuItem> : null}
          {canDelete ? (
            <MenuItem onAction={() => onMenuAction('delete')} className="tw-menu__item--danger">
              Delete
            </MenuItem>
          ) : null}
        </MenuButton>
        <span className="tw-note-window__divider" aria-hidden="true" />
        <AriaButton className="tw-icon-button" aria-label="Minimize note" onPress={() => onStage('minimized')}>
          <MinimizeIcon />
        </AriaButton>
        {fullscreenOnly ? null : stage === 'fullscreen' ? (
          <AriaButton className="tw-icon-button" aria-label="Exit full screen" onPress={() => onStage('default')}>
            <ShrinkIcon />
          </AriaButton>
        ) : (
          <AriaButton className="tw-icon-button" aria-label="Full screen" onPress={() => onStage('fullscreen')}>
            <ExpandIcon />
          </AriaButton>
        )}
        <AriaButton className="tw-icon-button" aria-label="Close note" onPress={onClose}>
          <CloseIcon />
        </AriaButton>
      </div>
    </div>
  );
}
