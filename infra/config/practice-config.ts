import { readFileSync, existsSync } from 'node:fs';
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

/** Per-practice settings, one checked-in file per practice under practices/<slug>.json. */
export const PracticeConfigSchema = z.object({
  slug: z.string().regex(/^[a-z0-9-]{2,40}$/),
  practiceId: z.string().min(3).max(64),
  practiceName: z.string().min(1).max(120),
  region: z.string().default('us-east-1'),
  account: z.string().optional(),
  alarmEmail: z.string().email().optional(),
  webDomain: z.string().nullable().default(null),
  /** Keep the table and buckets when the stack is deleted (patient data must never be lost). */
  retainData: z.boolean().default(true),
  email: PracticeEmailSchema.optional(),
});
export type PracticeConfig = z.infer<typeof PracticeConfigSchema>;

export function loadPracticeConfig(slug: string, root = process.cwd()): PracticeConfig {
  const file = join(root, 'practices', `${slug}.json`);
  if (!existsSync(file)) throw new Error(`No practice config at practices/${slug}.json`);
  return PracticeConfigSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
}
