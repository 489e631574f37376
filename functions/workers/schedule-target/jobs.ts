/**
 * The registered scheduled-job kinds. Each feature adds one line here, e.g.
 * `registerScheduledJob('reminder', sendReminder);`, and schedules with `{ kind: 'reminder', ... }`.
 */
export {};
