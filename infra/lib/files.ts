import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as kms from 'aws-cdk-lib/aws-kms';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { NagSuppressions } from 'cdk-nag';
import { denyGrantsExceptForAwsServices, suppressGuardRules } from './guard.js';

export interface FilesProps {
  retainData: boolean;
  /** Origins the browser uploads from and downloads to with presigned URLs. */
  webOrigins: string[];
  accessLogs: s3.IBucket;
}

/**
 * The bucket's objects as cdk-nag prints a grant's resource: `<FilesBucket….Arn>/*` in the same
 * stack, or the data stack's export (`Tidewell-<slug>-data:ExportsOutputFnGetAttFilesBucket…Arn…/*`) in the app stack.
 */
const FILES_OBJECTS = { regex: '/^Resource::(<.*Files.*Bucket.*\\.Arn>|[A-Za-z0-9-]+:ExportsOutputFnGetAttFilesBucket[0-9A-F]+Arn[0-9A-F]+)\\/\\*$/g' };

/** Days before an old version of a file moves to Glacier Instant Retrieval, and before it expires. */
export const NONCURRENT_TRANSITION_DAYS = 30;
export const NONCURRENT_EXPIRATION_DAYS = 6 * 365;

/** Patient files and recordings: private, KMS-encrypted, versioned, reachable only over TLS. */
export class Files extends Construct {
  readonly bucket: s3.Bucket;
  readonly key: kms.Key;

  constructor(scope: Construct, id: string, props: FilesProps) {
    super(scope, id);
    this.key = new kms.Key(this, 'Key', {
      description: 'Encrypts patient files and recordings',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    denyGrantsExceptForAwsServices(this.key);
    this.bucket = new s3.Bucket(this, 'Bucket', {
      encryption: s3.BucketEncryption.KMS,
      encryptionKey: this.key,
      bucketKeyEnabled: true,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      // Versions keep the earlier bytes of anything deleted or replaced; old versions move to a
      // cheaper class after 30 days and expire after six years (HIPAA's documentation retention).
      versioned: true,
      lifecycleRules: [
        {
          id: 'NoncurrentVersions',
          noncurrentVersionTransitions: [
            { storageClass: s3.StorageClass.GLACIER_INSTANT_RETRIEVAL, transitionAfter: Duration.days(NONCURRENT_TRANSITION_DAYS) },
          ],
          noncurrentVersionExpiration: Duration.days(NONCURRENT_EXPIRATION_DAYS),
          abortIncompleteMultipartUploadAfter: Duration.days(7),
        },
      ],
      serverAccessLogsBucket: props.accessLogs,
      serverAccessLogsPrefix: 'files/',
      cors: [
        {
          allowedOrigins: props.webOrigins,
          allowedMethods: [s3.HttpMethods.PUT, s3.HttpMethods.GET, s3.HttpMethods.HEAD],
          allowedHeaders: ['*'],
          exposedHeaders: ['ETag'],
          maxAge: 3000,
        },
      ],
      removalPolicy: props.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    // Every upload, overwrite and deletion of a patient file reaches the account's default event
    // bus (free for S3 events), where the practice's security tooling can watch it without paying
    // for CloudTrail data events. Set on the bucket itself: CDK's eventBridgeEnabled adds a custom
    // resource and its function (four stack resources) for the same setting.
    (this.bucket.node.defaultChild as s3.CfnBucket).notificationConfiguration = { eventBridgeConfiguration: { eventBridgeEnabled: true } };
    suppressGuardRules(this.bucket, [
      {
        rule: 's3_bucket_object_lock_enabled_check',
        reason:
          'CT.S3.PR.9: versioning with the six-year noncurrent-version rule already keeps every earlier copy of a patient file. Object Lock can never be turned off once on, and its retention would keep a file the practice must delete (one filed under the wrong patient); a legal hold is a records-policy decision for the practice, not a default.',
      },
    ]);
    NagSuppressions.addResourceSuppressions(this.bucket, [
      {
        id: 'HIPAA.Security-S3BucketReplicationEnabled',
        reason:
          'Files are versioned and KMS-encrypted in one region; the practice stack is single-region by design and replication would copy PHI to a second region the BAA scope does not cover yet.',
      },
    ]);
  }

  /** Object read only (e.g. a scheduled text's attachments, checked before they are sent). */
  grantRead(fn: NodejsFunction): void {
    this.bucket.grantRead(fn);
    NagSuppressions.addResourceSuppressions(
      fn.role!,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason: 'Object keys are created per upload at run time; the read grant covers objects of the files bucket and its KMS key only.',
          appliesTo: [FILES_OBJECTS, 'Action::s3:GetBucket*', 'Action::s3:GetObject*', 'Action::s3:List*'],
        },
      ],
      true,
    );
  }

  /** Presigned uploads and downloads are signed by the group's role, so it needs object read/write here. */
  grantReadWrite(fn: NodejsFunction): void {
    this.bucket.grantReadWrite(fn);
    NagSuppressions.addResourceSuppressions(
      fn.role!,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason: 'Object keys are created per upload at run time; the grant covers objects of the files bucket and its KMS key only.',
          appliesTo: [
            FILES_OBJECTS,
            'Action::s3:Abort*',
            'Action::s3:DeleteObject*',
            'Action::s3:GetBucket*',
            'Action::s3:GetObject*',
            'Action::s3:List*',
            'Action::kms:GenerateDataKey*',
            'Action::kms:ReEncrypt*',
          ],
        },
      ],
      true,
    );
  }
}
