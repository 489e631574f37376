import { Duration, Stack } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { NagSuppressions } from 'cdk-nag';
import { grantTableReadWrite, tidewellFunction } from './lambda-function.js';
import { INLINE_POLICY_REASON } from './nag.js';
import type { Logging } from './logging.js';
import { RECURRING_RETRY, RECURRING_SCHEDULES, RECURRING_WINDOW_MINUTES } from '../../functions/workers/schedule-target/recurring.js';

/** The handler EventBridge Scheduler invokes for every due one-time (at()) schedule. */
export const SCHEDULE_TARGET_ENTRY = 'functions/workers/schedule-target/handler.ts';

export interface SchedulerProps {
  slug: string;
  practiceId: string;
  table: dynamodb.ITable;
  filesBucketName: string;
  logging: Logging;
}

/**
 * One schedule group per practice, the target Lambda, the role Scheduler assumes to invoke it,
 * and the dead-letter queue for invocations that still fail after Scheduler's retries.
 */
export class Scheduler extends Construct {
  readonly group: scheduler.CfnScheduleGroup;
  readonly groupName: string;
  readonly target: NodejsFunction;
  readonly invokeRole: iam.Role;
  readonly deadLetterQueue: sqs.Queue;

  constructor(scope: Construct, id: string, props: SchedulerProps) {
    super(scope, id);
    const stack = Stack.of(this);
    this.groupName = `tidewell-${props.slug}`;
    this.group = new scheduler.CfnScheduleGroup(this, 'Group', { name: this.groupName });

    this.target = tidewellFunction(this, 'Target', {
      entry: SCHEDULE_TARGET_ENTRY,
      logging: props.logging,
      description: `Tidewell scheduled sends (${props.slug})`,
      timeoutSeconds: 60,
      environment: { TABLE_NAME: props.table.tableName, PRACTICE_ID: props.practiceId, FILES_BUCKET: props.filesBucketName },
    });
    grantTableReadWrite(this.target, props.table);

    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetters', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      // Declares the queue a dead-letter queue (CT.SQS.PR.1); allowAll is also what SQS assumes without it.
      redriveAllowPolicy: { redrivePermission: sqs.RedrivePermission.ALLOW_ALL },
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    NagSuppressions.addResourceSuppressions(this.deadLetterQueue, [
      { id: 'AwsSolutions-SQS3', reason: 'This queue is itself the dead-letter queue of the Scheduler target; it has no consumer to fail.' },
    ]);

    // Confused-deputy guard: only this account's schedules in this group may assume the role.
    this.invokeRole = new iam.Role(this, 'InvokeRole', {
      description: 'EventBridge Scheduler invokes the scheduled-send target',
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com').withConditions({
        StringEquals: { 'aws:SourceAccount': stack.account },
        ArnLike: { 'aws:SourceArn': stack.formatArn({ service: 'scheduler', resource: 'schedule-group', resourceName: this.groupName }) },
      }),
    });
    this.target.grantInvoke(this.invokeRole);
    this.deadLetterQueue.grantSendMessages(this.invokeRole);
    NagSuppressions.addResourceSuppressions(
      this.invokeRole,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason: 'Invoke on the target function and its versions (<arn>:*) only.',
          appliesTo: [{ regex: '/^Resource::<.*Target.*\\.Arn>:\\*$/g' }],
        },
        { id: 'HIPAA.Security-IAMNoInlinePolicy', reason: INLINE_POLICY_REASON },
      ],
      true,
    );

    // The unattended jobs (DoseSpot's syncPatientRx): one schedule each, on the same target, role and dead-letter queue.
    for (const recurring of RECURRING_SCHEDULES) {
      const schedule = new scheduler.CfnSchedule(this, `Recurring-${recurring.name}`, {
        name: recurring.name,
        groupName: this.groupName,
        description: recurring.description,
        scheduleExpression: recurring.expression,
        flexibleTimeWindow: { mode: 'FLEXIBLE', maximumWindowInMinutes: RECURRING_WINDOW_MINUTES },
        state: 'ENABLED',
        target: {
          arn: this.target.functionArn,
          roleArn: this.invokeRole.roleArn,
          input: JSON.stringify(recurring.input),
          retryPolicy: { ...RECURRING_RETRY },
          deadLetterConfig: { arn: this.deadLetterQueue.queueArn },
        },
      });
      schedule.addDependency(this.group);
    }
  }

  /** Lets a group create, read and delete this practice's schedules that invoke the target. */
  grantScheduling(fn: NodejsFunction): void {
    this.grantSchedulingPermissions(fn);
    fn.addEnvironment('SCHEDULER_TARGET_ARN', this.target.functionArn);
  }

  /**
   * Lets the target schedule its own next run (a series' following appointment reminder). Its own
   * ARN in its environment would be a circular reference: it takes it from the invocation instead.
   */
  grantSelfScheduling(): void {
    this.grantSchedulingPermissions(this.target);
  }

  private grantSchedulingPermissions(fn: NodejsFunction): void {
    const stack = Stack.of(this);
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['scheduler:CreateSchedule', 'scheduler:DeleteSchedule', 'scheduler:GetSchedule'],
        resources: [stack.formatArn({ service: 'scheduler', resource: 'schedule', resourceName: `${this.groupName}/*` })],
      }),
    );
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['iam:PassRole'],
        resources: [this.invokeRole.roleArn],
        conditions: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
      }),
    );
    fn.addEnvironment('SCHEDULER_GROUP', this.groupName);
    fn.addEnvironment('SCHEDULER_ROLE_ARN', this.invokeRole.roleArn);
    fn.addEnvironment('SCHEDULER_DLQ_ARN', this.deadLetterQueue.queueArn);
    NagSuppressions.addResourceSuppressions(
      fn.role!,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason: 'Schedule names are created at run time (one per scheduled send); the grant is limited to this practice schedule group.',
          // The partition is a token in an environment-agnostic stack and a literal once the region is known.
          appliesTo: [{ regex: '/^Resource::arn:(<AWS::Partition>|aws[a-z-]*):scheduler:.*:schedule\\/tidewell-.*\\/\\*$/g' }],
        },
      ],
      true,
    );
  }
}
