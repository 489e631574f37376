/**
 * `practice deploy <slug>|--all`: build the web app once, check the shared budgets once, then per
 * practice synthesize (cdk-nag and the Control Tower guard run inside), check its assembly, deploy
 * the data stack, make sure the first admin exists, deploy the app stack, backfill the page keys.
 * A failing practice stops only itself; the summary names every practice's version before and after.
 */
import { join } from 'node:path';
import type { PracticeConfig } from '../../infra/config/practice-config.js';
import { BACKFILL_STEP, backfillPractice } from './backfill.js';
import { CommandFailed, EXIT, plainAwsError, type CliContext } from './context.js';
import { describeOutcome, ensureAdmin } from './first-admin.js';
import { duration, eachLimited, table } from './format.js';
import { loadPractices } from './practice-files.js';
import { appStackName, dataResources, dataStackName, readStack } from './stacks.js';
import { sourceVersion } from './version.js';

export interface DeployOptions {
  slugs: string[];
  /** Where the practice files are; only the repository's practices/ can be deployed (the synth reads it). */
  practicesDir: string;
  concurrency: number;
  dryRun: boolean;
  allowDirty: boolean;
}

export interface PracticeResult {
  slug: string;
  before: string;
  after: string;
  result: string;
  ok: boolean;
  ms: number;
}

/** Where each practice's cloud assembly is synthesized, so practices deploy side by side. */
export const assemblyDir = (slug: string) => join('cdk.out', 'practices', slug);

const ctxArgs = (slug: string, version: string) => ['-c', `practice=${slug}`, '-c', `version=${version}`];

export function synthArgs(slug: string, version: string): string[] {
  return ['cdk', 'synth', ...ctxArgs(slug, version), '--quiet', '--output', assemblyDir(slug)];
}

export function deployArgs(stack: string, slug: string, version: string): string[] {
  // The assembly is the one just synthesized and checked: deploying from it adds no second synth.
  return ['cdk', 'deploy', stack, '--app', assemblyDir(slug), '--exclusively', '--require-approval', 'never', ...ctxArgs(slug, version)];
}

export const BUILD_STEPS: { label: string; command: string; args: string[]; why: string }[] = [
  { label: 'build', command: 'npm', args: ['run', 'build:web'], why: 'the web app, built once for every practice' },
  {
    label: 'budgets',
    command: 'npx',
    args: ['tsx', 'scripts/practice/check-budgets.ts', '--shared'],
    why: 'Lambda bundle and web first-screen budgets (check:budgets), once',
  },
];

export function checkSteps(slug: string): { command: string; args: string[]; why: string }[] {
  return [
    { command: 'npm', args: ['run', 'check:deploy', '--', assemblyDir(slug)], why: 'deploy limits of both stacks' },
    { command: 'npx', args: ['tsx', 'scripts/practice/check-budgets.ts', assemblyDir(slug)], why: 'resources per stack, budget 250 each' },
  ];
}

const show = (command: string, args: string[]) => [command, ...args].join(' ');

function printPlan(ctx: CliContext, configs: PracticeConfig[], version: string, concurrency: number): void {
  ctx.out(`Plan (dry run: nothing is built, checked or deployed, and AWS is not called)`);
  ctx.out(`Version: ${version} (stack tag tidewell:version on both stacks)`);
  ctx.out('Once:');
  for (const s of BUILD_STEPS) ctx.out(`  ${show(s.command, s.args)}    # ${s.why}`);
  ctx.out(`Then per practice, ${concurrency} at a time; a failing practice stops only itself:`);
  for (const config of configs) {
    const { slug } = config;
    ctx.out(`${slug} (${config.practiceName}; ${config.account ?? 'account from the credentials'}, ${config.region}):`);
    let n = 1;
    ctx.out(`  ${n++}. npx ${synthArgs(slug, version).join(' ')}    # cdk-nag and the Control Tower guard fail it on a finding`);
    for (const c of checkSteps(slug)) ctx.out(`  ${n++}. ${show(c.command, c.args)}    # ${c.why}`);
    ctx.out(`  ${n++}. npx ${deployArgs(dataStackName(slug), slug, version).join(' ')}`);
    if (config.firstAdmin) {
      ctx.out(
        `  ${n++}. first admin ${config.firstAdmin.email}: create in the pool unless there (Cognito emails the temporary password), admin group, USER# item if absent`,
      );
    } else {
      ctx.out(`  ${n++}. first admin: none in the practice file (add "firstAdmin", or run \`npm run practice -- admin ${slug} --email …\` later)`);
    }
    ctx.out(`  ${n++}. npx ${deployArgs(appStackName(slug), slug, version).join(' ')}`);
    ctx.out(`  ${n++}. ${BACKFILL_STEP}`);
  }
}

