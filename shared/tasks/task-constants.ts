/*
 * Task statuses as plain constants, apart from the schemas: the shell's tasks badge needs them on
 * every first screen, where the schema library is not loaded.
 */

/** Spec shell §3 Task: statuses shown in lists. */
export const TASK_STATUSES = ['READ', 'UNREAD', 'UPDATED', 'COMPLETED', 'DELETED'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
/** Statuses a list shows when the caller names none. */
export const DEFAULT_TASK_LIST_STATUSES: readonly TaskStatus[] = ['UPDATED', 'UNREAD', 'READ'];
/** The tasks badge counts these (spec shell §7.2: status UNREAD or UPDATED). */
export const TASK_BADGE_STATUSES: readonly TaskStatus[] = ['UNREAD', 'UPDATED'];
