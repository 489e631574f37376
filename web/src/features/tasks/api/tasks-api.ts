import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { Patient } from '../../../../../shared/patients/patient-schema.js';
import { apiRequest } from '../../../lib/api-client.js';
import type { PracticeUser } from '../../../lib/practice.js';
import { taskListQuery, type TaskListParams } from '../task-list-params.js';
import { LinkedNote, TaskListResponse, TaskSchema, type Task, type TaskInput, type TaskUpdate } from '../task-model.js';
import { taskKeys } from './task-badge.js';

export { refreshTasks, taskKeys, useMyUnreadTaskCount } from './task-badge.js';

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

export function useTaskUsers() {
  return useQuery({
    queryKey: ['practice', 'users'],
    queryFn: ({ signal }) => apiRequest<PracticeUser[]>({ path: '/v1/practices/users', signal }),
    staleTime: 5 * 60_000,
  });
}

/** Names for the patients a page of tasks links to. */
export function useTaskPatients(patientIds: readonly string[]) {
  const results = useQueries({
    queries: [...new Set(patientIds)].map((id) => ({
      queryKey: ['patients', 'detail', id],
      queryFn: async ({ signal }: { signal: AbortSignal }) => Patient.parse(await apiRequest<unknown>({ path: `/v1/patients/${encodeURIComponent(id)}`, signal })),
      staleTime: 5 * 60_000,
    })),
  });
  return new Map(results.flatMap((r) => (r.data ? [[r.data.id, r.data] as const] : [])));
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

export function usePatientSearch(query: string) {
  return useQuery({
    queryKey: ['tasks', 'patient-search', query],
    queryFn: async ({ signal }) => {
      const body = await apiRequest<{ items: unknown[] }>({ path: '/v1/patients', query: { q: query, limit: 10 }, signal });
      return body.items.map((p) => Patient.parse(p));
    },
    enabled: query.trim().length > 0,
    staleTime: 30_000,
  });
}

export type { Task };
