/**
 * `npm run practice -- <command>`: the practice fleet's operations in one place. Exit codes:
 * 0 done, 1 something failed (the message says what), 2 the command was called wrongly.
 */
import { join, resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { PracticeConfigError } from '../../infra/config/practice-config.js';
import { addAdmin } from './admin.js';
import { auditVerify } from './audit-verify.js';
import { backfill } from './backfill.js';
import { EXIT, plainAwsError, UsageError, type CliContext } from './context.js';
import { deploy } from './deploy.js';
import { newPractice } from './new-practice.js';
import { practiceSlugs } from './practice-files.js';
import { status } from './status.js';

export const HELP: Record<string, string> = {
  main: `Usage: npm run practice -- <command> [options]

Commands:
  new <slug>                 write practices/<slug>.json (from flags; asks for what is missing on a terminal)
  deploy <slug> | --all      build, synthesize, check and deploy the data then the app stack of each practice, then backfill its page keys
  backfill <slug> | --all    write the page keys a deployed practice's older items lack (deploy does this after the app stack)
  admin <slug>               add an admin to a deployed practice (--email, --first-name, --last-name)
  status [<slug> | --all]    version, stack states, drift, alarms in ALARM and last backup (all practices by default)
  audit-verify <slug>        recompute the audit archive's hash chain, name the first entry that does not match and list altered table entries
  import <slug> --from <dir> rebuild a practice from a whole-practice FHIR export (its own, or another system's NDJSON)

Options for every command:
  --dry-run                  print what would be done; nothing is written, built or deployed, and AWS is not called
  --practices-dir <dir>      read practice files from <dir> instead of practices/ (dry runs and status only)
  -h, --help                 this help, or a command's: npm run practice -- deploy --help

Exit codes: 0 done, 1 something failed (the message says what), 2 the command was called wrongly.
AWS credentials come from the usual chain (AWS_PROFILE, SSO, environment); each practice's region from its file.`,
  new: `Usage: npm run practice -- new <slug> [options]

Writes practices/<slug>.json, validated by the same schema as the synth. Refuses to overwrite a file.
On a terminal it asks for whatever the flags leave out; otherwise --name is required.

  --name <text>               practice name (required)
  --practice-id <id>          default prc_<slug>; never change it after launch
  --region <region>           default us-east-1
  --account <id>              AWS account (default: the one the credentials use)
  --alarm-email <address>     repeat for several; they get the practice's alarms
  --admin-email <address>     the first admin, created at the first deploy (with the two names below)
  --admin-first-name <text>
  --admin-last-name <text>
  --dry-run                   print the file instead of writing it`,
  deploy: `Usage: npm run practice -- deploy <slug> | --all [--concurrency N] [--dry-run]

Builds the web app once and checks the Lambda and web budgets once, then per practice:
synthesizes into cdk.out/practices/<slug> (cdk-nag and the Control Tower guard run inside),
checks the deploy limits and the resources per stack, deploys Tidewell-<slug>-data, creates the
first admin if the practice file names one and it does not exist yet, deploys Tidewell-<slug>-app,
then backfills the page keys in its table (as \`practice backfill\`: each backfill runs once and
marks itself done, so the screens read by page from then on).
Both stacks get the tag tidewell:version = <commit>@<commit date>. A failing practice stops only itself;
a summary table ends the run.

  --all                 every practices/*.json
  --concurrency <N>     practices deployed at the same time (default 1)
  --allow-dirty         deploy with uncommitted changes (the version tag then names a commit that is not all of it)
  --dry-run             print the plan: stacks, order, version, checks`,
  backfill: `Usage: npm run practice -- backfill <slug> | --all [--concurrency N] [--dry-run]

Writes into each deployed practice's table (named by Tidewell-<slug>-data) the keys its older items
lack: conversation tabs and counts, unread previews, appointments by provider, notification and
call counts, the call list, contact numbers and names. Each backfill runs once and then writes its
marker; the app reads those screens by page only once the marker is there, and whole until then.
\`practice deploy\` runs it after the app stack; run it alone for a practice whose app stack was
upgraded another way, after that upgrade (both stacks must be deployed). Running it again changes nothing.

  --all                 every practices/*.json
  --concurrency <N>     practices backfilled at the same time (default 1)
  --dry-run             print what would be written; AWS is not called`,
  admin: `Usage: npm run practice -- admin <slug> --email <address> --first-name <text> --last-name <text> [--dry-run]

Creates the user in the practice's pool (Cognito emails the temporary password), puts it in the
admin group, and writes its USER# item. An existing user is kept as it is (no new password), so
running it again changes nothing.`,
  status: `Usage: npm run practice -- status [<slug> | --all] [--no-drift] [--drift-timeout <seconds>]

Per practice: the deployed version (stack tag tidewell:version), both stacks' states, drift
(CloudFormation drift detection), alarms in ALARM, and the last backup (the newest AWS Backup
recovery point of the table, and the PITR window). Without a slug: every practice.

  --no-drift                 skip drift detection
  --drift-timeout <seconds>  how long to wait for drift detection per stack (default 120)`,
  'audit-verify': `Usage: npm run practice -- audit-verify <slug> [--from <batch | ISO date>] [--local [--data-dir <dir>]]

Reads the practice's audit archive (the Object Lock bucket named by Tidewell-<slug>-data's output
auditArchiveBucket), recomputes the hash chain batch by batch and entry by entry, and names the
first entry that does not match (or the first missing batch). Then lists the tamper records the
archive holds: audit entries changed or removed in the table after they were written, each with
when, and for a change the old and new value of each attribute. Exit 0 when the chain verifies and
holds no tamper record, 1 otherwise. Nothing is written.

  --from <batch | date>  start at this batch number, or at the last batch that starts before this date
                         (that batch's carried hash is taken as given; a full run checks from batch 1)
  --local                read the local runtime's file store instead of S3
  --data-dir <dir>       with --local: the local data folder (default TIDEWELL_DATA_DIR or .local)`,
  import: `Usage: npm run practice -- import <slug> --from <export dir> --api <url> [--again] [--concurrency N] [--dry-run]

Brings a whole-practice FHIR Bulk Data export into the practice: every .ndjson file of <export dir>
(Tidewell's export, its files/ folder beside them, or another system's NDJSON of the same resource
types), patient by patient, each with their chart, notes, files, appointments, messages, calls
and faxes. A patient brought in before is found again by the export's identifier of them, and
what is already in their chart is not added again: a second run adds nothing. Practitioners are
matched to the practice's users by email; the unmatched are listed. Progress is printed and kept in
<export dir>/.import-progress-<api>.json, so a stopped run carries on from the next patient.

  --from <dir>     the folder the export's files were downloaded into (required)
  --api <url>      the practice's API (its apiUrl output; locally http://localhost:<port>/api)
  --again          send every patient again, the progress file aside (nothing already here is added)
  --concurrency N  patients sent at the same time (default 4; 1 sends them in the export's order)
  --dry-run        read the export and print what would be sent; the API is not called
The admin's ID token comes from TIDEWELL_ADMIN_TOKEN (an admin of <slug>).`,
};

type Options = NonNullable<ParseArgsConfig['options']>;
const COMMON: Options = { help: { type: 'boolean', short: 'h' }, 'dry-run': { type: 'boolean' }, 'practices-dir': { type: 'string' } };
const OPTIONS: Record<string, Options> = {
  new: {
    name: { type: 'string' },
    'practice-id': { type: 'string' },
    region: { type: 'string' },
    account: { type: 'string' },
    'alarm-email': { type: 'string', multiple: true },
    'admin-email': { type: 'string' },
    'admin-first-name': { type: 'string' },
    'admin-last-name': { type: 'string' },
  },
  deploy: { all: { type: 'boolean' }, concurrency: { type: 'string' }, 'allow-dirty': { type: 'boolean' } },
  backfill: { all: { type: 'boolean' }, concurrency: { type: 'string' } },
  admin: { email: { type: 'string' }, 'first-name': { type: 'string' }, 'last-name': { type: 'string' } },
  status: { all: { type: 'boolean' }, 'no-drift': { type: 'boolean' }, 'drift-timeout': { type: 'string' } },
  'audit-verify': { from: { type: 'string' }, local: { type: 'boolean' }, 'data-dir': { type: 'string' } },
  import: { from: { type: 'string' }, api: { type: 'string' }, again: { type: 'boolean' }, concurrency: { type: 'string' } },
};

function parse(command: string, args: string[]) {
  try {
    return parseArgs({ args, options: { ...COMMON, ...OPTIONS[command] }, allowPositionals: true, strict: true });
  } catch (e) {
    // node:util words its errors for programmers; say which flag and where to look.
    const flag = /'([^' ]+)/.exec((e as Error).message)?.[1];
    const code = (e as { code?: string }).code;
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw new UsageError(`${command} has no option ${flag ?? ''}. See: npm run practice -- ${command} --help`);
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE')
      throw new UsageError(`${flag ?? 'An option'} needs a value. See: npm run practice -- ${command} --help`);
    throw new UsageError(`${(e as Error).message}. See: npm run practice -- ${command} --help`);
  }
}

