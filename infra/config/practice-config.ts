import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { coveredByIdentity } from '../../functions/lib/adapters/email-identity.js';

/**
 * How email notes leave a deployed practice: through SES v2 from a verified identity. Without this
 * block the stack still deploys, and sending an email note is refused with a clear message.
 */
export const PracticeEmailSchema = z
  .object({
    /** A verified SES identity in the practice's region: a domain (harborfm.example) or one address. */
    identity: z.string().min(3).max(253).regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$|^[a-z0-9.-]+\.[a-z]{2,}$/i, 'identity must be a domain or an email address'),
    /** The practice's sending address (inside the identity), used when the author's own address is not covered. */
    fromAddress: z.string().email(),
    /** An existing SES configuration set (event publishing, suppression), optional. */
    configurationSet: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/).optional(),
  })
  .refine((e) => coveredByIdentity(e.fromAddress, e.identity), { message: 'email.fromAddress must be the identity address or an address of the identity domain', path: ['fromAddress'] });
export type PracticeEmail = z.infer<typeof PracticeEmailSchema>;

/**
 * Texting through AWS End User Messaging SMS: the numbers the account holds for the practice (each
 * with its two-way channel set to the stack's topic, docs/deploy.md). Without this block texts are
 * refused with a clear message. Locally the sandbox carrier owns exactly these numbers.
 */
export const PracticeSmsSchema = z.object({
  originationNumbers: z.array(z.string().regex(/^\+[1-9]\d{7,14}$/, 'sms.originationNumbers must be E.164 numbers (+15415550100)')).min(1).max(50),
  /** An existing configuration set whose event destination is the stack's topic; by default the stack creates one. */
  configurationSet: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/).optional(),
});
export type PracticeSms = z.infer<typeof PracticeSmsSchema>;

/**
 * The AI scribe in AWS: Amazon Transcribe in the stack's region and Bedrock's Converse API with this
 * model (a model id or an inference profile id such as us.anthropic.claude-3-5-haiku-20241022-v1:0)
 * in bedrockRegion (default: the stack's region). Without this block a run fails with a message
 * naming this setting; nothing is sent to a model the practice has not chosen.
 */
export const PracticeAiSchema = z.object({
  bedrockModelId: z.string().regex(/^[A-Za-z0-9._:-]{3,200}$/, 'ai.bedrockModelId must be a Bedrock model or inference profile id'),
  bedrockRegion: z.string().regex(/^[a-z]{2}(-gov)?-[a-z]+-\d$/, 'ai.bedrockRegion must be an AWS region').optional(),
});
export type PracticeAi = z.infer<typeof PracticeAiSchema>;

/** Who hears about the practice's CloudWatch alarms (README "Runbook"). */
export const PracticeAlarmsSchema = z.object({
  /** Each address gets an SNS email subscription, confirmed from the first mail AWS sends it. */
  emails: z.array(z.string().email('alarms.emails must be email addresses')).min(1, 'alarms.emails needs at least one address').max(20),
});
export type PracticeAlarms = z.infer<typeof PracticeAlarmsSchema>;

/** Per-practice settings, one checked-in file per practice under practices/<slug>.json. */
export const PracticeConfigSchema = z.object({
  slug: z.string().regex(/^[a-z0-9-]{2,40}$/),
  practiceId: z.string().min(3).max(64),
  practiceName: z.string().min(1).max(120),
  region: z.string().default('us-east-1'),
  account: z.string().optional(),
  alarms: PracticeAlarmsSchema.optional(),
  /** Replaced by alarms.emails; refused so an old config does not silently lose its alarm address. */
  alarmEmail: z.never({ error: 'alarmEmail is replaced by alarms: { "emails": ["..."] }' }).optional(),
  webDomain: z.string().nullable().default(null),
  /** Keep the table and buckets when the stack is deleted (patient data must never be lost). */
  retainData: z.boolean().default(true),
  email: PracticeEmailSchema.optional(),
  sms: PracticeSmsSchema.optional(),
  ai: PracticeAiSchema.optional(),
});
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
  const parsed = PracticeConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(file)'}: ${i.message}`).join('\n');
    throw new PracticeConfigError(`practices/${slug}.json is not a valid practice config:\n${issues}`);
  }
  return parsed.data;
}
