import { useInfiniteQuery } from '@tanstack/react-query';
import { useParams } from 'react-router-dom';
import type { AccessHistoryEntry } from '../../../../../shared/audit/access-history.js';
import { fullName } from '../../../../../shared/patients/patient-derived.js';
import { GenericErrorView, NotFoundView } from '../../../components/error-views.js';
import { Badge } from '../../../components/ui/badge.js';
import { Button } from '../../../components/ui/button.js';
import { ChevronLeftIcon } from '../../../components/ui/icons.js';
import { Link } from '../../../components/ui/link.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { QueryTable } from '../../../components/ui/query-table.js';
import { isApiError } from '../../../lib/api-error.js';
import { paths } from '../../../lib/paths.js';
import { useCan } from '../../../lib/permissions.js';
import { usePatient } from '../../../lib/patients.js';
import { fetchAccessHistoryPage } from '../api/patients-api.js';
import '../patients.css';

const ACTION_LABEL: Record<string, string> = {
  read: 'Viewed',
  list: 'Listed',
  search: 'Found in a search',
  create: 'Created',
  update: 'Changed',
  delete: 'Deleted',
  archive: 'Archived',
  restore: 'Restored',
  refused: 'Refused',
};

const when = (iso: string) => (iso ? new Date(iso).toLocaleString() : '');

function what(entry: AccessHistoryEntry): string {
  const action = ACTION_LABEL[entry.action] ?? entry.action;
  const entity = entry.entity.replace(/[_-]/g, ' ').toLowerCase();
  return `${action} ${entity}`.trim();
}

/**
 * A patient's access history for admins: every read, list, change, file and notification access
 * and refused attempt naming the patient, newest first, with who, when, what and from where.
 */
export function AccessHistoryPage() {
  const { patientId = '' } = useParams();
  const patient = usePatient(patientId);
  const allowed = useCan('patient.accessHistory.read');
  const history = useInfiniteQuery({
    queryKey: ['patients', patientId, 'access-history'],
    queryFn: ({ pageParam, signal }) => fetchAccessHistoryPage(patientId, pageParam, signal),
    initialPageParam: '',
    getNextPageParam: (last) => last.next,
    enabled: allowed && Boolean(patientId),
  });

  if (patient.isPending) return <Spinner label="Loading patient" />;
  if (patient.isError) return isApiError(patient.error, 404) ? <NotFoundView /> : <GenericErrorView />;
  const entries = history.data?.pages.flatMap((p) => p.entries) ?? [];

  return (
    <section className="tw-page" aria-labelledby="access-history-title">
      <Link href={paths.patient(patientId)} className="tw-profile__back">
        <ChevronLeftIcon /> {fullName(patient.data)}
      </Link>
      <div className="tw-page__header">
        <h1 id="access-history-title" className="tw-page__title">
          Access history
        </h1>
        <p className="tw-page__subtitle">Who read or changed {fullName(patient.data)}&apos;s data, when, and from where.</p>
      </div>
      <div className="tw-card">
        {!allowed ? (
          <p className="tw-empty" role="alert">
            Only admins can see a patient&apos;s access history.
          </p>
        ) : (
          // The table scrolls sideways on a phone and holds no links: the region takes focus so a keyboard can scroll it.
          <QueryTable
            query={history}
            items={history.data ? entries : undefined}
            label="Access history"
            loadingLabel="Loading access history"
            emptyText="No access recorded yet."
            errorText={(error) => error?.message ?? ''}
            className="tw-table tw-access-history"
            scrollRegion={{ labelledBy: 'access-history-title' }}
            columns={['When', 'Who', 'What', 'From where']}
            renderRow={(entry, i) => (
              <tr key={`${entry.at}-${i}`}>
                <td>{when(entry.at)}</td>
                <td>
                  <div>{entry.actor.name || entry.actor.email}</div>
                  <div className="tw-profile__muted">
                    {[
                      entry.actor.name && entry.actor.name !== entry.actor.email ? entry.actor.email : null,
                      entry.actor.role,
                      entry.actor.superUser ? 'support' : null,
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  </div>
                </td>
                <td>
                  {what(entry)}
                  {entry.outcome === 'refused' ? (
                    <>
                      {' '}
                      <Badge tone="danger">Refused</Badge>
                      {entry.reason ? <div className="tw-profile__muted">{entry.reason}</div> : null}
                    </>
                  ) : null}
                  {entry.routeKey ? <div className="tw-profile__muted tw-profile__mono">{entry.routeKey}</div> : null}
                </td>
                <td>
                  <div className="tw-profile__mono">{entry.sourceIp ?? '—'}</div>
                  {entry.userAgent ? <div className="tw-profile__muted tw-access-history__agent">{entry.userAgent}</div> : null}
                </td>
              </tr>
            )}
          />
        )}
        {history.hasNextPage ? (
          <div className="tw-table-pager">
            <Button size="sm" onPress={() => void history.fetchNextPage()} isPending={history.isFetchingNextPage}>
              Load older entries
            </Button>
          </div>
        ) : null}
      </div>
    </section>
  );
}
