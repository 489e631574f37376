import { useEffect, useState } from 'react';
import { NOTES_PAGE_SIZE } from '../../../../../shared/notes/note-constants.js';
import type { Note } from '../../../../../shared/notes/note-schema.js';
import { formatCents } from '../../../../../shared/sales/sales-schema.js';
import { fullNameWithAge } from '../../../../../shared/patients/patient-derived.js';
import type { Patient } from '../../../../../shared/patients/patient-schema.js';
import { Button } from '../../../components/ui/button.js';
import { PlusIcon } from '../../../components/ui/icons.js';
import { MenuButton, MenuItem } from '../../../components/ui/menu.js';
import { Select } from '../../../components/ui/select.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { activePartnerApps, partnerAppLabel, usePartnerApps } from '../../../lib/partner-apps.js';
import { useNotesTimeline } from '../api/notes-api.js';
import { CREATABLE_NOTE_TYPES, NOTE_TYPE_LABEL } from '../note-types.js';
import '../notes.css';
import { useNoteWindows } from '../windows/note-windows-context.js';
import { EPRESCRIBE_LABEL, useEPrescribe } from '../windows/use-eprescribe.js';
import { NoteTypeIcon } from './note-icons.js';
import { DEFAULT_TYPES, filtersFor, statusOptions, storeChoices, storedChoice, typeOptions } from './timeline-filters.js';
import { formatDateTime, NoteStatusBadge } from './note-header.js';

/** Spec shell §9: list text is cut at 300 characters with an ellipsis. */
const SNIPPET_MAX = 300;
/** What a note holds in one line: its text, or the headline field of a partner's or outside system's note. */
const noteLine = (note: Note): string => {
  const d = note.data as Record<string, { medicationName?: string; specialty?: string; question?: string; summary?: string } | undefined> & Note['data'];
  if (note.noteType === 'RX_VERADIGM' || note.noteType === 'RX_DOSESPOT') return d.prescription?.medicationName ?? '';
  if (note.noteType === 'ECONSULT_THEA') return [d.econsult?.specialty, d.econsult?.question].filter(Boolean).join(': ');
  if (note.noteType === 'PARTNER') return d.result?.summary ?? '';
  if (note.noteType === 'SALES') {
    const items = Array.isArray(note.data.items) ? (note.data.items as { name?: string }[]) : [];
    const total = typeof note.data.totalInCents === 'number' ? ` · ${formatCents(note.data.totalInCents)}` : '';
    return items.length ? `${items.map((i) => i.name).join(', ')}${total}` : '';
  }
  return note.data.text ?? '';
};
const snippet = (note: Note) => {
  const text = (note.data.subject ? `${note.data.subject} — ` : '') + noteLine(note).replace(/\s+/g, ' ').trim();
  return text.length > SNIPPET_MAX ? `${text.slice(0, SNIPPET_MAX)}…` : text;
};

/** "51–100", and "of 123" once the server has read to the last matching note (it reads up to the page). */
function pageRange(offset: number, page: { notes: readonly unknown[]; total?: number }): string {
  const range = page.notes.length > 0 ? `${offset + 1}–${offset + page.notes.length}` : 'No notes on this page';
  return page.total === undefined ? range : `${range} of ${page.total}`;
}

