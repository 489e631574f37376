import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from '../../shared/zod.js';
import { coveredByIdentity } from '../../functions/lib/adapters/email-identity.js';
import { PartnerAppId, PartnerAppInput, PartnerOrigin } from '../../shared/partners/partner-schema.js';

/**
 * How email notes leave a deployed practice: through SES v2 from a verified identity. Without this
 * block the stack still deploys, and sending an email note is refused with a clear message.
 */
export const PracticeEmailSchema = z
  .object({
    /** A verified SES identity in the practice's region: a domain (harborfm.example) or one address. */
    identity: z
      .string()
      .check(
        z.minLength(3),
        z.maxLength(253),
        z.regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$|^[a-z0-9.-]+\.[a-z]{2,}$/i, 'identity must be a domain or an email address'),
      ),
    /** The practice's sending address (inside the identity), used when the author's own address is not covered. */
    fromAddress: z.string().check(z.email()),
    /** An existing SES configuration set (event publishing, suppression), optional. */
    configurationSet: z.optional(z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/))),
  })
  .check(
    z.refine((e) => coveredByIdentity(e.fromAddress, e.identity), {
      message: 'email.fromAddress must be the identity address or an address of the identity domain',
      path: ['fromAddress'],
    }),
  );
export type PracticeEmail = z.infer<typeof PracticeEmailSchema>;

/**
 * Texting through AWS End User Messaging SMS: the numbers the account holds for the practice (each
 * with its two-way channel set to the stack's topic, docs/deploy.md). Without this block texts are
 * refused with a clear message. Locally the sandbox carrier owns exactly these numbers.
 */
export const PracticeSmsSchema = z.object({
  originationNumbers: z
    .array(z.string().check(z.regex(/^\+[1-9]\d{7,14}$/, 'sms.originationNumbers must be E.164 numbers (+15415550100)')))
    .check(z.minLength(1), z.maxLength(50)),
  /** An existing configuration set whose event destination is the stack's topic; by default the stack creates one. */
  configurationSet: z.optional(z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/))),
});
export type PracticeSms = z.infer<typeof PracticeSmsSchema>;

/**
 * The practice's language model for the Copilot and the AI scribe: an Amazon Bedrock model id or
 * inference profile id (such as us.anthropic.claude-3-5-haiku-20241022-v1:0), and its region
 * (default: the stack's). Without it, nothing is sent to any model: the Copilot answers 'ECS AI
 * endpoint not configured' and a transcription fails with a message naming this setting.
 */
export const PracticeAiSchema = z.object({
  modelId: z.string().check(z.regex(/^[A-Za-z0-9._:-]{3,200}$/, 'ai.modelId must be a Bedrock model or inference profile id')),
  region: z.optional(z.string().check(z.regex(/^[a-z]{2}(-gov)?-[a-z]+-\d$/, 'ai.region must be an AWS region such as us-east-1'))),
});
export type PracticeAi = z.infer<typeof PracticeAiSchema>;

/** Who hears about the practice's CloudWatch alarms (README "Runbook"). */
export const PracticeAlarmsSchema = z.object({
  /** Each address gets an SNS email subscription, confirmed from the first mail AWS sends it. */
  emails: z
    .array(z.string().check(z.email('alarms.emails must be email addresses')))
    .check(z.minLength(1, 'alarms.emails needs at least one address'), z.maxLength(20)),
});
export type PracticeAlarms = z.infer<typeof PracticeAlarmsSchema>;

/**
 * A partner app the practice starts with (Settings > Partner apps manages them after). `origin`
 * "local" is the demo partner `npm start` serves on a second local port; a deployed stack skips it.
 */
export const PracticePartnerAppSchema = z.extend(z.omit(PartnerAppInput, { origin: true, local: true }), {
  partnerAppId: PartnerAppId,
  origin: z.union([z.literal('local'), PartnerOrigin]),
});
export type PracticePartnerApp = z.infer<typeof PracticePartnerAppSchema>;

/**
 * The practice's Health Gorilla account (README "Labs"): not secret; the client secret and the
 * Subscription's header token are in the partner secrets under health-gorilla-client and health-gorilla.
 */
