/**
 * `practice backfill <slug>|--all`: the page keys a deployed practice's older items lack, written
 * into its table by the same backfills the local runtime runs at start. `practice deploy` runs it
 * after each app stack; alone it serves a practice upgraded some other way.
 */
import type { PracticeConfig } from '../../infra/config/practice-config.js';
import { backfillKeys, describeBackfill } from '../../functions/data/practices/backfill-keys.js';
import { documentClientOn } from '../../functions/lib/table/client.js';
import { EXIT, plainAwsError, type AwsClients, type CliContext } from './context.js';
import { eachLimited } from './format.js';
import { loadPractices } from './practice-files.js';
import { appStackName, dataResources, dataStackName, readStack } from './stacks.js';

/** The step in plain words, for the deploy plan and the dry run. */
export const BACKFILL_STEP =
  'page keys: each key backfill not yet marked done in the table writes the keys older items lack (conversation tabs and counts, unread previews, appointments by provider, notification and call counts, the call list, calls by patient, contact numbers and names), then its marker, so the screens read by page';

/**
 * Runs every backfill against `tableName` through this region's clients. The table is passed down
 * the call (withTable), not through process.env, so practices backfilled side by side each write
 * their own table.
 */
export async function backfillPractice(aws: AwsClients, tableName: string, practiceId: string): Promise<string> {
  const counts = await backfillKeys(practiceId, { tableName, client: documentClientOn(aws.dynamodb) });
  return describeBackfill(counts) ?? 'no item lacked its keys; every marker is written';
}

export interface BackfillOptions {
  slugs: string[];
  practicesDir: string;
  concurrency: number;
  dryRun: boolean;
}

async function backfillOne(ctx: CliContext, config: PracticeConfig): Promise<boolean> {
  const say = (line: string) => ctx.out(`[${config.slug}] ${line}`);
  try {
    const aws = ctx.aws(config.region);
    const [data, app] = await Promise.all([readStack(aws.cfn, dataStackName(config.slug)), readStack(aws.cfn, appStackName(config.slug))]);
    if (!data || !app) {
      // Before the app's Lambdas write the keys themselves, a marker would hide what they write without them.
      say(
        `FAILED: ${!data ? dataStackName(config.slug) : appStackName(config.slug)} is not deployed in ${config.region}; deploy the practice instead (npm run practice -- deploy ${config.slug}).`,
      );
      return false;
    }
    const { tableName } = await dataResources(aws.cfn, data);
    say(`page keys in ${tableName}: ${await backfillPractice(aws, tableName, config.practiceId)}`);
    return true;
  } catch (e) {
    say(`FAILED: ${plainAwsError(e).replace(/^Failed: /, '')}`);
    return false;
  }
}

export async function backfill(ctx: CliContext, opts: BackfillOptions): Promise<number> {
  const { configs, invalid: invalidSlugs } = loadPractices(opts.practicesDir, opts.slugs, (line) => ctx.err(line));
  const invalid = invalidSlugs.length;
  if (opts.dryRun) {
    ctx.out(`Would write, ${opts.concurrency} practice(s) at a time (dry run, AWS is not called):`);
    for (const c of configs)
      ctx.out(
        `  ${c.slug} (${c.practiceName}; ${c.region}): the table named by ${dataStackName(c.slug)}, once ${appStackName(c.slug)} is deployed; ${BACKFILL_STEP}`,
      );
    return invalid ? EXIT.failure : EXIT.ok;
  }
  let failed = invalid;
  await eachLimited(configs, opts.concurrency, async (config) => {
    if (!(await backfillOne(ctx, config))) failed++;
  });
  ctx.out(failed ? `${failed} of ${opts.slugs.length} practice(s) failed.` : `${opts.slugs.length} practice(s) have their page keys.`);
  return failed ? EXIT.failure : EXIT.ok;
}
