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
