import { useEffect, useMemo, useState } from 'react';
import { Button as AriaButton, Menu, MenuItem, MenuTrigger, Popover, type Selection } from 'react-aria-components';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { fullNameWithAge } from '../../../../../shared/patients/patient-derived.js';
import { isoToUsDate } from '../../../../../shared/rules/dates.js';
import { Badge } from '../../../components/ui/badge.js';
import { Button } from '../../../components/ui/button.js';
import { ChevronDownIcon, PlusIcon } from '../../../components/ui/icons.js';
import { Link } from '../../../components/ui/link.js';
import { SearchField } from '../../../components/ui/search-field.js';
import { Select } from '../../../components/ui/select.js';
import { QueryTable } from '../../../components/ui/query-table.js';
import { TablePager } from '../../../components/ui/table-pager.js';
import { ClickableRow } from '../../../components/ui/clickable-row.js';
import { paths } from '../../../lib/paths.js';
import { usePatientsById } from '../../../lib/patients.js';
import { displayUserName, useCurrentUser, usePracticeUsers } from '../../../lib/practice.js';
import { useDebouncedValue } from '../../../lib/use-debounced-value.js';
import { refreshTasks, useTaskList } from '../api/tasks-api.js';
import { parseTaskListParams, withTaskParams, type TaskView } from '../task-list-params.js';
import { TASK_FILTER_STATUSES, TASK_PAGE_SIZE, TASK_SEARCH_DEBOUNCE_MS, type Task } from '../task-model.js';
import { assignableUsers, statusLabel, statusTone } from '../task-rules.js';
import { useQueryClient } from '@tanstack/react-query';
import '../tasks.css';

const ANYONE = '__anyone__';

export function TaskListPage({ view }: { view: TaskView }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [search, setSearch] = useSearchParams();
  const me = useCurrentUser().data?.userId ?? null;
  const params = parseTaskListParams(search, { view, me, pageSize: TASK_PAGE_SIZE, statuses: TASK_FILTER_STATUSES });

  // The box shows what is typed; the URL (and so the list) follows 500 ms after the last key.
  const [typed, setTyped] = useState(params.keyword);
  const debounced = useDebouncedValue(typed, TASK_SEARCH_DEBOUNCE_MS);
  const keyword = params.keyword;
  useEffect(() => {
    setSearch((current) => ((current.get('keyword') ?? '') === debounced ? current : withTaskParams(current, { keyword: debounced || null })), {
      replace: true,
    });
  }, [debounced, setSearch]);

  const list = useTaskList({ ...params, keyword });
  const users = usePracticeUsers();
  const userOptions = useMemo(() => assignableUsers(users.data ?? []), [users.data]);
  const userName = useMemo(() => new Map((users.data ?? []).map((u) => [u.userId, displayUserName(u)])), [users.data]);
  const items = list.data?.tasks ?? [];
  const patients = usePatientsById(items.flatMap((t) => (t.patientId ? [t.patientId] : [])));
  const total = list.data?.total ?? 0;

  const update = (changes: Record<string, string | null>) => setSearch((current) => withTaskParams(current, changes), { replace: true });
  const title = view === 'mine' ? 'My Tasks' : 'Practice Tasks';

  return (
    <section className="tw-page" aria-labelledby="tasks-title">
      <div className="tw-page__header">
        <div>
          <h1 id="tasks-title" className="tw-page__title">
            {title}
          </h1>
          <p className="tw-page__subtitle" aria-live="polite">
            {list.data ? `${total} ${total === 1 ? 'task' : 'tasks'}` : '\u00a0'}
          </p>
        </div>
        <div className="tw-tasks__header-actions">
          {view === 'mine' ? (
            <Link variant="secondary" href={paths.allTasks()}>
              View Practice Tasks
            </Link>
          ) : (
            <Link variant="secondary" href={paths.tasks()}>
              View My Tasks
            </Link>
          )}
          <Link variant="primary" href={paths.newTask()}>
            <PlusIcon />
            New Task
          </Link>
        </div>
      </div>

      <div className="tw-card">
        <div className="tw-tasks__toolbar">
          <Button variant="secondary" onPress={() => refreshTasks(queryClient)} isPending={list.isFetching && !list.isPending}>
            Refresh
          </Button>
          <SearchField label="Search tasks" placeholder="Search tasks..." value={typed} onChange={setTyped} className="tw-tasks__search" />
          <StatusFilter selected={params.status} onChange={(status) => update({ status: status.length ? status.join(' ') : null })} />
          <Select
            label="Assigned"
            className="tw-tasks__assigned"
            options={[{ id: ANYONE, label: 'Anyone' }, ...userOptions]}
            value={params.assigned ?? ANYONE}
            onChange={(value) => {
              if (value !== ANYONE) update({ assigned: value });
              else if (view === 'all') update({ assigned: null });
              else void navigate(`${paths.allTasks()}?${withTaskParams(search, { assigned: null }).toString()}`);
            }}
          />
        </div>

        <QueryTable
          query={list}
          items={list.data ? items : undefined}
          label={title}
          loadingLabel="Loading tasks"
          emptyText="No tasks found."
          className="tw-table tw-tasks__table"
          fetching={list.isFetching}
          columns={['Task', 'Patient', 'Assigned to', 'Due', 'Status']}
          renderRow={(task) => (
            <TaskRow
              key={task.ident}
              task={task}
              patientName={task.patientId ? (patients.get(task.patientId) ? fullNameWithAge(patients.get(task.patientId)!) : '…') : null}
              assignee={task.assigned ? (userName.get(task.assigned) ?? '—') : 'Unassigned'}
              onOpen={() => void navigate(paths.task(task.ident))}
            />
          )}
        />

        <TablePager
          offset={params.offset}
          limit={params.limit}
          shown={items.length}
          total={total}
          onOffset={(next) => update({ offset: next === null ? null : String(next) })}
        />
      </div>
    </section>
  );
}

