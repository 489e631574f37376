/**
 * What the practice settings endpoints answer (spec shell §3 Practice and User), read by the web
 * client. Kept apart from settings-schema.ts so the practice Lambda, which builds these answers from
 * its own types, does not bundle them.
 */
import * as z from '../zod.js';

/** PUT /v1/practices/metadata: the practice as saved. */
export const PracticeSaved = z.object({
  practiceId: z.string(),
  practiceName: z.string(),
  productDeactivatedAt: z.nullable(z.string()),
  phoneNumber: z.optional(z.string()),
  additionalPhoneNumbers: z.array(z.object({ phoneNumber: z.string(), owner: z.string() })),
  featureFlags: z.record(z.string(), z.boolean()),
  base64Logo: z.optional(z.string()),
  idleLockMinutes: z.number(),
});

/** GET and PUT /v1/practices/feature-gates: every flag, resolved. */
export const FeatureGates = z.object({ flags: z.record(z.string(), z.boolean()) });

/** A user as GET /v1/practices/users lists them and PUT /v1/practices/users/{userId} saves them. */
export const TeamMemberRecord = z.object({
  userId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  name: z.string(),
  emailAddress: z.string(),
  cellNumber: z.nullable(z.string()),
  userStatus: z.enum(['active', 'invited', 'unconfirmed', 'deleted']),
  educationDegree: z.nullable(z.string()),
  npiNumber: z.nullable(z.string()),
  signatureKey: z.optional(z.string()),
  permissionGroup: z.enum(['admin', 'provider', 'employee', 'no_access']),
  createdAt: z.string(),
  veradigmUserType: z.nullable(z.string()),
  doseSpotUserId: z.nullable(z.string()),
});

export { DoseSpotSyncTaskList } from '../partners/dosespot-responses.js';

const CodeSetSource = z.object({
  kind: z.enum(['starter', 'official']),
  label: z.string(),
  releaseDate: z.optional(z.string()),
  count: z.number(),
  loadedAt: z.optional(z.string()),
});

/** GET /v1/drug-safety-sources: which drug class and interaction sets the checks read. */
export const DrugSafetySourceList = z.object({ classes: CodeSetSource, interactions: CodeSetSource });

/** GET /v1/practices/metadata: the practice, with the same fields PUT answers. */
export const PracticeRecord = PracticeSaved;

/** GET /v1/practices/users: everyone with a User record in the practice, by name. */
export const TeamMemberList = z.array(TeamMemberRecord);

/** GET /v1/practices/users/me: the signed-in user; a super user without a User record comes back as an admin named 'Super User'. */
export const CurrentUserRecord = z.extend(TeamMemberRecord, { superUser: z.boolean() });

/**
 * GET and PUT /v1/practices/users/me/dashboard: the layout, completed by the server. A widget id is
 * any string, so a widget added by a newer release is dropped by the web rather than failing the page.
 */
export const DashboardLayoutRecord = z.object({ widgets: z.array(z.object({ id: z.string(), visible: z.boolean() })) });