async function deployOne(ctx: CliContext, config: PracticeConfig, version: string): Promise<PracticeResult> {
  const { slug } = config;
  const started = ctx.now().getTime();
  const say = (line: string) => ctx.out(`[${slug}] ${line}`);
  const aws = ctx.aws(config.region);
  let step = 'reading its stacks';
  let before = '?';
  let afterVersion: string | undefined;
  try {
    const [data, app] = await Promise.all([readStack(aws.cfn, dataStackName(slug)), readStack(aws.cfn, appStackName(slug))]);
    before = app ? (app.version ?? 'untagged') : data ? 'data only' : 'new';
    step = 'synth';
    say(`synthesizing ${version}`);
    await ctx.run('npx', synthArgs(slug, version), slug);
    step = 'checks';
    for (const c of checkSteps(slug)) await ctx.run(c.command, c.args, slug);
    step = 'data stack';
    say(`deploying ${dataStackName(slug)}`);
    await ctx.run('npx', deployArgs(dataStackName(slug), slug, version), slug);
    const deployed = await readStack(aws.cfn, dataStackName(slug));
    if (!deployed) throw new Error(`${dataStackName(slug)} is not in CloudFormation after its deploy.`);
    const resources = await dataResources(aws.cfn, deployed);
    if (config.firstAdmin) {
      step = 'first admin';
      const outcome = await ensureAdmin(aws, { ...resources, practiceId: config.practiceId, practiceName: config.practiceName }, config.firstAdmin, ctx.now());
      say(`first admin ${describeOutcome(config.firstAdmin.email, outcome)}`);
    }
    step = 'app stack';
    say(`deploying ${appStackName(slug)}`);
    await ctx.run('npx', deployArgs(appStackName(slug), slug, version), slug);
    const after = await readStack(aws.cfn, appStackName(slug));
    // After the app stack, not before: a marker tells the new Lambdas every item has its keys, and
    // only they write the keys on every change. Run before, the old Lambdas could still write an
    // item without them after the backfill passed it, and the paged read would never show it.
    // Until it finishes the new Lambdas read as before the marker (every item), so nothing is missed.
    step = 'page keys';
    afterVersion = after?.version ?? 'untagged';
    say(`page keys: ${await backfillPractice(aws, resources.tableName, config.practiceId)}`);
    const ms = ctx.now().getTime() - started;
    say(`deployed in ${duration(ms)}`);
    return { slug, before, after: afterVersion, result: 'deployed', ok: true, ms };
  } catch (e) {
    const ms = ctx.now().getTime() - started;
    const reason = e instanceof CommandFailed ? e.message : plainAwsError(e).replace(/^Failed: /, '');
    say(`FAILED at ${step}: ${reason}`);
    return { slug, before, after: afterVersion ?? before, result: `failed at ${step}`, ok: false, ms };
  }
}

export function summary(results: PracticeResult[]): string[] {
  return table(
    ['practice', 'version before → after', 'result', 'time'],
    results.map((r) => [r.slug, `${r.before} → ${r.after}`, r.result, duration(r.ms)]),
  );
}

export async function deploy(ctx: CliContext, opts: DeployOptions): Promise<number> {
  const loaded = loadPractices(opts.practicesDir, opts.slugs, (line) => ctx.err(line));
  const { configs } = loaded;
  const invalid: PracticeResult[] = loaded.invalid.map((slug) => ({ slug, before: '?', after: '?', result: 'invalid practice file', ok: false, ms: 0 }));
  let source: { version: string; dirty: boolean };
  try {
    source = await sourceVersion(ctx);
  } catch (e) {
    if (!opts.dryRun) throw e;
    // A plan is still worth printing from a copy without git history (an exported tarball).
    ctx.out(`Warning: no version: ${(e as Error).message}`);
    source = { version: 'unknown@unknown', dirty: false };
  }
  const { version, dirty } = source;
  if (dirty && !opts.allowDirty) {
    const message = `The working tree has uncommitted changes, so ${version} would not say what is deployed. Commit them first, or pass --allow-dirty.`;
    if (!opts.dryRun) {
      ctx.err(message);
      return EXIT.failure;
    }
    ctx.out(`Warning: ${message}`);
  }

  if (opts.dryRun) {
    printPlan(ctx, configs, version, opts.concurrency);
    if (invalid.length) ctx.err(`Not planned (invalid practice file): ${invalid.map((r) => r.slug).join(', ')}.`);
    return invalid.length ? EXIT.failure : EXIT.ok;
  }

  for (const s of BUILD_STEPS) {
    ctx.out(`${s.why}: ${show(s.command, s.args)}`);
    try {
      await ctx.run(s.command, s.args, s.label);
    } catch (e) {
      ctx.err(`Nothing was deployed: ${(e as Error).message}`);
      return EXIT.failure;
    }
  }

  const results: PracticeResult[] = [...invalid];
  await eachLimited(configs, opts.concurrency, async (config) => {
    results.push(await deployOne(ctx, config, version));
  });
  results.sort((a, b) => opts.slugs.indexOf(a.slug) - opts.slugs.indexOf(b.slug));
  ctx.out('');
  for (const line of summary(results)) ctx.out(line);
  const failed = results.filter((r) => !r.ok);
  ctx.out('');
  ctx.out(
    failed.length
      ? `${failed.length} of ${results.length} practice(s) failed: ${failed.map((r) => r.slug).join(', ')}.`
      : `${results.length} practice(s) deployed at ${version}.`,
  );
  return failed.length ? EXIT.failure : EXIT.ok;
}
