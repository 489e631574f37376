import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { NagSuppressions } from 'cdk-nag';
import { AUDIT_ARCHIVE_BATCHING_WINDOW_SECONDS, AUDIT_ARCHIVE_STREAM } from '../../functions/workers/audit-archive/subscription.js';
import { denyGrantsExceptForAwsServices } from './guard.js';
import { tidewellFunction } from './lambda-function.js';
import type { Logging } from './logging.js';

/** HIPAA keeps documentation six years (45 CFR 164.316(b)(2)(i)); compliance mode: nobody, root included, can shorten it. */
export const AUDIT_ARCHIVE_RETENTION_YEARS = 6;

/**
 * The audit archive (data stack): a bucket with Object Lock in compliance mode, six years by
 * default on every object version, versioned, under its own KMS key. No one can delete or
 * overwrite an archived batch before its retention date, and the bucket outlives every release.
 */
export class AuditArchiveStore extends Construct {
  readonly bucket: s3.Bucket;
  readonly key: kms.Key;

  constructor(scope: Construct, id: string, props: { accessLogs: s3.IBucket }) {
    super(scope, id);
    this.key = new kms.Key(this, 'Key', {
      description: 'Encrypts the audit archive (Object Lock, compliance mode)',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    denyGrantsExceptForAwsServices(this.key);
    // Destroying the key would make the locked archive unreadable, a way around the lock: the key
    // policy refuses it to everyone, so it takes a deliberate, CloudTrail-recorded policy change first.
    this.key.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'DenyKeyDestruction',
        effect: iam.Effect.DENY,
        principals: [new iam.AnyPrincipal()],
        actions: ['kms:ScheduleKeyDeletion', 'kms:DisableKey'],
        resources: ['*'],
      }),
    );
    this.bucket = new s3.Bucket(this, 'Bucket', {
      encryption: s3.BucketEncryption.KMS,
      encryptionKey: this.key,
      bucketKeyEnabled: true,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      versioned: true,
      objectLockEnabled: true,
      objectLockDefaultRetention: s3.ObjectLockRetention.compliance(Duration.days(AUDIT_ARCHIVE_RETENTION_YEARS * 365)),
      serverAccessLogsBucket: props.accessLogs,
      serverAccessLogsPrefix: 'audit-archive/',
      // Always retained: a practice deleted for good still owes its auditors six years of trail.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    (this.bucket.node.defaultChild as s3.CfnBucket).notificationConfiguration = { eventBridgeConfiguration: { eventBridgeEnabled: true } };
    NagSuppressions.addResourceSuppressions(this.bucket, [
      {
        id: 'HIPAA.Security-S3BucketReplicationEnabled',
        reason:
          'The archive is locked in compliance mode in the practice region; replication would copy PHI to a second region the BAA scope does not cover yet (as for the files bucket).',
      },
    ]);
  }
}

export interface AuditArchiverProps {
  slug: string;
  practiceId: string;
  table: dynamodb.ITable;
  bucket: s3.IBucket;
  key: kms.IKey;
  logging: Logging;
}

/**
 * The archiver (app stack): reads new audit entries from the table's stream and appends them to
 * the archive. Its rights on the bucket are PutObject and GetObject under audit/ and nothing else
 * (no delete, no retention or legal-hold change, no bypass); on the table, the chain head item only.
 */
export class AuditArchiver extends Construct {
  readonly consumer: NodejsFunction;
  readonly deadLetterQueue: sqs.Queue;

  constructor(scope: Construct, id: string, props: AuditArchiverProps) {
    super(scope, id);
    const subscription = AUDIT_ARCHIVE_STREAM;
    this.consumer = tidewellFunction(this, 'Consumer', {
      entry: subscription.entry,
      logging: props.logging,
      description: `Tidewell audit archiver (${props.slug})`,
      timeoutSeconds: 60,
      environment: { TABLE_NAME: props.table.tableName, PRACTICE_ID: props.practiceId, AUDIT_ARCHIVE_BUCKET: props.bucket.bucketName },
    });
    this.consumer.addToRolePolicy(new iam.PolicyStatement({ actions: ['dynamodb:GetItem', 'dynamodb:PutItem'], resources: [props.table.tableArn] }));
    props.table.encryptionKey?.grantEncryptDecrypt(this.consumer);
    this.consumer.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:PutObject', 's3:GetObject'], resources: [props.bucket.arnForObjects('audit/*')] }));
    this.consumer.addToRolePolicy(new iam.PolicyStatement({ actions: ['kms:GenerateDataKey', 'kms:Decrypt'], resources: [props.key.keyArn] }));
    NagSuppressions.addResourceSuppressions(
      this.consumer.role!,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason:
            'Batch keys are numbered at run time under audit/; the grant is PutObject and GetObject on that prefix of the archive bucket only. The KMS wildcards (GenerateDataKey*, ReEncrypt*) are scoped to the table key.',
          appliesTo: [
            {
              regex:
                '/^Resource::(<.*AuditArchive.*Bucket.*\\.Arn>|[A-Za-z0-9-]+:ExportsOutputFnGetAttAuditArchiveBucket[0-9A-F]+Arn[0-9A-F]+)\\/audit\\/\\*$/g',
            },
            'Action::kms:GenerateDataKey*',
            'Action::kms:ReEncrypt*',
          ],
        },
      ],
      true,
    );

    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetters', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      redriveAllowPolicy: { redrivePermission: sqs.RedrivePermission.ALLOW_ALL },
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    NagSuppressions.addResourceSuppressions(this.deadLetterQueue, [
      { id: 'AwsSolutions-SQS3', reason: 'This queue is itself the on-failure destination of the audit archiver; it has no consumer to fail.' },
    ]);

    this.consumer.addEventSource(
      new DynamoEventSource(props.table, {
        startingPosition: lambda.StartingPosition.TRIM_HORIZON,
        batchSize: subscription.batchSize,
        bisectBatchOnError: subscription.bisectBatchOnError,
        retryAttempts: subscription.retryAttempts,
        maxRecordAge: Duration.seconds(subscription.maxRecordAgeSeconds),
        reportBatchItemFailures: subscription.reportBatchItemFailures,
        // One batch at a time per shard: the chain is appended in stream order.
        parallelizationFactor: 1,
        maxBatchingWindow: Duration.seconds(AUDIT_ARCHIVE_BATCHING_WINDOW_SECONDS),
        filters: subscription.filters.map((pattern) => lambda.FilterCriteria.filter(pattern as Record<string, unknown>)),
        onFailure: new SqsDlq(this.deadLetterQueue),
      }),
    );
  }
}
