/**
 * The task list is driven by the query string (spec shell §2.9): limit, offset, keyword, sort,
 * order, assigned, status (space-separated in the URL, comma-joined for the API) and patientId,
 * so a reload or a shared link shows the same list.
 */
export interface TaskListParams {
  limit: number;
  offset: number;
  keyword: string;
  sort: string | null;
  order: 'asc' | 'desc' | null;
  assigned: string | null;
  status: string[];
  patientId: string | null;
}

export type TaskView = 'mine' | 'all';

export function parseTaskListParams(
  search: URLSearchParams,
  options: { view: TaskView; me: string | null; pageSize: number; statuses: readonly string[] },
): TaskListParams {
  const number = (name: string, fallback: number) => {
    const value = Number(search.get(name));
    return Number.isInteger(value) && value >= 0 && search.get(name) !== null && search.get(name) !== '' ? value : fallback;
  };
  const order = search.get('order');
  const known = new Set(options.statuses);
  return {
    limit: number('limit', options.pageSize) || options.pageSize,
    offset: number('offset', 0),
    keyword: search.get('keyword') ?? '',
    sort: search.get('sort') || null,
    order: order === 'asc' || order === 'desc' ? order : null,
    // My tasks are the ones assigned to me unless the URL names someone else.
    assigned: search.get('assigned') || (options.view === 'mine' ? options.me : null),
    status: (search.get('status') ?? '').split(/[\s,+]+/).filter((s) => known.has(s)),
    patientId: search.get('patientId') || null,
  };
}

/** The API's query: statuses comma-joined, empty values left out. */
export function taskListQuery(params: TaskListParams): Record<string, string | number | undefined> {
  return {
    limit: params.limit,
    offset: params.offset,
    keyword: params.keyword.trim() || undefined,
    sort: params.sort ?? undefined,
    order: params.order ?? undefined,
    assigned: params.assigned ?? undefined,
    status: params.status.length ? params.status.join(',') : undefined,
    patientId: params.patientId ?? undefined,
  };
}

/** Sets or clears query-string values; a changed filter goes back to the first page. */
export function withTaskParams(current: URLSearchParams, changes: Record<string, string | null>): URLSearchParams {
  const next = new URLSearchParams(current);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === '') next.delete(key);
    else next.set(key, value);
  }
  if (!('offset' in changes)) next.delete('offset');
  return next;
}
