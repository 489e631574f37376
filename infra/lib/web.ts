import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { NagSuppressions } from 'cdk-nag';
import { suppressGuardRules } from './guard.js';
import { INLINE_POLICY_REASON } from './nag.js';
import { contentSecurityPolicy, DEPLOYED_CSP_ORIGINS, FRAME_OPTIONS, HSTS, REFERRER_POLICY } from './web-security-headers.js';

/** What the web app reads from /config.json: the stack outputs, and `local: false`. */
export interface WebConfig {
  apiUrl: string;
  webUrl: string;
  graphqlUrl: string;
  userPoolId: string;
  userPoolClientId: string;
  cognitoEndpoint: string;
  region: string;
  filesBucket: string;
  /** Where the Copilot's reply streams from (the ai function's URL; locally its stand-in). */
  copilotStreamUrl: string;
  /** The Copilot's model as its window names it; '' when the practice configured none, so the window says so before anyone types. */
  copilotModel?: string;
}

/** The pages that must never be served stale: they name the hashed assets and the stack's endpoints. */
const ENTRY_FILES = ['index.html', 'config.json'];

export interface WebProps {
  retainData: boolean;
  accessLogs: s3.IBucket;
  /** Partner apps' origins: the note windows may frame these and nothing else (CSP frame-src). */
  partnerOrigins?: readonly string[];
}

/** The single-page app: a private bucket behind CloudFront (origin access control). */
export class Web extends Construct {
  readonly bucket: s3.Bucket;
  readonly distribution: cloudfront.Distribution;
  readonly url: string;

  constructor(scope: Construct, id: string, props: WebProps) {
    super(scope, id);
    this.bucket = new s3.Bucket(this, 'Bucket', {
      encryption: s3.BucketEncryption.S3_MANAGED,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      versioned: true,
      serverAccessLogsBucket: props.accessLogs,
      serverAccessLogsPrefix: 'web/',
      lifecycleRules: [{ noncurrentVersionExpiration: Duration.days(30) }],
      removalPolicy: props.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    const importedLogs = Stack.of(props.accessLogs) !== Stack.of(this);
    const importedLogsReason = (control: string, property: string) =>
      `${control}: ${property} is the data stack's access-log bucket, imported with Fn::ImportValue, which guard cannot resolve; test/infra/practice-stacks.test.ts checks it is set.`;
    if (importedLogs)
      suppressGuardRules(this.bucket, [
        { rule: 's3_bucket_logging_enabled_check', reason: importedLogsReason('CT.S3.PR.2', 'LoggingConfiguration.DestinationBucketName') },
      ]);
    suppressGuardRules(this.bucket, [
      {
        rule: 's3_bucket_default_encryption_kms_check',
        reason:
          'CT.S3.PR.10: holds only the public build of the web app (no PHI); SSE-S3 lets CloudFront read through origin access control without a KMS key and key grant.',
      },
      { rule: 's3_event_notifications_enabled_check', reason: 'CT.S3.PR.4: only cdk deploy writes here (the app build); nothing acts on those writes.' },
      {
        rule: 's3_bucket_object_lock_enabled_check',
        reason: 'CT.S3.PR.9: build files are reproducible from the repository and redeployed by cdk deploy; locking them would only block replacing them.',
      },
    ]);
    NagSuppressions.addResourceSuppressions(this.bucket, [
      {
        id: 'HIPAA.Security-S3DefaultEncryptionKMS',
        reason: 'Holds only the public build of the web app (no PHI); SSE-S3 lets CloudFront read through origin access control without a KMS key grant.',
      },
      {
        id: 'HIPAA.Security-S3BucketReplicationEnabled',
        reason: 'Build artifacts are reproducible from the repository and redeployed by cdk deploy; replication adds nothing.',
      },
    ]);

    // The same set the local runtime sends (web-security-headers.ts).
    const headers = new cloudfront.ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'Tidewell web security headers',
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: contentSecurityPolicy({ ...DEPLOYED_CSP_ORIGINS, frame: props.partnerOrigins ?? [] }), override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: FRAME_OPTIONS as cloudfront.HeadersFrameOption, override: true },
        referrerPolicy: { referrerPolicy: REFERRER_POLICY as cloudfront.HeadersReferrerPolicy, override: true },
        strictTransportSecurity: {
          accessControlMaxAge: Duration.seconds(HSTS.maxAgeSeconds),
          includeSubdomains: HSTS.includeSubdomains,
          preload: HSTS.preload,
          override: true,
        },
        xssProtection: { protection: true, modeBlock: true, override: true },
      },
    });

    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: `Tidewell web (${Stack.of(this).stackName})`,
      defaultRootObject: 'index.html',
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: headers,
        compress: true,
      },
      // SPA fallback: the bucket answers 403 for a missing key under OAC; both serve the app shell.
      errorResponses: [403, 404].map((httpStatus) => ({
        httpStatus,
        responseHttpStatus: 200,
        responsePagePath: '/index.html',
        ttl: Duration.seconds(0),
      })),
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
      enableLogging: true,
      logBucket: props.accessLogs,
      logFilePrefix: 'cloudfront/',
    });
    this.url = `https://${this.distribution.distributionDomainName}`;
    const noCustomDomain =
      'no custom domain yet: the default *.cloudfront.net certificate is served by CloudFront (SNI and its own TLS policy) and cannot be replaced or given a security policy. Attaching the practice domain (webDomain) must add its ACM certificate with sslSupportMethod sni-only and TLSv1.2_2021.';
    if (importedLogs)
      suppressGuardRules(this.distribution, [
        { rule: 'cloudfront_access_logs_enabled_check', reason: importedLogsReason('CT.CLOUDFRONT.PR.5', 'DistributionConfig.Logging.Bucket') },
      ]);
    suppressGuardRules(this.distribution, [
      { rule: 'cloudfront_custom_ssl_certificate_check', reason: `CT.CLOUDFRONT.PR.6: ${noCustomDomain}` },
      { rule: 'cloudfront_sni_enabled_check', reason: `CT.CLOUDFRONT.PR.7: ${noCustomDomain}` },
      { rule: 'cloudfront_security_policy_check', reason: `CT.CLOUDFRONT.PR.9: ${noCustomDomain}` },
      {
        rule: 'cloudfront_origin_failover_enabled_check',
        reason:
          'CT.CLOUDFRONT.PR.4: the one origin is an S3 bucket of static build files in the practice region; a failover origin needs a second, replicated bucket (three more stack resources and a second region) to cover an S3 regional outage, during which the API in that region is down as well.',
      },
    ]);
    NagSuppressions.addResourceSuppressions(this.distribution, [
      {
        id: 'AwsSolutions-CFR1',
        reason:
          'Clinicians sign in while travelling; access is controlled by Cognito on every API call, not by geography. The site serves only the static app.',
      },
      {
        id: 'AwsSolutions-CFR2',
        reason:
          'The distribution serves only static, public build files; every data request goes to the Cognito-authorised API, which is throttled at its stage.',
      },
      {
        id: 'AwsSolutions-CFR4',
        reason:
          'No custom domain yet: the default *.cloudfront.net certificate cannot pin a minimum TLS version (CloudFront ignores the setting without a certificate). Attaching the practice domain certificate must set TLSv1.2_2021.',
      },
    ]);
  }

  /**
   * Uploads the built app and the stack's config.json. Hashed assets are immutable; index.html
   * and config.json are revalidated on every load so a deploy takes effect at once.
   */
  publish(webDist: string, config: WebConfig): void {
    const assets = new s3deploy.BucketDeployment(this, 'Assets', {
      destinationBucket: this.bucket,
      sources: [s3deploy.Source.asset(webDist, { exclude: ENTRY_FILES })],
      prune: false,
      cacheControl: [s3deploy.CacheControl.setPublic(), s3deploy.CacheControl.maxAge(Duration.days(365)), s3deploy.CacheControl.immutable()],
      memoryLimit: 512,
    });
    const entry = new s3deploy.BucketDeployment(this, 'Entry', {
      destinationBucket: this.bucket,
      sources: [
        s3deploy.Source.asset(webDist, { exclude: ['*', ...ENTRY_FILES.filter((f) => f !== 'config.json').map((f) => `!${f}`)] }),
        s3deploy.Source.jsonData('config.json', { ...config, local: false }),
      ],
      prune: false,
      cacheControl: [s3deploy.CacheControl.noCache()],
      distribution: this.distribution,
      distributionPaths: ['/*'],
      memoryLimit: 512,
    });
    // index.html must never point at assets that are not uploaded yet.
    entry.node.addDependency(assets);
    suppressBucketDeploymentHandler(Stack.of(this));
  }
}

