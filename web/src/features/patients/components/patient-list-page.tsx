import { useNavigate, useSearchParams } from 'react-router-dom';
import { PATIENT_PAGE_SIZE, PATIENT_SEARCH_DEBOUNCE_MS } from '../../../../../shared/constants/patients.js';
import { dobString, fullNameWithAge, primaryPhone } from '../../../../../shared/patients/patient-derived.js';
import { formatPhone } from '../../../../../shared/patients/phone.js';
import type { Patient, PatientSearchMatch } from '../../../../../shared/patients/patient-schema.js';
import { matchReasonLabel } from '../../../../../shared/patients/patient-search.js';
import { Avatar } from '../../../components/ui/avatar.js';
import { Badge } from '../../../components/ui/badge.js';
import { PlusIcon } from '../../../components/ui/icons.js';
import { Link } from '../../../components/ui/link.js';
import { SearchField } from '../../../components/ui/search-field.js';
import { QueryTable } from '../../../components/ui/query-table.js';
import { TablePager } from '../../../components/ui/table-pager.js';
import { Switch } from '../../../components/ui/switch.js';
import { ClickableRow } from '../../../components/ui/clickable-row.js';
import { paths } from '../../../lib/paths.js';
import { useDebouncedValue } from '../../../lib/use-debounced-value.js';
import { usePatientList } from '../api/patients-api.js';
import { searchQueryFor } from '../search-query.js';
import '../patients.css';

export function PatientListPage() {
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const archived = params.get('archived') === '1';
  const offset = Math.max(0, Number(params.get('offset')) || 0);
  // The typed text lives in the URL (updated from the input's own change event, never from an
  // effect, so a pending navigation away cannot pick it up); the API sees the debounced text.
  const searchText = params.get('q') ?? '';
  const debouncedSearch = useDebouncedValue(searchText, PATIENT_SEARCH_DEBOUNCE_MS);
  const q = searchQueryFor(debouncedSearch);

  const list = usePatientList({ q, offset, archived });

  const update = (changes: Record<string, string | null>) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          if (value === null) next.delete(key);
          else next.set(key, value);
        }
        return next;
      },
      { replace: true },
    );

  const total = list.data?.total ?? 0;
  const items = list.data?.items ?? [];
  const matches = new Map((list.data?.matches ?? []).map((match) => [match.id, match]));

  return (
    <section className="tw-page" aria-labelledby="patients-title">
      <div className="tw-page__header">
        <div>
          <h1 id="patients-title" className="tw-page__title">
            {archived ? 'Archived patients' : 'Patients'}
          </h1>
          <p className="tw-page__subtitle" aria-live="polite">
            {list.data ? `${total} ${total === 1 ? 'patient' : 'patients'}${q ? ' found' : ''}` : '\u00a0'}
          </p>
        </div>
        <div className="tw-patients__header-actions">
          <Link variant="primary" href={paths.newPatient()}>
            <PlusIcon />
            New patient
          </Link>
        </div>
      </div>

      <div className="tw-card">
        <div className="tw-patients__toolbar">
          <SearchField
            label="Search patients"
            placeholder="Search by name or phone number"
            value={searchText}
            onChange={(text) => update({ q: text || null, offset: null })}
            className="tw-patients__search"
            autoFocus
          />
          <Switch isSelected={archived} onChange={(selected) => update({ archived: selected ? '1' : null, offset: null })} label="Show archived" />
        </div>

        <QueryTable
          query={list}
          items={list.data ? items : undefined}
          label={archived ? 'Archived patients' : 'Patients'}
          loadingLabel="Loading patients"
          emptyText="No results found."
          className="tw-table tw-patients__table"
          fetching={list.isFetching}
          columns={['Name', 'Date of birth', 'Phone', 'Email']}
          renderRow={(patient) => (
            <PatientRow key={patient.id} patient={patient} match={matches.get(patient.id)} onOpen={() => void navigate(paths.patient(patient.id))} />
          )}
        />

        <TablePager
          className="tw-patients__pager"
          offset={offset}
          limit={PATIENT_PAGE_SIZE}
          shown={items.length}
          total={total}
          onOffset={(next) => update({ offset: next === null ? null : String(next) })}
        />
      </div>
    </section>
  );
}

function PatientRow({ patient, match, onOpen }: { patient: Patient; match?: PatientSearchMatch; onOpen: () => void }) {
  const archived = patient.status === 'DELETED' || patient.membershipStatus === 'archived';
  // A phone search says how each number matched: as typed, digits in order, or digits scrambled.
  const matchLabel = match ? matchReasonLabel(match) : null;
  return (
    <ClickableRow onOpen={onOpen}>
      <td>
        <div className="tw-patients__name-cell">
          <Avatar firstName={patient.firstName} lastName={patient.lastName} size="sm" />
          <Link href={paths.patient(patient.id)} className="tw-patients__name">
            {fullNameWithAge(patient)}
          </Link>
          {archived ? <Badge tone="neutral">Archived</Badge> : null}
        </div>
      </td>
      <td className="tw-patients__mono">{dobString(patient)}</td>
      <td className="tw-patients__mono">
        {formatPhone(primaryPhone(patient))}
        {matchLabel ? <span className="tw-patients__match">{matchLabel}</span> : null}
      </td>
      <td className="tw-patients__email">{patient.email}</td>
    </ClickableRow>
  );
}