export const PracticeLabsSchema = z.object({
  baseUrl: z._default(z.string().check(z.regex(/^https:\/\/[a-z0-9.-]+$/, 'labs.baseUrl must be an https origin')), 'https://api.healthgorilla.com'),
  clientId: z.string().check(z.minLength(1), z.maxLength(200)),
  clientUri: z.string().check(z.minLength(1), z.maxLength(300)),
  userLogin: z.string().check(z.minLength(1), z.maxLength(200)),
  scopes: z._default(z.string().check(z.maxLength(300)), 'user/*.*'),
  /** The practice's Organization id at Health Gorilla (requestgroup-authorizedBy). */
  authorizedBy: z.string().check(z.minLength(1), z.maxLength(100)),
  /** The performing lab's Organization id (requestgroup-performer). */
  performer: z.string().check(z.minLength(1), z.maxLength(100)),
});
export type PracticeLabs = z.infer<typeof PracticeLabsSchema>;

const E164 = (field: string) => z.string().check(z.regex(/^\+[1-9]\d{7,14}$/, `${field} must be E.164 numbers (+15415550100)`));

/**
 * The practice's Twilio account for phone calls (README "Phone calls"): not secret; the account's
 * auth token is the partner secret twilio-voice. Each number's voice webhook and call status
 * callback is the API's /v1/partner-deliveries/twilio-voice/calls.
 */
export const PracticeTelephonySchema = z.object({
  baseUrl: z._default(z.string().check(z.regex(/^https:\/\/[a-z0-9.-]+$/, 'telephony.baseUrl must be an https origin')), 'https://api.twilio.com'),
  accountSid: z.string().check(z.regex(/^AC[0-9a-f]{32}$/, 'telephony.accountSid is a Twilio account SID (AC and 32 hex digits)')),
  numbers: z.array(E164('telephony.numbers')).check(z.minLength(1), z.maxLength(50)),
});
export type PracticeTelephony = z.infer<typeof PracticeTelephonySchema>;

/**
 * The practice's Sinch Fax project (README "Faxes"): not secret; the access key is the partner
 * secret sinch-fax ("<keyId>:<keySecret>"). The project's callbacks go to /v1/partner-deliveries/sinch-fax/faxes?token=<scripts/fax-callback-token.ts>.
 */
export const PracticeFaxSchema = z.object({
  baseUrl: z._default(z.string().check(z.regex(/^https:\/\/[a-z0-9.-]+$/, 'fax.baseUrl must be an https origin')), 'https://fax.api.sinch.com'),
  projectId: z.string().check(z.regex(/^[A-Za-z0-9-]{1,64}$/, 'fax.projectId is the Sinch project id')),
  numbers: z.array(E164('fax.numbers')).check(z.minLength(1), z.maxLength(50)),
});
export type PracticeFax = z.infer<typeof PracticeFaxSchema>;

/**
 * The practice's first admin: `npm run practice -- deploy` creates this user in the pool (Cognito
 * emails the temporary password) and its USER# item after the data stack is deployed, once; a
 * later deploy leaves an existing user as it is.
 */
export const PracticeFirstAdminSchema = z.object({
  email: z.string().check(z.email('firstAdmin.email must be an email address'), z.maxLength(254)),
  firstName: z.string().check(z.trim(), z.minLength(1, 'firstAdmin.firstName is required'), z.maxLength(80)),
  lastName: z.string().check(z.trim(), z.minLength(1, 'firstAdmin.lastName is required'), z.maxLength(80)),
});
export type PracticeFirstAdmin = z.infer<typeof PracticeFirstAdminSchema>;

/**
 * Who must sign in with a second factor (TOTP from an authenticator app); docs/security.md.
 * required: the pool's MFA is ON, so Cognito makes every user set it up at their next sign-in.
 * admins: the pool's MFA is optional, and the API refuses an admin who has not set it up.
 * optional: users choose (the demo practice, so its logins work without an authenticator app).
 */
export const MFA_POLICIES = ['required', 'admins', 'optional'] as const;
export const MfaPolicySchema = z.enum(MFA_POLICIES, { error: 'mfa must be "required", "admins" or "optional"' });
export type MfaPolicy = z.infer<typeof MfaPolicySchema>;

