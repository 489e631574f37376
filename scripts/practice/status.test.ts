import { BackupClient, ListRecoveryPointsByResourceCommand } from '@aws-sdk/client-backup';
import { CloudFormationClient, DescribeStackDriftDetectionStatusCommand, DescribeStacksCommand, DetectStackDriftCommand } from '@aws-sdk/client-cloudformation';
import { CloudWatchClient, DescribeAlarmsCommand } from '@aws-sdk/client-cloudwatch';
import { DescribeContinuousBackupsCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './cli.js';
import { detectDrift } from './status.js';
import { COVE, fakeContext, HARBOR, practiceRoot, VERSION } from './test-support.js';

const cfn = mockClient(CloudFormationClient);
const cloudwatch = mockClient(CloudWatchClient);
const dynamodb = mockClient(DynamoDBClient);
const backup = mockClient(BackupClient);

const ARN = (name: string) => `arn:aws:cloudformation:us-east-1:111122223333:stack/${name}/1`;
const created = new Date('2026-11-01T00:00:00Z');
const inProgress = { StackId: ARN('x'), StackDriftDetectionId: 'd1', DetectionStatus: 'DETECTION_IN_PROGRESS' as const, Timestamp: created };

beforeEach(() => {
  for (const m of [cfn, cloudwatch, dynamodb, backup]) m.reset();
});

function harborDeployed() {
  cfn.on(DescribeStacksCommand, { StackName: 'Tidewell-harbor-data' }).resolves({
    Stacks: [
      {
        StackName: 'Tidewell-harbor-data',
        StackStatus: 'UPDATE_COMPLETE',
        StackId: ARN('Tidewell-harbor-data'),
        CreationTime: created,
        Tags: [{ Key: 'tidewell:version', Value: VERSION }],
        Outputs: [
          { OutputKey: 'userPoolId', OutputValue: 'us-east-1_P' },
          { OutputKey: 'tableName', OutputValue: 'harbor-table' },
        ],
      },
    ],
  });
  cfn.on(DescribeStacksCommand, { StackName: 'Tidewell-harbor-app' }).resolves({
    Stacks: [
      {
        StackName: 'Tidewell-harbor-app',
        StackStatus: 'UPDATE_ROLLBACK_COMPLETE',
        StackId: ARN('Tidewell-harbor-app'),
        CreationTime: created,
        Tags: [{ Key: 'tidewell:version', Value: VERSION }],
      },
    ],
  });
  cfn.on(DetectStackDriftCommand, { StackName: 'Tidewell-harbor-data' }).resolves({ StackDriftDetectionId: 'drift-data' });
  cfn.on(DetectStackDriftCommand, { StackName: 'Tidewell-harbor-app' }).resolves({ StackDriftDetectionId: 'drift-app' });
  cfn
    .on(DescribeStackDriftDetectionStatusCommand, { StackDriftDetectionId: 'drift-data' })
    .resolvesOnce({ ...inProgress, StackDriftDetectionId: 'drift-data' })
    .resolves({ ...inProgress, StackDriftDetectionId: 'drift-data', DetectionStatus: 'DETECTION_COMPLETE', StackDriftStatus: 'IN_SYNC' });
  cfn.on(DescribeStackDriftDetectionStatusCommand, { StackDriftDetectionId: 'drift-app' }).resolves({
    ...inProgress,
    StackDriftDetectionId: 'drift-app',
    DetectionStatus: 'DETECTION_COMPLETE',
    StackDriftStatus: 'DRIFTED',
    DriftedStackResourceCount: 2,
  });
  cloudwatch
    .on(DescribeAlarmsCommand)
    .resolvesOnce({ MetricAlarms: [{ AlarmName: 'tidewell-harbor-api-errors' }], NextToken: 'page2' })
    .resolves({ CompositeAlarms: [{ AlarmName: 'tidewell-harbor-scheduler-dead-letters' }] });
  dynamodb.on(DescribeContinuousBackupsCommand).resolves({
    ContinuousBackupsDescription: {
      ContinuousBackupsStatus: 'ENABLED',
      PointInTimeRecoveryDescription: { PointInTimeRecoveryStatus: 'ENABLED', LatestRestorableDateTime: new Date('2026-12-02T08:55:00Z') },
    },
  });
  backup.on(ListRecoveryPointsByResourceCommand).resolves({
    RecoveryPoints: [
      { RecoveryPointArn: 'rp1', Status: 'COMPLETED', CreationDate: new Date('2026-12-01T05:00:00Z') },
      { RecoveryPointArn: 'rp2', Status: 'COMPLETED', CreationDate: new Date('2026-12-02T05:00:00Z') },
      { RecoveryPointArn: 'rp3', Status: 'PARTIAL', CreationDate: new Date('2026-12-02T06:00:00Z') },
    ],
  });
}

describe('practice status', () => {
  it('reads version, stack states, drift, alarms in ALARM and the last backup with exactly these calls', async () => {
    harborDeployed();
    const ctx = fakeContext(practiceRoot(HARBOR));

    expect(await runCli(['status', 'harbor'], ctx)).toBe(0);

    expect(ctx.lines).toEqual([
      'harbor',
      `  version      ${VERSION}`,
      '  stacks       Tidewell-harbor-data UPDATE_COMPLETE; Tidewell-harbor-app UPDATE_ROLLBACK_COMPLETE',
      '  drift        data IN_SYNC, app DRIFTED (2 resources)',
      '  alarms       2 in ALARM: tidewell-harbor-api-errors, tidewell-harbor-scheduler-dead-letters',
      '  last backup  2026-12-02T05:00:00.000Z; PITR ENABLED to 2026-12-02T08:55:00.000Z',
    ]);
    expect(cfn.commandCalls(DetectStackDriftCommand).map((c) => c.args[0].input)).toEqual([
      { StackName: 'Tidewell-harbor-data' },
      { StackName: 'Tidewell-harbor-app' },
    ]);
    expect(cfn.commandCalls(DescribeStackDriftDetectionStatusCommand).map((c) => c.args[0].input.StackDriftDetectionId)).toEqual([
      'drift-data',
      'drift-data',
      'drift-app',
    ]);
    expect(ctx.sleeps).toBe(1);
    expect(cloudwatch.commandCalls(DescribeAlarmsCommand).map((c) => c.args[0].input)).toEqual([
      { AlarmNamePrefix: 'tidewell-harbor-', StateValue: 'ALARM', AlarmTypes: ['MetricAlarm', 'CompositeAlarm'], NextToken: undefined },
      { AlarmNamePrefix: 'tidewell-harbor-', StateValue: 'ALARM', AlarmTypes: ['MetricAlarm', 'CompositeAlarm'], NextToken: 'page2' },
    ]);
    expect(dynamodb.commandCalls(DescribeContinuousBackupsCommand)[0].args[0].input).toEqual({ TableName: 'harbor-table' });
    expect(backup.commandCalls(ListRecoveryPointsByResourceCommand)[0].args[0].input).toEqual({
      ResourceArn: 'arn:aws:dynamodb:us-east-1:111122223333:table/harbor-table',
      NextToken: undefined,
    });
  });

  it('waits for drift detection only up to its bound, then says it is still running', async () => {
    cfn.on(DetectStackDriftCommand).resolves({ StackDriftDetectionId: 'slow' });
    cfn.on(DescribeStackDriftDetectionStatusCommand).resolves({ ...inProgress, StackDriftDetectionId: 'slow' });
    const ctx = fakeContext(practiceRoot());
    expect(await detectDrift(new CloudFormationClient({}), 'Tidewell-harbor-app', ctx, 20)).toBe('still checking after 20s (detection slow)');
    // 20 s at one poll every 5 s: four waits, five asks.
    expect(ctx.sleeps).toBe(4);
    expect(cfn.commandCalls(DescribeStackDriftDetectionStatusCommand)).toHaveLength(5);

    cfn
      .on(DescribeStackDriftDetectionStatusCommand)
      .resolves({ ...inProgress, DetectionStatus: 'DETECTION_FAILED', DetectionStatusReason: 'Failed to detect drift on resource [WebBucket]' });
    expect(await detectDrift(new CloudFormationClient({}), 'x', ctx, 20)).toBe('check failed: Failed to detect drift on resource [WebBucket]');
  });

  it('shows every practice, one not deployed among them, and skips drift on request', async () => {
    harborDeployed();
    cfn
      .on(DescribeStacksCommand, { StackName: 'Tidewell-cove-data' })
      .rejects(Object.assign(new Error('Stack with id Tidewell-cove-data does not exist'), { name: 'ValidationError' }));
    cfn
      .on(DescribeStacksCommand, { StackName: 'Tidewell-cove-app' })
      .rejects(Object.assign(new Error('Stack with id Tidewell-cove-app does not exist'), { name: 'ValidationError' }));
    const ctx = fakeContext(practiceRoot(HARBOR, COVE));

    expect(await runCli(['status', '--all', '--no-drift'], ctx)).toBe(0);

    expect(cfn.commandCalls(DetectStackDriftCommand)).toHaveLength(0);
    expect(ctx.lines.slice(0, 6)).toEqual([
      'cove',
      '  version      not deployed',
      '  stacks       Tidewell-cove-data not deployed; Tidewell-cove-app not deployed',
      '  drift        not checked (--no-drift)',
      '  alarms       none in ALARM',
      '  last backup  –',
    ]);
    expect(ctx.lines.slice(-4)).toEqual([
      'practice  version                       data             app                       drift                     alarms',
      '--------  ----------------------------  ---------------  ------------------------  ------------------------  ------',
      'cove      not deployed                  not deployed     not deployed              not checked (--no-drift)  0',
      `harbor    ${VERSION}  UPDATE_COMPLETE  UPDATE_ROLLBACK_COMPLETE  not checked (--no-drift)  2`,
    ]);
  });

  it('reports a practice it could not read in plain words and exits 1, still showing the others', async () => {
    harborDeployed();
    cfn
      .on(DescribeStacksCommand, { StackName: 'Tidewell-cove-data' })
      .rejects(Object.assign(new Error('User: arn:aws:iam::1:user/x is not authorized to perform: cloudformation:DescribeStacks'), { name: 'AccessDenied' }));
    const ctx = fakeContext(practiceRoot(HARBOR, COVE));
    expect(await runCli(['status', '--no-drift'], ctx)).toBe(1);
    expect(ctx.lines.slice(0, 2)).toEqual([
      'cove',
      '  could not be read: AWS refused the call: User: arn:aws:iam::1:user/x is not authorized to perform: cloudformation:DescribeStacks',
    ]);
    expect(ctx.lines).toContain(`  version      ${VERSION}`);
  });

  it('--dry-run says what it would read and calls nothing', async () => {
    const ctx = fakeContext(practiceRoot(HARBOR));
    expect(await runCli(['status', '--dry-run'], ctx)).toBe(0);
    expect(ctx.lines[0]).toMatch(/^Would read, for harbor \(dry run, AWS is not called\)/);
    expect(cfn.calls()).toHaveLength(0);
  });
});