/** The chart's notes: signed and addended notes by default, filters by type and status, 50 per page. */
export function NotesTimelinePanel({ patient }: { patient: Patient }) {
  const windows = useNoteWindows();
  const ePrescribe = useEPrescribe();
  const partnerApps = usePartnerApps();
  const [typeChoice, setTypeChoice] = useState(() => storedChoice('type', typeOptions));
  const [statusChoice, setStatusChoice] = useState(() => storedChoice('status', statusOptions));
  useEffect(() => storeChoices(typeChoice, statusChoice), [typeChoice, statusChoice]);
  const [offset, setOffset] = useState(0);
  const filters = filtersFor(typeChoice, statusChoice);
  const timeline = useNotesTimeline(patient.id, filters, offset);
  const patientName = fullNameWithAge(patient);

  return (
    <section className="tw-card tw-notes-panel" aria-labelledby="notes-panel-title">
      <header className="tw-notes-panel__header">
        <h2 id="notes-panel-title" className="tw-notes-panel__title">
          Notes
        </h2>
        {/* Left of the filters: floating note windows sit at the bottom right and would cover it there. */}
        <MenuButton
          className="tw-button tw-button--primary tw-button--sm"
          label={
            <>
              <PlusIcon /> New
            </>
          }
          ariaLabel="New interaction"
        >
          {CREATABLE_NOTE_TYPES.flatMap((type) => [
            <MenuItem key={type} onAction={() => void windows.createNote({ patientId: patient.id, noteType: type, patientName })}>
              {NOTE_TYPE_LABEL[type]}
            </MenuItem>,
            // Spec shell §2.6: ePrescribe (DoseSpot, a new tab) follows In-house Prescription.
            ...(type === 'RX' && ePrescribe
              ? [
                  <MenuItem key="eprescribe" onAction={() => ePrescribe(patient.id)}>
                    {EPRESCRIBE_LABEL}
                  </MenuItem>,
                ]
              : []),
          ])}
          {activePartnerApps(partnerApps.data).map((app) => (
            <MenuItem
              key={`partner-${app.partnerAppId}`}
              onAction={() => void windows.createNote({ patientId: patient.id, noteType: app.noteType, patientName, data: { partnerAppId: app.partnerAppId } })}
            >
              {partnerAppLabel(app)}
            </MenuItem>
          ))}
        </MenuButton>
        <div className="tw-notes-panel__filters">
          <Select
            label="Type"
            options={typeOptions}
            value={typeChoice}
            onChange={(value) => {
              setTypeChoice(value ?? DEFAULT_TYPES);
              setOffset(0);
            }}
          />
          <Select
            label="Status"
            options={statusOptions}
            value={statusChoice}
            onChange={(value) => {
              setStatusChoice(value ?? DEFAULT_TYPES);
              setOffset(0);
            }}
          />
        </div>
      </header>

      {timeline.isPending ? <Spinner label="Loading notes" /> : null}
      {timeline.isError ? <p className="tw-notes-panel__empty">The notes could not be loaded. {timeline.error.message}</p> : null}
      {timeline.isSuccess && timeline.data.notes.length === 0 ? <p className="tw-notes-panel__empty">No notes match these filters.</p> : null}
      {timeline.isSuccess && timeline.data.notes.length > 0 ? (
        <ul className="tw-notes-list" aria-label="Notes">
          {timeline.data.notes.map((note) => (
            <li key={note.noteId}>
              <button
                type="button"
                className="tw-notes-list__row"
                onClick={() => windows.openNote({ noteId: note.noteId, patientId: note.patientId, noteType: note.noteType, patientName })}
              >
                <NoteTypeIcon type={note.noteType} className="tw-notes-list__icon" />
                <span className="tw-notes-list__main">
                  <span className="tw-notes-list__line">
                    <span className="tw-notes-list__type">{NOTE_TYPE_LABEL[note.noteType]}</span>
                    <NoteStatusBadge status={note.status} />
                    <span className="tw-notes-list__meta">
                      {formatDateTime(note.eventTimestamp)} · {note.author.name}
                    </span>
                  </span>
                  <span className="tw-notes-list__snippet">{snippet(note) || <em>No text</em>}</span>
                </span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {timeline.data && (offset > 0 || timeline.data.hasMore) ? (
        <footer className="tw-notes-panel__pager">
          <span>{pageRange(offset, timeline.data)}</span>
          <Button size="sm" isDisabled={offset === 0} onPress={() => setOffset(Math.max(0, offset - NOTES_PAGE_SIZE))}>
            Previous
          </Button>
          <Button size="sm" isDisabled={!timeline.data.hasMore} onPress={() => setOffset(offset + NOTES_PAGE_SIZE)}>
            Next
          </Button>
        </footer>
      ) : null}
    </section>
  );
}