function StatusFilter({ selected, onChange }: { selected: string[]; onChange: (status: string[]) => void }) {
  const label = selected.length === 0 ? 'All statuses' : selected.map(statusLabel).join(', ');
  return (
    <MenuTrigger>
      <AriaButton className="tw-field__input tw-select__button tw-tasks__status" aria-label={`Status: ${label}`}>
        <span className="tw-select__value">{label}</span>
        <ChevronDownIcon className="tw-select__chevron" />
      </AriaButton>
      <Popover className="tw-popover" placement="bottom start">
        <Menu
          className="tw-menu"
          aria-label="Filter by status"
          selectionMode="multiple"
          selectedKeys={new Set(selected)}
          onSelectionChange={(keys: Selection) => onChange(keys === 'all' ? [...TASK_FILTER_STATUSES] : TASK_FILTER_STATUSES.filter((s) => keys.has(s)))}
        >
          {TASK_FILTER_STATUSES.map((status) => (
            <MenuItem key={status} id={status} className="tw-menu__item tw-tasks__status-item">
              {({ isSelected }) => (
                <>
                  <span className="tw-tasks__check" aria-hidden="true">
                    {isSelected ? '✓' : ''}
                  </span>
                  {statusLabel(status)}
                </>
              )}
            </MenuItem>
          ))}
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}

function TaskRow({ task, patientName, assignee, onOpen }: { task: Task; patientName: string | null; assignee: string; onOpen: () => void }) {
  const unread = task.status === 'UNREAD' || task.status === 'UPDATED';
  return (
    <ClickableRow
      onOpen={onOpen}
      className={`tw-tasks__row${unread ? ' tw-tasks__row--unread' : ''}${task.status === 'COMPLETED' ? ' tw-tasks__row--done' : ''}`}
    >
      <td className="tw-tasks__text-cell">
        {task.urgent ? (
          <span className="tw-tasks__urgent" title="High priority">
            High
          </span>
        ) : null}
        <Link href={paths.task(task.ident)} className="tw-tasks__text">
          {task.text}
        </Link>
      </td>
      <td>{task.patientId ? <Link href={paths.patient(task.patientId)}>{patientName}</Link> : <span className="tw-tasks__muted">—</span>}</td>
      <td>{assignee}</td>
      <td className="tw-tasks__mono">{task.dueOn ? isoToUsDate(task.dueOn.slice(0, 10)) : <span className="tw-tasks__muted">—</span>}</td>
      <td>
        <Badge tone={statusTone(task.status)}>{statusLabel(task.status)}</Badge>
      </td>
    </ClickableRow>
  );
}