function positiveInt(value: string | undefined, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} must be a whole number of 1 or more, not "${value}".`);
  return n;
}

/** The slugs a command acts on: one named, or every practice with --all (or by default). */
function targets(positionals: string[], all: boolean, dir: string, command: string, defaultAll: boolean): string[] {
  if (positionals.length > 1) throw new UsageError(`${command} takes one practice (or --all), not ${positionals.length}: ${positionals.join(' ')}.`);
  if (positionals.length && all) throw new UsageError(`Give either a practice or --all, not both.`);
  if (positionals.length) return positionals;
  if (!all && !defaultAll) throw new UsageError(`Which practice? npm run practice -- ${command} <slug>, or --all.`);
  const slugs = practiceSlugs(dir);
  if (!slugs.length) throw new UsageError(`There are no practice files in ${dir}.`);
  return slugs;
}

export async function runCli(argv: string[], ctx: CliContext): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (!command || command === '--help' || command === '-h' || command === 'help') {
      ctx.out(HELP.main);
      return command ? EXIT.ok : EXIT.usage;
    }
    if (!OPTIONS[command])
      throw new UsageError(
        `There is no command "${command}". Commands: new, deploy, backfill, admin, status, audit-verify, import. See: npm run practice -- --help`,
      );
    const { values: v, positionals } = parse(command, rest);
    if (v.help) {
      ctx.out(HELP[command]);
      return EXIT.ok;
    }
    const repoPractices = join(ctx.root, 'practices');
    const practicesDir = typeof v['practices-dir'] === 'string' ? resolve(v['practices-dir']) : repoPractices;
    const dryRun = v['dry-run'] === true;
    const str = (k: string) => (typeof v[k] === 'string' ? (v[k] as string) : undefined);

    switch (command) {
      case 'new': {
        if (positionals.length !== 1) throw new UsageError('new takes one slug: npm run practice -- new harbor --name "Harbor Family Medicine".');
        return await newPractice(ctx, {
          slug: positionals[0],
          practicesDir,
          dryRun,
          name: str('name'),
          practiceId: str('practice-id'),
          region: str('region'),
          account: str('account'),
          alarmEmails: (v['alarm-email'] as string[] | undefined) ?? [],
          adminEmail: str('admin-email'),
          adminFirstName: str('admin-first-name'),
          adminLastName: str('admin-last-name'),
        });
      }
      case 'deploy': {
        // The synth reads the repository's practices/, so only those files can really be deployed.
        if (practicesDir !== resolve(repoPractices) && !dryRun)
          throw new UsageError("--practices-dir works with --dry-run only: the synth reads the repository's practices/ folder.");
        const slugs = targets(positionals, v.all === true, practicesDir, 'deploy', false);
        return await deploy(ctx, {
          slugs,
          practicesDir,
          dryRun,
          concurrency: positiveInt(str('concurrency'), '--concurrency', 1),
          allowDirty: v['allow-dirty'] === true,
        });
      }
      case 'backfill': {
        const slugs = targets(positionals, v.all === true, practicesDir, 'backfill', false);
        return await backfill(ctx, { slugs, practicesDir, dryRun, concurrency: positiveInt(str('concurrency'), '--concurrency', 1) });
      }
      case 'admin': {
        if (positionals.length !== 1)
          throw new UsageError('admin takes one practice: npm run practice -- admin harbor --email … --first-name … --last-name ….');
        return await addAdmin(ctx, {
          slug: positionals[0],
          practicesDir,
          dryRun,
          email: str('email'),
          firstName: str('first-name'),
          lastName: str('last-name'),
        });
      }
      case 'audit-verify': {
        if (positionals.length !== 1) throw new UsageError('audit-verify takes one practice: npm run practice -- audit-verify harbor [--from 120].');
        if (v['data-dir'] !== undefined && v.local !== true)
          throw new UsageError('--data-dir goes with --local (the local file store); a deployed practice is read from S3.');
        return await auditVerify(ctx, {
          slug: positionals[0],
          practicesDir,
          dryRun,
          from: str('from'),
          localDataDir: v.local === true ? (str('data-dir') ?? process.env.TIDEWELL_DATA_DIR ?? join(ctx.root, '.local')) : undefined,
        });
      }
      case 'import': {
        if (positionals.length !== 1) throw new UsageError('import takes one practice: npm run practice -- import harbor --from ./export --api https://….');
        const dir = str('from');
        if (!dir) throw new UsageError('Which export? npm run practice -- import <slug> --from <export dir> --api <url>.');
        const apiUrl = str('api');
        if (!apiUrl && !dryRun) throw new UsageError("Which API? Pass the practice's apiUrl output: --api https://….");
        const token = process.env.TIDEWELL_ADMIN_TOKEN ?? '';
        if (!token && !dryRun) throw new UsageError('No admin token: sign in as an admin of the practice and set TIDEWELL_ADMIN_TOKEN to the ID token.');
        const { importPractice, IMPORT_CONCURRENCY } = await import('./import-practice.js');
        const concurrency = positiveInt(str('concurrency'), '--concurrency', IMPORT_CONCURRENCY);
        const summary = await importPractice({
          dir: resolve(dir),
          apiUrl: apiUrl ?? '(the practice API)',
          token,
          dryRun,
          again: v.again === true,
          concurrency,
          out: ctx.out,
        });
        return summary.failed.length ? EXIT.failure : EXIT.ok;
      }
      default: {
        const slugs = targets(positionals, v.all === true, practicesDir, 'status', true);
        if (dryRun) {
          ctx.out(
            `Would read, for ${slugs.join(', ')} (dry run, AWS is not called): DescribeStacks of both stacks (state, tag tidewell:version), DetectStackDrift and DescribeStackDriftDetectionStatus per stack, DescribeAlarms in ALARM by prefix tidewell-<slug>-, DescribeContinuousBackups and ListRecoveryPointsByResource of the table.`,
          );
          return EXIT.ok;
        }
        return await status(ctx, {
          slugs,
          practicesDir,
          drift: v['no-drift'] !== true,
          driftTimeoutSeconds: positiveInt(str('drift-timeout'), '--drift-timeout', 120),
        });
      }
    }
  } catch (e) {
    if (e instanceof UsageError) {
      ctx.err(e.message);
      return EXIT.usage;
    }
    if (e instanceof PracticeConfigError) {
      ctx.err(e.message);
      return EXIT.failure;
    }
    ctx.err(plainAwsError(e));
    return EXIT.failure;
  }
}
