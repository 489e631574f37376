import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sns from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { denyGrantsExceptForAwsServices } from './guard.js';

export interface AlarmsProps {
  slug: string;
  /** practices/<slug>.json `alarms.emails`: each gets a subscription to confirm. */
  emails: readonly string[];
}

const PERIOD = Duration.minutes(5);
/** CloudWatch: a metric-math alarm reads at most ten metrics. */
const MAX_ALARM_METRICS = 10;

/**
 * The practice's alarm topic and its alarms. Every alarm fires on a single occurrence in five
 * minutes (one failed publish, one throttled request, one dead letter), because each stands for
 * a person who did not get a notification, a reminder or a note; README "Runbook" says what to do.
 */
export class Alarms extends Construct {
  readonly topic: sns.Topic;
  readonly alarms: cloudwatch.Alarm[] = [];
  private readonly action: SnsAction;

  constructor(
    scope: Construct,
    id: string,
    private readonly props: AlarmsProps,
  ) {
    super(scope, id);
    const key = new kms.Key(this, 'Key', {
      description: 'Encrypts the practice alarm topic',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    denyGrantsExceptForAwsServices(key);
    // CloudWatch publishes alarm state changes into the encrypted topic.
    key.addToResourcePolicy(
      new iam.PolicyStatement({
        principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'],
      }),
    );
    this.topic = new sns.Topic(this, 'Topic', {
      displayName: `Tidewell ${props.slug} alarms`,
      masterKey: key,
      enforceSSL: true,
    });
    for (const email of props.emails) this.topic.addSubscription(new EmailSubscription(email));
    this.action = new SnsAction(this.topic);
  }

  /**
   * Errors and throttles of one Lambda (an endpoint group or a worker) in one alarm: both mean
   * requests a person made were not served, the runbook step starts at the same log group, and the
   * alarm's graph keeps the two lines apart. One alarm a function leaves the stack room for the
   * groups still to come under CloudFormation's resource limit.
   */
  watchFunction(name: string, fn: lambda.IFunction): void {
    const failures = new cloudwatch.MathExpression({
      expression: 'FILL(errors, 0) + FILL(throttles, 0)',
      usingMetrics: {
        errors: fn.metricErrors({ period: PERIOD, statistic: cloudwatch.Stats.SUM }),
        throttles: fn.metricThrottles({ period: PERIOD, statistic: cloudwatch.Stats.SUM }),
      },
      label: `${name} errors + throttles`,
      period: PERIOD,
    });
    this.add(`${name}-failures`, failures, `The ${name} function failed (unhandled error or timeout) or was throttled (requests refused).`);
  }

  /**
   * Errors of every API group function in one alarm, and their throttles in another: the alarm
   * reads one metric per group (labelled with its name), so opening it shows which group failed, and two alarms instead of
   * one a group leave the stack room under its resource budget. A metric-math alarm reads at most
   * ten metrics, so more groups than that is a synth error, not a silently unwatched group.
   */
  watchApiFunctions(functions: ReadonlyMap<string, lambda.IFunction>): void {
    if (functions.size > MAX_ALARM_METRICS)
      throw new Error(`An alarm reads at most ${MAX_ALARM_METRICS} metrics; the API has ${functions.size} group functions.`);
    const sum = (what: 'errors' | 'throttles') => {
      const usingMetrics: Record<string, cloudwatch.IMetric> = {};
      for (const [name, fn] of functions) {
        const id = name.replace(/[^a-zA-Z0-9]/g, '_');
        usingMetrics[id] =
          what === 'errors'
            ? fn.metricErrors({ period: PERIOD, statistic: cloudwatch.Stats.SUM, label: name })
            : fn.metricThrottles({ period: PERIOD, statistic: cloudwatch.Stats.SUM, label: name });
      }
      return new cloudwatch.MathExpression({
        expression: Object.keys(usingMetrics)
          .map((id) => `FILL(${id}, 0)`)
          .join(' + '),
        usingMetrics,
        label: `API group ${what}`,
        period: PERIOD,
      });
    };
    this.add(
      'api-errors',
      sum('errors'),
      'An API group function failed (unhandled error or timeout); the alarm reads one metric per group, labelled with its name.',
    );
    this.add('api-throttles', sum('throttles'), 'Lambda refused API requests (throttled); the alarm reads one metric per group, labelled with its name.');
  }

  /** Any message in a dead-letter queue. */
  watchDeadLetters(name: string, queue: sqs.IQueue, what: string): void {
    this.add(
      `${name}-dead-letters`,
      queue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: cloudwatch.Stats.MAXIMUM }),
      `${what} failed after every retry and is in the dead-letter queue.`,
    );
  }

  /** Failed and timed-out executions of a state machine, in one alarm (both leave a run unfinished). */
  watchStateMachine(name: string, machine: sfn.IStateMachine): void {
    const unfinished = new cloudwatch.MathExpression({
      expression: 'FILL(failed, 0) + FILL(timedOut, 0)',
      usingMetrics: {
        failed: machine.metricFailed({ period: PERIOD, statistic: cloudwatch.Stats.SUM }),
        timedOut: machine.metricTimedOut({ period: PERIOD, statistic: cloudwatch.Stats.SUM }),
      },
      label: `${name} failed + timed out`,
      period: PERIOD,
    });
    this.add(`${name}-failed`, unfinished, `A ${name} execution failed or timed out.`);
  }

  private add(name: string, metric: cloudwatch.IMetric, description: string): void {
    const alarm = new cloudwatch.Alarm(this, name, {
      alarmName: `tidewell-${this.props.slug}-${name}`,
      alarmDescription: `${description} See the README runbook: ${name}.`,
      metric,
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(this.action);
    alarm.addOkAction(this.action);
    this.alarms.push(alarm);
  }
}
