import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.js';

export function useOpenReminders() {
  return useQuery({
    queryKey: ['reminders', 'open'],
    // The schema comes with the answer, not with the dashboard's first download.
    queryFn: async ({ signal }) =>
      (
        await apiRequest({ path: '/v1/reminders', query: { open: 'true' }, signal }, () =>
          import('../../../../../shared/reminders/reminder-schema.js').then((m) => m.ReminderList),
        )
      ).reminders,
    refetchInterval: 60_000,
  });
}

/** POST /v1/reminders: a reminder for the signed-in user; the list of open ones is read again after. */
export function useCreateReminder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { text: string; dueAt: string; patientId?: string | null }) =>
      apiRequest({ method: 'POST', path: '/v1/reminders', body: input }, () =>
        import('../../../../../shared/reminders/reminder-schema.js').then((m) => m.Reminder),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: ['reminders'] }),
  });
}
