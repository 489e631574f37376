import { Duration, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as smsvoice from 'aws-cdk-lib/aws-smsvoice';
import * as sns from 'aws-cdk-lib/aws-sns';
import { LambdaSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { NagSuppressions } from 'cdk-nag';
import type { PracticeSms } from '../config/practice-config.js';

export interface SmsProps {
  slug: string;
  /** The worker Lambda that consumes the topic (the schedule target: it runs the async jobs). */
  worker: NodejsFunction;
  /** Where an event the worker still fails after Lambda's retries goes. */
  deadLetterQueue: sqs.IQueue;
  /** A customer managed key the topic is encrypted with (the service cannot use the AWS managed SNS key). */
  key: kms.IKey;
  /** practices/<slug>.json `sms`; without it texts are refused with a clear message. */
  config?: PracticeSms;
}

/**
 * Two-way SMS through AWS End User Messaging SMS: the topic inbound texts (each origination
 * number's two-way channel) and delivery events (the configuration set's event destination)
 * arrive on, the worker Lambda subscribed to it (functions/messaging/sms-topic.ts through the
 * schedule target), failures to the dead-letter queue, and the grants a sender needs. Phone
 * numbers are provisioned outside the stack (docs/deploy.md).
 */
export class Sms extends Construct {
  readonly topic: sns.Topic;
  readonly topicName: string;
  readonly configurationSetName: string;
  private readonly configured: boolean;

  constructor(scope: Construct, id: string, props: SmsProps) {
    super(scope, id);
    const stack = Stack.of(this);
    this.configured = Boolean(props.config);
    this.topicName = `tidewell-${props.slug}-sms`;
    this.configurationSetName = props.config?.configurationSet ?? `tidewell-${props.slug}-sms`;

    props.key.addToResourcePolicy(
      new iam.PolicyStatement({
        principals: [new iam.ServicePrincipal('sms-voice.amazonaws.com')],
        actions: ['kms:GenerateDataKey*', 'kms:Decrypt'],
        resources: ['*'],
        conditions: { StringEquals: { 'aws:SourceAccount': stack.account } },
      }),
    );
    this.topic = new sns.Topic(this, 'Topic', { topicName: this.topicName, masterKey: props.key, enforceSSL: true });
    this.topic.addToResourcePolicy(
      new iam.PolicyStatement({
        principals: [new iam.ServicePrincipal('sms-voice.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: { StringEquals: { 'aws:SourceAccount': stack.account } },
      }),
    );

    if (props.config && !props.config.configurationSet) {
      new smsvoice.CfnConfigurationSet(this, 'ConfigurationSet', {
        configurationSetName: this.configurationSetName,
        eventDestinations: [
          {
            eventDestinationName: 'receipts',
            enabled: true,
            matchingEventTypes: ['TEXT_ALL', 'MEDIA_ALL'],
            snsDestination: { topicArn: this.topic.topicArn },
          },
        ],
      });
    }

    // SNS invokes asynchronously: Lambda retries twice, then the event goes to the queue.
    new lambda.EventInvokeConfig(this, 'WorkerInvoke', {
      function: props.worker,
      retryAttempts: 2,
      maxEventAge: Duration.hours(6),
      onFailure: new SqsDestination(props.deadLetterQueue),
    });
    this.topic.addSubscription(new LambdaSubscription(props.worker));
  }

  /** SendMediaMessage: the service itself reads each attachment from the files bucket (and its key). */
  allowMediaFrom(bucket: s3.IBucket, key: kms.IKey): void {
    if (!this.configured) return;
    const account = Stack.of(this).account;
    const principal = new iam.ServicePrincipal('sms-voice.amazonaws.com');
    bucket.addToResourcePolicy(
      new iam.PolicyStatement({
        principals: [principal],
        actions: ['s3:GetObject'],
        resources: [bucket.arnForObjects('*')],
        conditions: { StringEquals: { 'aws:SourceAccount': account } },
      }),
    );
    key.addToResourcePolicy(
      new iam.PolicyStatement({
        principals: [principal],
        actions: ['kms:Decrypt'],
        resources: ['*'],
        conditions: { StringEquals: { 'aws:SourceAccount': account } },
      }),
    );
  }

  /** Lets a function send texts and media from the practice's numbers; sets the transport it reads. */
  grantSend(fn: NodejsFunction, grantFilesRead?: (fn: NodejsFunction) => void): void {
    const stack = Stack.of(this);
    if (!this.configured) {
      // No numbers configured: a send is refused with a clear message, never attempted.
      fn.addEnvironment('SMS_TRANSPORT', 'none');
      return;
    }
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['sms-voice:SendTextMessage', 'sms-voice:SendMediaMessage'],
        resources: [
          stack.formatArn({ service: 'sms-voice', resource: 'phone-number', resourceName: '*' }),
          stack.formatArn({ service: 'sms-voice', resource: 'configuration-set', resourceName: this.configurationSetName }),
        ],
      }),
    );
    grantFilesRead?.(fn);
    fn.addEnvironment('SMS_TRANSPORT', 'sms-voice');
    fn.addEnvironment('SMS_CONFIGURATION_SET', this.configurationSetName);
    NagSuppressions.addResourceSuppressions(
      fn.role!,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason:
            'The practice numbers are provisioned outside the stack (practices/<slug>.json sms.originationNumbers); sends are limited to this account and region and the practice configuration set.',
          appliesTo: [{ regex: '/^Resource::arn:(<AWS::Partition>|aws[a-z-]*):sms-voice:.*:phone-number\\/\\*$/g' }],
        },
      ],
      true,
    );
  }
}
