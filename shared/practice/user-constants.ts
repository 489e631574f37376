/*
 * The user values every function's auth reads, apart from settings-schema.ts, whose zod schemas
 * would otherwise be built on every cold start.
 */
/** Spec shell §3 User values. */
export const USER_STATUSES = ['active', 'invited', 'unconfirmed', 'deleted'] as const;
export const PERMISSION_GROUPS = ['admin', 'provider', 'employee', 'no_access'] as const;
/**
 * Spec shell §6: a super user (Tidewell staff who administer practices) is a member of this Cognito
 * group in the practice's pool. Their token still carries the practice's id like every other
 * account; the group only raises the role to admin and names them 'Super User' when the practice
 * holds no User record for them.
 */
export const SUPER_USER_GROUP = 'super_user';
export const SUPER_USER_NAME = 'Super User';
/** Spec shell §6 e-prescribing user types. */
export const VERADIGM_USER_TYPES = ['Provider', 'PA', 'PASupervised', 'POBNoReview', 'POBSomeReview', 'POBAllReview', 'StaffUser'] as const;
