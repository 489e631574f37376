import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { NagSuppressions } from 'cdk-nag';
import { suppressGuardRules } from './guard.js';

/** The bucket that receives S3 server access logs and CloudFront standard logs. */
export class AccessLogs extends Construct {
  readonly bucket: s3.Bucket;

  constructor(scope: Construct, id: string, props: { retainData: boolean }) {
    super(scope, id);
    this.bucket = new s3.Bucket(this, 'Bucket', {
      // S3 server access logging can only deliver to SSE-S3 buckets, not SSE-KMS.
      encryption: s3.BucketEncryption.S3_MANAGED,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      versioned: true,
      // CloudFront standard logging writes with an ACL, so ACLs stay enabled (owner preferred).
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(6 * 366), noncurrentVersionExpiration: Duration.days(30) }],
      removalPolicy: props.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
      autoDeleteObjects: false,
    });
    suppressGuardRules(this.bucket, [
      { rule: 's3_bucket_logging_enabled_check', reason: 'CT.S3.PR.2: this is the access-log destination; logging it into itself would loop.' },
      {
        rule: 's3_bucket_default_encryption_kms_check',
        reason: 'CT.S3.PR.10: S3 server access logging delivers only to buckets encrypted with SSE-S3; SSE-KMS destinations are rejected.',
      },
      {
        rule: 's3_bucket_acl_prohibited_check',
        reason:
          'CT.S3.PR.5: CloudFront standard logging writes its files with an ACL (awslogsdelivery), so ACLs stay enabled here with the bucket owner preferred; no user access is granted by ACL.',
      },
      {
        rule: 's3_event_notifications_enabled_check',
        reason:
          'CT.S3.PR.4: log files arrive every few minutes from S3 and CloudFront and nothing acts on their arrival; they are read when an incident is investigated.',
      },
      {
        rule: 's3_bucket_object_lock_enabled_check',
        reason:
          'CT.S3.PR.9: the logs are versioned (a deleted or overwritten log file stays recoverable for 30 days) and only the log delivery services write here; Object Lock cannot be turned off again and is left to the practice records policy.',
      },
    ]);
    NagSuppressions.addResourceSuppressions(this.bucket, [
      { id: 'AwsSolutions-S1', reason: 'This is the access-log destination; logging it into itself would loop.' },
      { id: 'HIPAA.Security-S3BucketLoggingEnabled', reason: 'This is the access-log destination; logging it into itself would loop.' },
      {
        id: 'HIPAA.Security-S3DefaultEncryptionKMS',
        reason: 'S3 server access logging delivers only to buckets encrypted with SSE-S3; SSE-KMS destinations are rejected.',
      },
      {
        id: 'HIPAA.Security-S3BucketReplicationEnabled',
        reason: 'Access logs are versioned and retained six years in-region; cross-region replication of logs is not required by the practice risk assessment.',
      },
    ]);
  }
}
