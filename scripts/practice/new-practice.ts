/**
 * `practice new <slug>`: writes practices/<slug>.json from flags (asking on a terminal for what is
 * missing), validated by the synth's schema before anything is written; never overwrites a file.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePracticeConfig, PracticeConfigError } from '../../infra/config/practice-config.js';
import { EXIT, UsageError, type CliContext } from './context.js';
import { SLUG_PATTERN } from './practice-files.js';

export interface NewPracticeOptions {
  slug: string;
  practicesDir: string;
  dryRun: boolean;
  name?: string;
  practiceId?: string;
  region?: string;
  account?: string;
  alarmEmails: string[];
  adminEmail?: string;
  adminFirstName?: string;
  adminLastName?: string;
}

/** The practice id a slug suggests: ids are immutable once users exist, so it is shown before writing. */
export const suggestedPracticeId = (slug: string) => `prc_${slug.replace(/-/g, '_')}`;

async function ask(ctx: CliContext, question: string, fallback = ''): Promise<string> {
  if (!ctx.prompt) return fallback;
  const answer = (await ctx.prompt(fallback ? `${question} [${fallback}]: ` : `${question}: `)).trim();
  return answer || fallback;
}

export async function newPractice(ctx: CliContext, opts: NewPracticeOptions): Promise<number> {
  const { slug } = opts;
  if (!SLUG_PATTERN.test(slug)) throw new UsageError(`"${slug}" cannot be a practice slug: use 2 to 40 lower-case letters, digits and dashes (harbor-fm).`);
  const file = join(opts.practicesDir, `${slug}.json`);
  if (existsSync(file)) {
    ctx.err(`practices/${slug}.json already exists; it was left as it is. Edit it, or choose another slug.`);
    return EXIT.failure;
  }
  const practiceName = opts.name ?? (await ask(ctx, 'Practice name (as staff and patients see it)'));
  if (!practiceName) throw new UsageError('Give the practice name: --name "Harbor Family Medicine".');
  const practiceId = opts.practiceId ?? (await ask(ctx, 'Practice id (never changes after launch)', suggestedPracticeId(slug)));
  const region = opts.region ?? (await ask(ctx, 'AWS region', 'us-east-1'));
  const account = opts.account ?? ((await ask(ctx, 'AWS account id (blank: the one your credentials use)')) || undefined);
  const alarmEmails = opts.alarmEmails.length
    ? opts.alarmEmails
    : (await ask(ctx, 'Alarm email addresses, comma separated (blank: none)'))
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
  const adminEmail = opts.adminEmail ?? ((await ask(ctx, 'First admin email (blank: add one later)')) || undefined);
  const adminFirstName = adminEmail ? (opts.adminFirstName ?? (await ask(ctx, 'First admin first name'))) : opts.adminFirstName;
  const adminLastName = adminEmail ? (opts.adminLastName ?? (await ask(ctx, 'First admin last name'))) : opts.adminLastName;
  if ((adminFirstName || adminLastName) && !adminEmail) throw new UsageError('--admin-first-name and --admin-last-name need --admin-email.');
  if (adminEmail && (!adminFirstName || !adminLastName)) throw new UsageError('The first admin needs --admin-first-name and --admin-last-name too.');

  const raw = {
    slug,
    practiceId,
    practiceName,
    region,
    ...(account ? { account } : {}),
    ...(alarmEmails.length ? { alarms: { emails: alarmEmails } } : {}),
    webDomain: null,
    retainData: true,
    ...(adminEmail ? { firstAdmin: { email: adminEmail, firstName: adminFirstName, lastName: adminLastName } } : {}),
    // Written out so the file shows who must use two-step sign-in (the schema's default).
    mfa: 'admins',
  };
  try {
    parsePracticeConfig(raw, `practices/${slug}.json`);
  } catch (e) {
    if (!(e instanceof PracticeConfigError)) throw e;
    ctx.err(`${e.message}\nNothing was written.`);
    return EXIT.failure;
  }
  const text = `${JSON.stringify(raw, null, 2)}\n`;
  if (opts.dryRun) {
    ctx.out(`Would write practices/${slug}.json (dry run, nothing written):`);
    for (const line of text.trimEnd().split('\n')) ctx.out(line);
    return EXIT.ok;
  }
  mkdirSync(opts.practicesDir, { recursive: true });
  // 'wx' refuses a file that appeared since the check above, rather than overwrite it.
  writeFileSync(file, text, { flag: 'wx' });
  ctx.out(`Wrote practices/${slug}.json. Next: npm run practice -- deploy ${slug} --dry-run`);
  return EXIT.ok;
}
