import * as z from '../zod.js';
import { isAllowedPhoneInput, normalizePhone, PHONE_INPUT_MESSAGE, PHONE_LENGTH_MESSAGE } from '../patients/phone.js';

export { PERMISSION_GROUPS, SUPER_USER_GROUP, SUPER_USER_NAME, USER_STATUSES, VERADIGM_USER_TYPES } from './user-constants.js';
import { PERMISSION_GROUPS, USER_STATUSES, VERADIGM_USER_TYPES } from './user-constants.js';
import { IDLE_LOCK_MINUTES_MAX, IDLE_LOCK_MINUTES_MIN } from './idle-lock.js';
export { IDLE_LOCK_MINUTES_DEFAULT, IDLE_LOCK_MINUTES_MAX, IDLE_LOCK_MINUTES_MIN } from './idle-lock.js';
/** Not fixed by the spec: bounds for stored settings. */
export const PRACTICE_NAME_MAX = 120;
export const LOGO_MAX_CHARS = 1_000_000;
export const ADDITIONAL_PHONES_MAX = 20;

export const SETTINGS_MESSAGES = {
  practiceNameRequired: 'Practice name is required',
  npiInvalid: 'NPI number must have 10 digits',
  doseSpotUserIdInvalid: 'DoseSpot user ID must be a number of at most 12 digits',
  logoInvalid: 'Logo must be a base64 image (PNG, JPEG, GIF, SVG or WebP)',
  logoTooLarge: 'Logo is too large',
  ownerRequired: 'Phone number owner is required',
  userNotFound: 'User not found',
  adminOnly: 'Only a practice admin can change practice settings.',
  ownAdminRole: 'You cannot remove your own admin permission.',
  idleLockMinutes: `Screen lock time must be a whole number of minutes from ${IDLE_LOCK_MINUTES_MIN} to ${IDLE_LOCK_MINUTES_MAX}`,
} as const;

const phone = z.pipe(
  z.string().check(z.trim(), z.refine(isAllowedPhoneInput, PHONE_INPUT_MESSAGE)),
  z.transform((v, ctx) => {
    const normalized = normalizePhone(v);
    if (!normalized) ctx.issues.push({ code: 'custom', message: PHONE_LENGTH_MESSAGE, input: ctx.value });
    return normalized ?? v;
  }),
);

const LOGO = /^data:image\/(png|jpeg|gif|svg\+xml|webp);base64,[A-Za-z0-9+/=]+$/;

/** PUT /v1/practices/metadata (admin): the fields sent are changed; null clears an optional one. */
export const PracticeMetadataUpdate = z.object({
  practiceName: z.optional(z.string().check(z.trim(), z.minLength(1, SETTINGS_MESSAGES.practiceNameRequired), z.maxLength(PRACTICE_NAME_MAX))),
  phoneNumber: z.optional(z.nullable(phone)),
  additionalPhoneNumbers: z.optional(
    z
      .array(z.object({ phoneNumber: phone, owner: z.string().check(z.trim(), z.minLength(1, SETTINGS_MESSAGES.ownerRequired), z.maxLength(120)) }))
      .check(z.maxLength(ADDITIONAL_PHONES_MAX)),
  ),
  base64Logo: z.optional(
    z.nullable(z.string().check(z.maxLength(LOGO_MAX_CHARS, SETTINGS_MESSAGES.logoTooLarge), z.regex(LOGO, SETTINGS_MESSAGES.logoInvalid))),
  ),
  /** ISO date-time the product was deactivated; null reactivates. */
  productDeactivatedAt: z.optional(z.nullable(z.iso.datetime({ offset: true }))),
  /** Idle minutes before the screen locks; null goes back to the default. */
  idleLockMinutes: z.optional(
    z.nullable(
      z
        .number(SETTINGS_MESSAGES.idleLockMinutes)
        .check(
          z.int(SETTINGS_MESSAGES.idleLockMinutes),
          z.gte(IDLE_LOCK_MINUTES_MIN, SETTINGS_MESSAGES.idleLockMinutes),
          z.lte(IDLE_LOCK_MINUTES_MAX, SETTINGS_MESSAGES.idleLockMinutes),
        ),
    ),
  ),
});
export type PracticeMetadataUpdate = z.infer<typeof PracticeMetadataUpdate>;

/** PUT /v1/practices/users/{userId} (admin). */
export const PracticeUserUpdate = z.object({
  permissionGroup: z.optional(z.enum(PERMISSION_GROUPS)),
  npiNumber: z.optional(z.nullable(z.string().check(z.trim(), z.regex(/^\d{10}$/, SETTINGS_MESSAGES.npiInvalid)))),
  veradigmUserType: z.optional(z.nullable(z.enum(VERADIGM_USER_TYPES))),
  /** The clinic's DoseSpot user for this person (DoseSpot's own numeric id); null unlinks them. */
  doseSpotUserId: z.optional(z.nullable(z.string().check(z.trim(), z.regex(/^\d{1,12}$/, SETTINGS_MESSAGES.doseSpotUserIdInvalid)))),
  userStatus: z.optional(z.enum(USER_STATUSES)),
});
export type PracticeUserUpdate = z.infer<typeof PracticeUserUpdate>;

/** PUT /v1/practices/feature-gates (admin): flags to set; others keep their value. */
export const FeatureGatesUpdate = z.object({ flags: z.record(z.string().check(z.regex(/^[a-z0-9_]{1,64}$/)), z.boolean()) });
export type FeatureGatesUpdate = z.infer<typeof FeatureGatesUpdate>;

import { DASHBOARD_WIDGETS, type DashboardWidgetId } from './dashboard-widgets.js';

export { DASHBOARD_WIDGETS, type DashboardWidgetId };
export const DashboardLayout = z.object({
  /** Order is the array order. */
  widgets: z.array(z.object({ id: z.enum(DASHBOARD_WIDGETS), visible: z.boolean() })).check(
    z.maxLength(DASHBOARD_WIDGETS.length),
    z.refine((ws) => new Set(ws.map((w) => w.id)).size === ws.length, 'Each widget may appear once'),
  ),
});
export type DashboardLayout = z.infer<typeof DashboardLayout>;

/** A stored layout completed with widgets added since it was saved (visible, at the end). */
export function completeDashboardLayout(stored: DashboardLayout | null | undefined): DashboardLayout {
  const widgets = (stored?.widgets ?? []).filter((w) => (DASHBOARD_WIDGETS as readonly string[]).includes(w.id));
  for (const id of DASHBOARD_WIDGETS) if (!widgets.some((w) => w.id === id)) widgets.push({ id, visible: true });
  return { widgets };
}

export const UserIdParams = z.object({ userId: z.string().check(z.trim(), z.minLength(1), z.maxLength(128)) });
export const PracticeUserParams = z.object({
  practiceId: z.string().check(z.trim(), z.minLength(1), z.maxLength(64)),
  userId: z.string().check(z.trim(), z.minLength(1), z.maxLength(128)),
});
