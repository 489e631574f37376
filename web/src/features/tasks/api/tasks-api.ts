import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { TASKS_COUNT_POLL_MS } from '../../../../../shared/notifications/notification-schema.js';
import { apiRequest } from '../../../lib/api-client.js';
import { taskListQuery, type TaskListParams } from '../task-list-params.js';
import { LinkedNote, TASK_BADGE_STATUSES, TaskListResponse, TaskSchema, type Task, type TaskInput, type TaskUpdate } from '../task-model.js';

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

export function useTaskList(params: TaskListParams) {
  return useQuery({
    queryKey: taskKeys.list(params),
    queryFn: async ({ signal }) => TaskListResponse.parse(await apiRequest<unknown>({ path: '/v1/tasks', query: taskListQuery(params), signal })),
    placeholderData: keepPreviousData,
  });
}

export function useTask(taskId: string | undefined) {
  return useQuery({
    queryKey: taskKeys.detail(taskId ?? ''),
    queryFn: async ({ signal }) => TaskSchema.parse(await apiRequest<unknown>({ path: `/v1/tasks/${encodeURIComponent(taskId ?? '')}`, signal })),
    // 'new' is the creation form: nothing to fetch (spec shell §2.1).
    enabled: Boolean(taskId) && taskId !== 'new',
  });
}

/** Spec shell §7.2: my unread or updated tasks, limit 1 (the total is what counts), every 30 s. */
export function useMyUnreadTaskCount(userId: string | undefined) {
  return useQuery({
    queryKey: taskKeys.myUnread(userId ?? ''),
    queryFn: async ({ signal }) =>
      TaskListResponse.parse(
        await apiRequest<unknown>({ path: '/v1/tasks', query: { assigned: userId, status: TASK_BADGE_STATUSES.join(','), limit: 1 }, signal }),
      ).total,
    enabled: Boolean(userId),
    refetchInterval: TASKS_COUNT_POLL_MS,
    staleTime: 5_000,
  });
}

export function useSaveTask(taskId: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: TaskInput | TaskUpdate) =>
      TaskSchema.parse(
        await apiRequest<unknown>(
          taskId && taskId !== 'new'
            ? { method: 'PUT', path: `/v1/tasks/${encodeURIComponent(taskId)}`, body: input }
            : { method: 'POST', path: '/v1/tasks', body: input },
        ),
      ),
    onSuccess: (task) => {
      queryClient.setQueryData(taskKeys.detail(task.ident), task);
      void queryClient.invalidateQueries({ queryKey: taskKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: [...taskKeys.all, 'my-unread'] });
    },
  });
}

/** The notes a task links to (its noteDataLinks), one request each; a note that cannot be read is an error entry. */
export function useLinkedNotes(links: Task['noteDataLinks']) {
  return useQueries({
    queries: links.map(({ interactionIdent }) => ({
      // Outside taskKeys.all: a task refresh does not change the notes it links to.
      queryKey: ['task-linked-notes', interactionIdent],
      queryFn: async ({ signal }: { signal: AbortSignal }) =>
        LinkedNote.parse(await apiRequest<unknown>({ path: `/v1/notes/${encodeURIComponent(interactionIdent)}`, signal })),
      retry: false,
      staleTime: 60_000,
    })),
  });
}

export type { Task };
