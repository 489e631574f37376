/**
 * The GET calls a returning user's first screen makes before it can show anything, named once for
 * the screens' queries and for the early start (early-answers.ts), so the two ask for the same address.
 */
export interface FirstScreenRequest {
  path: string;
  query?: Record<string, string | number>;
}

export const CURRENT_USER_REQUEST: FirstScreenRequest = { path: '/v1/practices/users/me' };
export const PRACTICE_METADATA_REQUEST: FirstScreenRequest = { path: '/v1/practices/metadata' };
export const UNREAD_COUNT_REQUEST: FirstScreenRequest = { path: '/v1/notifications/unread-count' };
export const DASHBOARD_LAYOUT_REQUEST: FirstScreenRequest = { path: '/v1/practices/users/me/dashboard' };

/** The dashboard's My Open Tasks: the user's open tasks, soonest due first. */
export const MY_TASKS_WIDGET_SIZE = 6;
export const myOpenTasksRequest = (userId: string, limit: number): FirstScreenRequest => ({
  path: '/v1/tasks',
  query: { assigned: userId, status: 'UNREAD,UPDATED,READ', sort: 'dueOn', order: 'asc', limit },
});

export const patientRequest = (patientId: string): FirstScreenRequest => ({ path: `/v1/patients/${encodeURIComponent(patientId)}` });
export const upcomingVisitsRequest = (patientId: string): FirstScreenRequest => ({ path: '/v1/appointments/upcoming', query: { patientId } });
