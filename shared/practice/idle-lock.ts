/**
 * Automatic logoff (HIPAA 164.312(a)(2)(iii)): the web locks the screen after this many idle
 * minutes, a practice setting. Kept apart from the settings schemas so the practice record's
 * reader needs no zod.
 */
export const IDLE_LOCK_MINUTES_DEFAULT = 15;
export const IDLE_LOCK_MINUTES_MIN = 1;
export const IDLE_LOCK_MINUTES_MAX = 60;
