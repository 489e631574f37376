/** `practice admin <slug> --email … --first-name … --last-name …`: another admin, the same way as the first. */
import type { PracticeFirstAdmin } from '../../infra/config/practice-config.js';
import { PracticeFirstAdminSchema } from '../../infra/config/practice-config.js';
import { EXIT, UsageError, type CliContext } from './context.js';
import { describeOutcome, ensureAdmin } from './first-admin.js';
import { loadPractice } from './practice-files.js';
import { dataResources, dataStackName, readStack } from './stacks.js';

export interface AdminOptions {
  slug: string;
  practicesDir: string;
  dryRun: boolean;
  email?: string;
  firstName?: string;
  lastName?: string;
}

export async function addAdmin(ctx: CliContext, opts: AdminOptions): Promise<number> {
  const parsed = PracticeFirstAdminSchema.safeParse({ email: opts.email, firstName: opts.firstName, lastName: opts.lastName });
  if (!parsed.success) {
    const missing = [!opts.email && '--email', !opts.firstName && '--first-name', !opts.lastName && '--last-name'].filter(Boolean);
    throw new UsageError(missing.length ? `admin needs ${missing.join(', ')}.` : parsed.error.issues.map((i) => i.message).join('; '));
  }
  const admin: PracticeFirstAdmin = parsed.data;
  const config = loadPractice(opts.practicesDir, opts.slug);
  if (opts.dryRun) {
    ctx.out(`Would add ${admin.email} (${admin.firstName} ${admin.lastName}) as an admin of ${config.practiceName} (dry run, AWS is not called):`);
    ctx.out(`  1. read the pool id and table name from ${dataStackName(config.slug)} in ${config.region} (DescribeStacks)`);
    ctx.out(
      `  2. AdminCreateUser in the pool with custom:practiceId ${config.practiceId} (Cognito emails the temporary password); an existing user is kept as is`,
    );
    ctx.out('  3. AdminAddUserToGroup admin, unless the user already has a group');
    ctx.out(`  4. PutItem USER#<sub> with permissionGroup admin, only if absent (attribute_not_exists)`);
    return EXIT.ok;
  }
  const aws = ctx.aws(config.region);
  const stack = await readStack(aws.cfn, dataStackName(config.slug));
  if (!stack) {
    ctx.err(`${dataStackName(config.slug)} is not deployed in ${config.region}: deploy the practice first (npm run practice -- deploy ${config.slug}).`);
    return EXIT.failure;
  }
  const resources = await dataResources(aws.cfn, stack);
  const outcome = await ensureAdmin(aws, { ...resources, practiceId: config.practiceId, practiceName: config.practiceName }, admin, ctx.now());
  ctx.out(describeOutcome(admin.email, outcome));
  return outcome.group === 'other-role' ? EXIT.failure : EXIT.ok;
}
