import { useMemo, useState } from 'react';
import {
  Autocomplete,
  Collection,
  Dialog,
  Header,
  Input,
  Menu,
  MenuItem,
  MenuSection,
  Modal,
  ModalOverlay,
  SearchField,
  Text,
  type Key,
} from 'react-aria-components';
import { useLocation, useNavigate } from 'react-router-dom';
import { PATIENT_SEARCH_DEBOUNCE_MS } from '../../../../../shared/constants/patients.js';
import { fullNameWithAge } from '../../../../../shared/patients/patient-derived.js';
import { SearchIcon } from '../../../components/ui/icons.js';
import { MODAL_WIDTH } from '../../../components/ui/dialog.js';
import { paths } from '../../../lib/paths.js';
import { usePatientSearch } from '../../../lib/patients.js';
import { displayUserName, usePracticeUsers } from '../../../lib/practice.js';
import { useDebouncedValue } from '../../../lib/use-debounced-value.js';
import { usePaletteTemplates } from '../api/palette-search.js';
import {
  activeTemplates,
  activeUsers,
  matchesQuery,
  paletteActions,
  type PaletteCommand,
  type PaletteInteraction,
  type PaletteSection,
} from '../palette-actions.js';
import '../palette.css';

export const PALETTE_PLACEHOLDER = 'Search for patients, templates, user, interactions, etc...';

interface Entry {
  id: string;
  label: string;
  detail?: string;
  /** Text the filter matches; patients are already matched by the server. */
  filterText: string | null;
  run: () => void;
}

interface Section {
  id: string;
  title: PaletteSection | 'New Interaction';
  entries: Entry[];
}

export interface CommandPaletteProps {
  isOpen: boolean;
  onOpenChange: (isOpen: boolean) => void;
  helpHref: string;
  /** Note types the notes feature can create (spec shell §2.6 'New Interaction'). */
  interactions?: readonly PaletteInteraction[];
}

/** Enough patients to pick from without scrolling a long list inside the palette. */
const PATIENT_RESULTS = 8;

