import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.js';
import { taskListQuery, type TaskListParams } from '../task-list-params.js';
import { LinkedNote, TaskListResponse, TaskSchema, type Task, type TaskInput, type TaskUpdate } from '../task-model.js';
import { taskKeys } from './task-badge.js';

export { refreshTasks, taskKeys, useMyUnreadTaskCount } from './task-badge.js';

export function useTaskList(params: TaskListParams) {
  return useQuery({
    queryKey: taskKeys.list(params),
    queryFn: async ({ signal }) => await apiRequest({ path: '/v1/tasks', query: taskListQuery(params), signal }, TaskListResponse),
    placeholderData: keepPreviousData,
  });
}

export function useTask(taskId: string | undefined) {
  return useQuery({
    queryKey: taskKeys.detail(taskId ?? ''),
    queryFn: async ({ signal }) => await apiRequest({ path: `/v1/tasks/${encodeURIComponent(taskId ?? '')}`, signal }, TaskSchema),
    // 'new' is the creation form: nothing to fetch (spec shell §2.1).
    enabled: Boolean(taskId) && taskId !== 'new',
  });
}

export function useSaveTask(taskId: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: TaskInput | TaskUpdate) =>
      await apiRequest(
        taskId && taskId !== 'new'
          ? { method: 'PUT', path: `/v1/tasks/${encodeURIComponent(taskId)}`, body: input }
          : { method: 'POST', path: '/v1/tasks', body: input },
        TaskSchema,
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
        await apiRequest({ path: `/v1/notes/${encodeURIComponent(interactionIdent)}`, signal }, LinkedNote),
      retry: false,
      staleTime: 60_000,
    })),
  });
}

export type { Task };
