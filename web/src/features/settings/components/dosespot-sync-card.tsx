import type { BackgroundTask, BackgroundTaskStatus } from '../../../../../shared/partners/dosespot.js';
import { Badge } from '../../../components/ui/badge.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { Link } from '../../../components/ui/link.js';
import { isApiError, NETWORK_ERROR_MESSAGE } from '../../../lib/api-error.js';
import { paths } from '../../../lib/paths.js';
import { useDoseSpotSyncTasks } from '../api/settings-api.js';

const STATUS: Record<BackgroundTaskStatus, { label: string; tone: 'neutral' | 'warning' | 'danger' | 'info' }> = {
  COMPLETED: { label: 'Completed', tone: 'info' },
  ACTIVE: { label: 'Active', tone: 'warning' },
  PROCESSING: { label: 'Processing', tone: 'warning' },
  FAILED: { label: 'Failed', tone: 'danger' },
  DELETED: { label: 'Deleted', tone: 'neutral' },
};

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What a run brought back, or why it stopped: the words an admin acts on. */
function outcome(task: BackgroundTask): string {
  if (task.status === 'FAILED') return task.failureReason ?? 'The sync failed without a reason.';
  if (task.status === 'PROCESSING' || task.status === 'ACTIVE') return 'Syncing prescriptions from DoseSpot…';
  const r = task.result;
  if (!r) return '—';
  const parts = [`${count(r.patients, 'patient', 'patients')} read`, `${count(r.created, 'prescription', 'prescriptions')} added`];
  if (r.failed) parts.push(`${count(r.failed, 'patient', 'patients')} refused by DoseSpot`);
  if (r.deferred) parts.push(`${count(r.deferred, 'patient', 'patients')} left for the next hourly run`);
  return parts.join(', ');
}

/**
 * The latest runs of the DoseSpot prescription sync (hourly, and a prescriber's on-demand sync of one
 * patient): beside the team's DoseSpot user IDs, where a failed run is fixed. Shown to admins and
 * prescribers, the users the server lets read them.
 */
export function DoseSpotSyncCard() {
  const tasks = useDoseSpotSyncTasks();
  if (tasks.isError && isApiError(tasks.error, 403)) return null;
  return (
    <section className="tw-card tw-settings__sync" aria-labelledby="dosespot-sync-title">
      <div className="tw-card__header">
        <h2 className="tw-card__title" id="dosespot-sync-title">
          DoseSpot prescription sync
        </h2>
      </div>
      <p className="tw-settings__muted tw-settings__note">
        Prescriptions written in DoseSpot come back into the chart every hour, and when a prescriber returns from DoseSpot. The latest runs:
      </p>
      {tasks.isPending ? (
        <Spinner label="Loading the DoseSpot sync runs" />
      ) : tasks.isError ? (
        <p className="tw-empty" role="alert">
          {NETWORK_ERROR_MESSAGE}
        </p>
      ) : tasks.data.length === 0 ? (
        <p className="tw-empty">No DoseSpot sync has run yet.</p>
      ) : (
        <div className="tw-table-wrap" role="region" aria-label="DoseSpot sync runs" tabIndex={0}>
          <table className="tw-table tw-settings__table" aria-label="DoseSpot sync runs">
            <thead>
              <tr>
                <th scope="col">Started</th>
                <th scope="col">Run</th>
                <th scope="col">Status</th>
                <th scope="col">Synced, or why it failed</th>
              </tr>
            </thead>
            <tbody>
              {tasks.data.map((task) => (
                <tr key={task.taskId} className="tw-table__row" data-testid="dosespot-sync-run">
                  <td>
                    <time dateTime={task.startedAt}>{new Date(task.startedAt).toLocaleString()}</time>
                  </td>
                  <td>
                    {task.trigger === 'scheduled' ? (
                      'Hourly'
                    ) : task.patientId ? (
                      // The chart is where a refused patient's details are fixed.
                      <>
                        On demand, <Link href={paths.patient(task.patientId)}>patient chart</Link>
                      </>
                    ) : (
                      'On demand'
                    )}
                  </td>
                  <td>
                    <Badge tone={STATUS[task.status].tone}>{STATUS[task.status].label}</Badge>
                  </td>
                  <td>{outcome(task)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