/** The BucketDeployment handler is a CDK-provided singleton at stack level. */
function suppressBucketDeploymentHandler(stack: Stack): void {
  for (const child of stack.node.children) {
    if (!child.node.id.startsWith('Custom::CDKBucketDeployment')) continue;
    NagSuppressions.addResourceSuppressions(
      child,
      [
        { id: 'AwsSolutions-IAM4', reason: 'CDK BucketDeployment handler: AWSLambdaBasicExecutionRole only lets it write its own logs.' },
        {
          id: 'AwsSolutions-IAM5',
          reason:
            'CDK BucketDeployment handler: copies from the CDK asset bucket to the web bucket (object-level wildcards on those two buckets) and invalidates the distribution.',
        },
        { id: 'AwsSolutions-L1', reason: 'The runtime of the CDK BucketDeployment handler is chosen by aws-cdk-lib and updated with it.' },
        { id: 'HIPAA.Security-LambdaDLQ', reason: 'Invoked synchronously by CloudFormation during deploys; failures fail the deploy.' },
        { id: 'HIPAA.Security-LambdaInsideVPC', reason: 'Deploy-time helper that copies public build files between S3 buckets; no VPC resources involved.' },
        { id: 'HIPAA.Security-LambdaConcurrency', reason: 'Runs only during deploys, one invocation per deployment.' },
        { id: 'HIPAA.Security-IAMNoInlinePolicy', reason: INLINE_POLICY_REASON },
      ],
      true,
    );
    suppressGuardRules(child, [
      {
        rule: 'lambda_inside_vpc_check',
        reason: 'CT.LAMBDA.PR.3: deploy-time helper of CDK that copies public build files between S3 buckets; it reaches no VPC resource.',
      },
    ]);
  }
}
