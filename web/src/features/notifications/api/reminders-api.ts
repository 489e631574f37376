import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.js';

export function useOpenReminders() {
  return useQuery({
    queryKey: ['reminders', 'open'],
    queryFn: async ({ signal }) => {
      const body = await apiRequest<unknown>({ path: '/v1/reminders', query: { open: 'true' }, signal });
      // The schema comes with the answer, not with the dashboard's first download.
      const { ReminderList } = await import('../../../../../shared/reminders/reminder-schema.js');
      return ReminderList.parse(body).reminders;
    },
    refetchInterval: 60_000,
  });
}
