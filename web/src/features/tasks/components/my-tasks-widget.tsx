import { queryOptions, useQuery } from '@tanstack/react-query';
import { isoToUsDate, todayIsoDate } from '../../../../../shared/rules/dates.js';
import { Link } from '../../../components/ui/link.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { NETWORK_ERROR_MESSAGE } from '../../../lib/api-error.js';
import { paths } from '../../../lib/paths.js';
import { useCurrentUser } from '../../../lib/practice.js';
import { useShownAnswer } from '../../../lib/use-shown-answer.js';
import { fetchMyOpenTasks, taskKeys } from '../api/task-badge.js';
import { MY_TASKS_WIDGET_SIZE } from '../../../lib/first-screen-requests.js';
import '../task-urgent.css';

const SHOWN = MY_TASKS_WIDGET_SIZE;

/** The widget's answer, so the dashboard can ask for it before its layout has arrived. */
export function myTasksWidgetQuery(me: string | undefined) {
  return queryOptions({
    queryKey: [...taskKeys.all, 'widget', me],
    queryFn: ({ signal }) => fetchMyOpenTasks(me ?? '', SHOWN, signal),
    enabled: Boolean(me),
  });
}

/** Dashboard: my open tasks, soonest due first. */
export function MyTasksWidget() {
  const me = useCurrentUser().data?.userId;
  const tasks = useShownAnswer(useQuery(myTasksWidgetQuery(me)));
  if (tasks.status === 'pending') return <Spinner label="Loading tasks" />;
  if (tasks.status === 'error') return <p className="tw-widget__empty">{NETWORK_ERROR_MESSAGE}</p>;
  const today = todayIsoDate();
  return (
    <>
      {tasks.data.tasks.length === 0 ? (
        <p className="tw-widget__empty">No open tasks. Nice work.</p>
      ) : (
        <ul className="tw-widget__list">
          {tasks.data.tasks.map((task) => (
            <li key={task.ident} className="tw-widget__item">
              <Link href={paths.task(task.ident)} className={`tw-widget__link${task.status !== 'READ' ? ' tw-widget__link--unread' : ''}`}>
                {task.urgent ? <span className="tw-tasks__urgent">High</span> : null}
                {task.text}
              </Link>
              {task.dueOn ? (
                <span className={`tw-widget__meta${task.dueOn < today ? ' tw-widget__meta--late' : ''}`}>Due {isoToUsDate(task.dueOn)}</span>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <div className="tw-widget__footer">
        <Link href={paths.tasks()}>{tasks.data.total > SHOWN ? `View all ${tasks.data.total} tasks` : 'View my tasks'}</Link>
      </div>
    </>
  );
}
