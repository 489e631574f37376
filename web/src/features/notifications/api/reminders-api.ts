import { useQuery } from '@tanstack/react-query';
import { ReminderList } from '../../../../../shared/reminders/reminder-schema.js';
import { apiRequest } from '../../../lib/api-client.js';

export function useOpenReminders() {
  return useQuery({
    queryKey: ['reminders', 'open'],
    queryFn: async ({ signal }) => ReminderList.parse(await apiRequest<unknown>({ path: '/v1/reminders', query: { open: 'true' }, signal })).reminders,
    refetchInterval: 60_000,
  });
}
