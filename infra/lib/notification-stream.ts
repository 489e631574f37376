import { Duration } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { NagSuppressions } from 'cdk-nag';
import { NOTIFICATION_STREAM } from '../../functions/workers/notification-stream/subscription.js';
import { tidewellFunction } from './lambda-function.js';
import type { Logging } from './logging.js';

export interface NotificationStreamProps {
  slug: string;
  practiceId: string;
  table: dynamodb.ITable;
  logging: Logging;
}

/**
 * The notification publisher (workers group): reads the table's stream through an event source
 * mapping built from the same subscription the local runtime uses (filter, batch, bisect,
 * retries), and sends what still fails to an SQS dead-letter queue.
 */
export class NotificationStream extends Construct {
  readonly consumer: NodejsFunction;
  readonly deadLetterQueue: sqs.Queue;

  constructor(scope: Construct, id: string, props: NotificationStreamProps) {
    super(scope, id);
    const subscription = NOTIFICATION_STREAM;
    this.consumer = tidewellFunction(this, 'Consumer', {
      entry: subscription.entry,
      logging: props.logging,
      description: `Tidewell notification publisher (${props.slug})`,
      timeoutSeconds: 60,
      environment: { TABLE_NAME: props.table.tableName, PRACTICE_ID: props.practiceId },
    });
    // Its only table access: reading and writing the published-version markers (NOTIFPUB#), a batch's at once.
    this.consumer.addToRolePolicy(
      new iam.PolicyStatement({ actions: ['dynamodb:BatchGetItem', 'dynamodb:BatchWriteItem'], resources: [props.table.tableArn] }),
    );
    props.table.encryptionKey?.grantEncryptDecrypt(this.consumer);
    NagSuppressions.addResourceSuppressions(
      this.consumer.role!,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason: 'The KMS wildcard actions (GenerateDataKey*, ReEncrypt*) are scoped to the table key; the stream read grant covers this table stream only.',
          appliesTo: ['Action::kms:GenerateDataKey*', 'Action::kms:ReEncrypt*'],
        },
      ],
      true,
    );

    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetters', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      // Declares the queue a dead-letter queue (CT.SQS.PR.1); allowAll is also what SQS assumes without it.
      redriveAllowPolicy: { redrivePermission: sqs.RedrivePermission.ALLOW_ALL },
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    NagSuppressions.addResourceSuppressions(this.deadLetterQueue, [
      { id: 'AwsSolutions-SQS3', reason: 'This queue is itself the on-failure destination of the notification stream; it has no consumer to fail.' },
    ]);

    this.consumer.addEventSource(
      new DynamoEventSource(props.table, {
        startingPosition: lambda.StartingPosition.LATEST,
        batchSize: subscription.batchSize,
        bisectBatchOnError: subscription.bisectBatchOnError,
        retryAttempts: subscription.retryAttempts,
        maxRecordAge: Duration.seconds(subscription.maxRecordAgeSeconds),
        reportBatchItemFailures: subscription.reportBatchItemFailures,
        filters: subscription.filters.map((pattern) => lambda.FilterCriteria.filter(pattern as Record<string, unknown>)),
        onFailure: new SqsDlq(this.deadLetterQueue),
      }),
    );
  }
}