/** Spec shell §2.6: one searchable list of actions, patients, templates and users. */
export function CommandPalette({ isOpen, onOpenChange, helpHref, interactions = [] }: CommandPaletteProps) {
  return (
    <ModalOverlay isOpen={isOpen} onOpenChange={onOpenChange} isDismissable className="tw-modal-overlay tw-palette-overlay">
      <Modal className="tw-modal tw-palette" style={{ width: MODAL_WIDTH.md }}>
        <Dialog className="tw-palette__dialog" aria-label="Command palette">
          <PaletteBody close={() => onOpenChange(false)} helpHref={helpHref} interactions={interactions} />
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

function PaletteBody({ close, helpHref, interactions }: { close: () => void; helpHref: string; interactions: readonly PaletteInteraction[] }) {
  const navigate = useNavigate();
  // The chart the palette was opened on, so its new task or reminder is about that patient.
  const chartPatientId = /^\/patients\/([^/]+)/.exec(useLocation().pathname)?.[1];
  const [query, setQuery] = useState('');
  const [page, setPage] = useState<'root' | 'interactions'>('root');
  const debounced = useDebouncedValue(query.trim(), PATIENT_SEARCH_DEBOUNCE_MS);
  const patients = usePatientSearch(debounced, { limit: PATIENT_RESULTS, enabled: page === 'root' });
  const users = usePracticeUsers();
  const templates = usePaletteTemplates(true);

  const sections = useMemo<Section[]>(() => {
    const run = (command: PaletteCommand) => () => {
      if (command.kind === 'interactions') {
        setPage('interactions');
        setQuery('');
        return;
      }
      close();
      if (command.kind === 'href') void navigate(command.href);
      else if (command.kind === 'back') void navigate(-1);
      else window.open(command.href, '_blank', 'noopener,noreferrer');
    };
    if (page === 'interactions') {
      return [
        {
          id: 'interactions',
          title: 'New Interaction',
          entries: interactions.map((i) => ({ id: `interaction:${i.id}`, label: i.label, filterText: i.label, run: () => (close(), i.perform()) })),
        },
      ];
    }
    const actions = paletteActions({
      today: new Date(),
      helpHref,
      hasInteractions: interactions.length > 0,
      patientId: chartPatientId ? decodeURIComponent(chartPatientId) : undefined,
    });
    const actionEntries = (section: 'Navigation' | 'Settings') =>
      actions
        .filter((a) => a.section === section)
        .map((a) => ({ id: `action:${a.id}`, label: a.label, filterText: `${a.label} ${a.keywords ?? ''}`, run: run(a.command) }));
    const typed = debounced.length > 0 && debounced === query.trim();
    // A typed word finds each New Interaction choice at the top level too ("copilot", "vitals").
    const interactionEntries: Entry[] = query.trim()
      ? interactions.map((i) => ({ id: `interaction:${i.id}`, label: `New Interaction: ${i.label}`, filterText: i.label, run: () => (close(), i.perform()) }))
      : [];
    return [
      { id: 'navigation', title: 'Navigation', entries: [...actionEntries('Navigation'), ...interactionEntries] },
      { id: 'settings', title: 'Settings', entries: actionEntries('Settings') },
      {
        id: 'patients',
        title: 'Patients',
        entries: typed
          ? (patients.data?.items ?? []).map((p) => ({
              id: `patient:${p.id}`,
              label: fullNameWithAge(p),
              filterText: null,
              run: run({ kind: 'href', href: paths.patient(p.id) }),
            }))
          : [],
      },
      {
        id: 'templates',
        title: 'Templates',
        entries: query.trim()
          ? activeTemplates(templates.data ?? []).map((t) => ({
              id: `template:${t.templateId}`,
              label: t.templateName,
              filterText: t.templateName,
              run: run({ kind: 'href', href: paths.template(t.templateId) }),
            }))
          : [],
      },
      {
        id: 'users',
        title: 'Users',
        entries: query.trim()
          ? activeUsers(users.data ?? []).map((u) => ({
              id: `user:${u.userId}`,
              label: displayUserName(u),
              detail: u.emailAddress,
              filterText: `${displayUserName(u)} ${u.emailAddress}`,
              run: run({ kind: 'href', href: paths.teamMember(u.userId) }),
            }))
          : [],
      },
    ];
  }, [page, interactions, helpHref, debounced, query, patients.data, templates.data, users.data, close, navigate, chartPatientId]);

  const visible = sections
    .map((s) => ({ ...s, entries: s.entries.filter((e) => e.filterText === null || matchesQuery(e.filterText, query)) }))
    .filter((s) => s.entries.length > 0);
  const byId = new Map(visible.flatMap((s) => s.entries.map((e) => [e.id, e] as const)));
  const searchingPatients = page === 'root' && query.trim().length > 0 && (debounced !== query.trim() || patients.isFetching);

  return (
    <Autocomplete inputValue={query} onInputChange={setQuery}>
      <SearchField
        aria-label={page === 'interactions' ? 'Search interactions' : 'Search'}
        className="tw-palette__search"
        autoFocus
        onKeyDown={(event) => {
          if (event.key === 'Backspace' && query === '' && page !== 'root') setPage('root');
        }}
      >
        <SearchIcon className="tw-palette__search-icon" />
        <Input className="tw-palette__input" placeholder={page === 'interactions' ? 'Choose the kind of interaction...' : PALETTE_PLACEHOLDER} />
        <kbd className="tw-palette__esc">Esc</kbd>
      </SearchField>
      {/*
        The scrolling box is its own Tab stop so a keyboard user can scroll a long list (axe
        scrollable-region-focusable): the options themselves stay virtually focused from the search box.
      */}
      <div className="tw-palette__list" role="region" aria-label="Search results" tabIndex={0}>
        <Menu
          className="tw-palette__menu"
          aria-label="Results"
          items={visible}
          onAction={(key: Key) => byId.get(String(key))?.run()}
          renderEmptyState={() => <p className="tw-palette__empty">{searchingPatients ? 'Searching…' : 'No results found.'}</p>}
        >
          {(section) => (
            <MenuSection id={section.id} className="tw-palette__section">
              <Header className="tw-palette__section-title">{section.title}</Header>
              <Collection items={section.entries}>
                {(entry) => (
                  <MenuItem id={entry.id} textValue={entry.label} className="tw-palette__item">
                    <Text slot="label" className="tw-palette__item-label">
                      {entry.label}
                    </Text>
                    {entry.detail ? (
                      <Text slot="description" className="tw-palette__item-detail">
                        {entry.detail}
                      </Text>
                    ) : null}
                  </MenuItem>
                )}
              </Collection>
            </MenuSection>
          )}
        </Menu>
      </div>
      <div className="tw-palette__footer" aria-hidden="true">
        <span>
          <kbd>↑</kbd>
          <kbd>↓</kbd> to move
        </span>
        <span>
          <kbd>Enter</kbd> to open
        </span>
        {searchingPatients ? <span className="tw-palette__searching">Searching patients…</span> : null}
      </div>
    </Autocomplete>
  );
}
