import { useQuery, type QueryClient } from '@tanstack/react-query';
import { TASKS_COUNT_POLL_MS } from '../../../../../shared/notifications/notification-constants.js';
import { apiRequest } from '../../../lib/api-client.js';
import type { TaskListParams } from '../task-list-params.js';
import { myOpenTasksRequest } from '../../../lib/first-screen-requests.js';
import { TASK_BADGE_STATUSES } from '../../../../../shared/tasks/task-constants.js';

/**
 * What the shell and the dashboard need of tasks on every screen, apart from the task pages' own
 * calls (patients, linked notes, saving), so the first screen does not carry those.
 */
export const taskKeys = {
  all: ['tasks'] as const,
  lists: () => [...taskKeys.all, 'list'] as const,
  list: (params: TaskListParams) => [...taskKeys.lists(), params] as const,
  detail: (taskId: string) => [...taskKeys.all, 'detail', taskId] as const,
  myUnread: (userId: string) => [...taskKeys.all, 'my-unread', userId] as const,
};

/** A live TASK notification or a change made here: every task list, count and open task refreshes. */
export function refreshTasks(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: taskKeys.all });
}

/** Spec shell §7.2: my unread or updated tasks, limit 1 (the total is what counts), every 30 s. */
export function useMyUnreadTaskCount(userId: string | undefined, { subscribed = true }: { subscribed?: boolean } = {}) {
  return useQuery({
    subscribed,
    queryKey: taskKeys.myUnread(userId ?? ''),
    // Only the total is read; its schema comes with the answer, so zod stays off the first screen.
    queryFn: async ({ signal }) => {
      const page = await apiRequest(
        { path: '/v1/tasks', query: { assigned: userId, status: TASK_BADGE_STATUSES.join(','), limit: 1 }, signal },
        async () => (await import('../../../../../shared/tasks/task-responses.js')).TaskTotal,
      );
      return page.total;
    },
    enabled: Boolean(userId),
    refetchInterval: TASKS_COUNT_POLL_MS,
    staleTime: 5_000,
  });
}

/** The dashboard widget's open tasks assigned to `userId`, soonest due first. */
export async function fetchMyOpenTasks(userId: string, limit: number, signal?: AbortSignal) {
  // The schema comes with the answer, not with the dashboard's first download; the shared task
  // schema alone, without the task pages' models (a linked note's fields), which the widget never reads.
  return apiRequest({ ...myOpenTasksRequest(userId, limit), signal }, () => import('../../../../../shared/tasks/task-schema.js').then((m) => m.TaskPage));
}
