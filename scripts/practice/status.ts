/**
 * `practice status [<slug>|--all]`: per practice the deployed version (the stack tag), both stacks'
 * states, drift (CloudFormation drift detection, waited for up to a bound), the alarms in ALARM
 * (CloudWatch, by the practice's alarm-name prefix) and the last backup: the newest completed AWS
 * Backup recovery point of the table (ListRecoveryPointsByResource) and the PITR window
 * (DynamoDB DescribeContinuousBackups).
 */
import { ListRecoveryPointsByResourceCommand } from '@aws-sdk/client-backup';
import { DescribeStackDriftDetectionStatusCommand, DetectStackDriftCommand, type CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { DescribeAlarmsCommand, type CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { DescribeContinuousBackupsCommand } from '@aws-sdk/client-dynamodb';
import { PracticeConfigError, type PracticeConfig } from '../../infra/config/practice-config.js';
import { EXIT, plainAwsError, type AwsClients, type CliContext } from './context.js';
import { table } from './format.js';
import { loadPractice } from './practice-files.js';
import { appStackName, dataResources, dataStackName, readStack, type StackState } from './stacks.js';

export interface StatusOptions {
  slugs: string[];
  practicesDir: string;
  /** false: skip drift detection (it takes a CloudFormation call per resource, up to minutes). */
  drift: boolean;
  driftTimeoutSeconds: number;
}

/** How often the drift detection's status is asked for while it runs. */
export const DRIFT_POLL_MS = 5_000;

export const alarmPrefix = (slug: string) => `tidewell-${slug}-`;

export async function detectDrift(
  cfn: CloudFormationClient,
  stackName: string,
  ctx: Pick<CliContext, 'now' | 'sleep'>,
  timeoutSeconds: number,
): Promise<string> {
  const { StackDriftDetectionId } = await cfn.send(new DetectStackDriftCommand({ StackName: stackName }));
  const deadline = ctx.now().getTime() + timeoutSeconds * 1000;
  for (;;) {
    const s = await cfn.send(new DescribeStackDriftDetectionStatusCommand({ StackDriftDetectionId }));
    if (s.DetectionStatus === 'DETECTION_COMPLETE') {
      return s.StackDriftStatus === 'DRIFTED' ? `DRIFTED (${s.DriftedStackResourceCount ?? '?'} resources)` : (s.StackDriftStatus ?? 'UNKNOWN');
    }
    if (s.DetectionStatus === 'DETECTION_FAILED') return `check failed: ${s.DetectionStatusReason ?? 'no reason given'}`;
    if (ctx.now().getTime() >= deadline) return `still checking after ${timeoutSeconds}s (detection ${StackDriftDetectionId})`;
    await ctx.sleep(DRIFT_POLL_MS);
  }
}

export async function alarmsInAlarm(cloudwatch: CloudWatchClient, slug: string): Promise<string[]> {
  const names: string[] = [];
  let NextToken: string | undefined;
  do {
    const page = await cloudwatch.send(
      new DescribeAlarmsCommand({ AlarmNamePrefix: alarmPrefix(slug), StateValue: 'ALARM', AlarmTypes: ['MetricAlarm', 'CompositeAlarm'], NextToken }),
    );
    names.push(...(page.MetricAlarms ?? []).map((a) => a.AlarmName ?? ''), ...(page.CompositeAlarms ?? []).map((a) => a.AlarmName ?? ''));
    NextToken = page.NextToken;
  } while (NextToken);
  return names.sort();
}

export interface BackupState {
  /** Newest COMPLETED AWS Backup recovery point of the table, ISO, or null when there is none yet. */
  lastRecoveryPoint: string | null;
  /** PITR on, and the latest time a restore can go back to. */
  pitr: 'ENABLED' | 'DISABLED' | string;
  latestRestorable: string | null;
}

export async function backupState(aws: Pick<AwsClients, 'backup' | 'dynamodb'>, tableName: string, tableArn: string): Promise<BackupState> {
  const { ContinuousBackupsDescription: d } = await aws.dynamodb.send(new DescribeContinuousBackupsCommand({ TableName: tableName }));
  const pitr = d?.PointInTimeRecoveryDescription;
  let newest: Date | null = null;
  let NextToken: string | undefined;
  do {
    const page = await aws.backup.send(new ListRecoveryPointsByResourceCommand({ ResourceArn: tableArn, NextToken }));
    for (const p of page.RecoveryPoints ?? []) {
      if (p.Status === 'COMPLETED' && p.CreationDate && (!newest || p.CreationDate > newest)) newest = p.CreationDate;
    }
    NextToken = page.NextToken;
  } while (NextToken);
  return {
    lastRecoveryPoint: newest ? newest.toISOString() : null,
    pitr: pitr?.PointInTimeRecoveryStatus ?? 'UNKNOWN',
    latestRestorable: pitr?.LatestRestorableDateTime ? pitr.LatestRestorableDateTime.toISOString() : null,
  };
}

export interface PracticeStatus {
  slug: string;
  version: string;
  data: string;
  app: string;
  drift: string;
  alarms: string[];
  backup: string;
  error?: string;
}

const stateText = (s: StackState | null) => (s ? s.status : 'not deployed');

async function statusOf(ctx: CliContext, config: PracticeConfig, opts: StatusOptions): Promise<PracticeStatus> {
  const { slug } = config;
  const aws = ctx.aws(config.region);
  const [data, app] = await Promise.all([readStack(aws.cfn, dataStackName(slug)), readStack(aws.cfn, appStackName(slug))]);
  const versions = [...new Set([data?.version, app?.version].filter((v): v is string => !!v))];
  const version = versions.length ? versions.join(' (data) / ') + (versions.length > 1 ? ' (app)' : '') : data || app ? 'untagged' : 'not deployed';
  let drift = 'not checked (--no-drift)';
  if (opts.drift) {
    const parts: string[] = [];
    for (const [label, stack] of [
      ['data', data],
      ['app', app],
    ] as const) {
      if (stack) parts.push(`${label} ${await detectDrift(aws.cfn, stack.name, ctx, opts.driftTimeoutSeconds)}`);
    }
    drift = parts.length ? parts.join(', ') : '–';
  }
  const alarms = data || app ? await alarmsInAlarm(aws.cloudwatch, slug) : [];
  let backup = '–';
  if (data) {
    const resources = await dataResources(aws.cfn, data);
    const b = await backupState(aws, resources.tableName, resources.tableArn);
    backup = `${b.lastRecoveryPoint ?? 'no backup yet'}; PITR ${b.pitr}${b.latestRestorable ? ` to ${b.latestRestorable}` : ''}`;
  }
  return { slug, version, data: stateText(data), app: stateText(app), drift, alarms, backup };
}

export async function status(ctx: CliContext, opts: StatusOptions): Promise<number> {
  const rows: PracticeStatus[] = [];
  for (const slug of opts.slugs) {
    try {
      const config = loadPractice(opts.practicesDir, slug);
      rows.push(await statusOf(ctx, config, opts));
    } catch (e) {
      if ((e as Error).name === 'UsageError') throw e;
      const message = e instanceof PracticeConfigError ? e.message.split('\n')[0] : `could not be read: ${plainAwsError(e).replace(/^Failed: /, '')}`;
      rows.push({ slug, version: '?', data: '?', app: '?', drift: '?', alarms: [], backup: '?', error: message });
    }
  }
  for (const r of rows) {
    ctx.out(`${r.slug}`);
    if (r.error) {
      ctx.out(`  ${r.error}`);
      continue;
    }
    ctx.out(`  version      ${r.version}`);
    ctx.out(`  stacks       ${dataStackName(r.slug)} ${r.data}; ${appStackName(r.slug)} ${r.app}`);
    ctx.out(`  drift        ${r.drift}`);
    ctx.out(`  alarms       ${r.alarms.length ? `${r.alarms.length} in ALARM: ${r.alarms.join(', ')}` : 'none in ALARM'}`);
    ctx.out(`  last backup  ${r.backup}`);
  }
  if (rows.length > 1) {
    ctx.out('');
    for (const line of table(
      ['practice', 'version', 'data', 'app', 'drift', 'alarms'],
      rows.map((r) => [r.slug, r.version, r.data, r.app, r.error ? 'error' : r.drift, r.error ? '?' : String(r.alarms.length)]),
    ))
      ctx.out(line);
  }
  return rows.some((r) => r.error) ? EXIT.failure : EXIT.ok;
}
