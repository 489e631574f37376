import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { NagSuppressions } from 'cdk-nag';

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