/** Per-practice settings, one checked-in file per practice under practices/<slug>.json. */
export const PracticeConfigSchema = z.object({
  slug: z.string().check(z.regex(/^[a-z0-9-]{2,40}$/)),
  practiceId: z.string().check(z.minLength(3), z.maxLength(64)),
  practiceName: z.string().check(z.minLength(1), z.maxLength(120)),
  region: z._default(z.string(), 'us-east-1'),
  account: z.optional(z.string()),
  alarms: z.optional(PracticeAlarmsSchema),
  /** Replaced by alarms.emails; refused so an old config does not silently lose its alarm address. */
  alarmEmail: z.optional(z.never({ error: 'alarmEmail is replaced by alarms: { "emails": ["..."] }' })),
  webDomain: z._default(z.nullable(z.string()), null),
  /** Keep the table and buckets when the stack is deleted (patient data must never be lost). */
  retainData: z._default(z.boolean(), true),
  email: z.optional(PracticeEmailSchema),
  sms: z.optional(PracticeSmsSchema),
  ai: z.optional(PracticeAiSchema),
  labs: z.optional(PracticeLabsSchema),
  telephony: z.optional(PracticeTelephonySchema),
  fax: z.optional(PracticeFaxSchema),
  /**
   * Partner apps seeded into the table, and further origins admins may add partner apps from. The web's
   * content security policy lets exactly these origins (with those of partnerApps) be framed.
   */
  partnerApps: z._default(z.array(PracticePartnerAppSchema).check(z.maxLength(50)), []),
  partnerOrigins: z._default(z.array(PartnerOrigin).check(z.maxLength(50)), []),
  /**
   * The core product's origin whose membership windows (open membership, create charges, create
   * user; spec shell §4) the chart frames; 'local' is the local membership stand-in of npm start.
   * Framed, and heard from, under the same rules as partner apps.
   */
  membershipOrigin: z.optional(z.union([z.literal('local'), PartnerOrigin])),
  firstAdmin: z.optional(PracticeFirstAdminSchema),
  mfa: z._default(MfaPolicySchema, 'admins'),
});

/** Every partner origin the deployed CSP names: partnerOrigins and each partner app's own (not the local demo's). */
export function deployedPartnerOrigins(config: Pick<PracticeConfig, 'partnerApps' | 'partnerOrigins'> & { membershipOrigin?: string | undefined }): string[] {
  const membership = config.membershipOrigin && config.membershipOrigin !== 'local' ? [config.membershipOrigin] : [];
  return [...new Set([...config.partnerOrigins, ...config.partnerApps.map((a) => a.origin).filter((o) => o !== 'local'), ...membership])];
}
export type PracticeConfig = z.infer<typeof PracticeConfigSchema>;

/** A practice config that is missing or invalid: the message says what to fix, no stack trace needed. */
export class PracticeConfigError extends Error {
  override name = 'PracticeConfigError';
}

/** The slugs that have a config file (practices/<slug>.json). */
export function knownPractices(root = process.cwd()): string[] {
  const dir = join(root, 'practices');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.replace(/\.json$/, ''))
    .sort();
}

export function loadPracticeConfig(slug: string, root = process.cwd()): PracticeConfig {
  const file = join(root, 'practices', `${slug}.json`);
  if (!/^[a-z0-9-]{2,40}$/.test(slug) || !existsSync(file)) {
    const known = knownPractices(root);
    throw new PracticeConfigError(`No practice config practices/${slug}.json. Known practices: ${known.length ? known.join(', ') : '(none)'}.`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new PracticeConfigError(`practices/${slug}.json is not valid JSON: ${(error as Error).message}`);
  }
  return parsePracticeConfig(raw, `practices/${slug}.json`);
}

/** Validates a practice file's content with the synth's schema; `label` names the file in the message. */
export function parsePracticeConfig(raw: unknown, label: string): PracticeConfig {
  const parsed = PracticeConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(file)'}: ${i.message}`).join('\n');
    throw new PracticeConfigError(`${label} is not a valid practice config:\n${issues}`);
  }
  return parsed.data;
}
