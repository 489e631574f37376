import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

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
});
export type PracticeConfig = z.infer<typeof PracticeConfigSchema>;

export function loadPracticeConfig(slug: string, root = process.cwd()): PracticeConfig {
  const file = join(root, 'practices', `${slug}.json`);
  if (!existsSync(file)) throw new Error(`No practice config at practices/${slug}.json`);
  return PracticeConfigSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
}
