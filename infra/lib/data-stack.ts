import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { deployedPartnerOrigins, type PracticeConfig } from '../config/practice-config.js';
import { AccessLogs } from './access-logs.js';
import { AuditArchiveStore } from './audit-archive.js';
import { Auth } from './auth.js';
import { Data } from './data.js';
import { Files } from './files.js';
import { Logging } from './logging.js';
import { Partners } from './partners.js';

export interface PracticeDataStackProps extends StackProps {
  config: PracticeConfig;
}

/**
 * Where the browser may upload to and download from the files bucket with a presigned URL. The
 * app's CloudFront domain is made by the app stack, which this stack must never reference (the
 * data stack deploys first and outlives every app stack), so the rule names CloudFront's domain
 * and the practice's own domain. The presigned URL's signature is what grants access; CORS only
 * decides which pages may read the answer in a browser.
 */
export function filesCorsOrigins(config: Pick<PracticeConfig, 'webDomain'>): string[] {
  return ['https://*.cloudfront.net', ...(config.webDomain ? [`https://${config.webDomain}`] : [])];
}

/**
 * What must outlive any release of a practice: the table (indexes, stream, PITR, backup plan),
 * the files, access-log and audit archive buckets, the user pool with its groups and web client, the KMS keys and
 * the partner secrets. Termination protection is on, and with `retainData` every stateful resource
 * is retained when the stack is deleted. It references nothing of the app stack: the app stack
 * takes these resources by reference and grants itself what it needs on its own side.
 *
 * Construct ids are the ones the single practice stack had, so the logical ids are unchanged;
 * test/infra/stateful-resources.test.ts pins them with every property whose change replaces the resource.
 */
export class PracticeDataStack extends Stack {
  readonly logging: Logging;
  readonly accessLogs: AccessLogs;
  readonly data: Data;
  readonly auth: Auth;
  readonly files: Files;
  readonly partners: Partners;
  readonly auditArchive: AuditArchiveStore;

  constructor(scope: Construct, id: string, props: PracticeDataStackProps) {
    super(scope, id, { ...props, terminationProtection: true });
    const { config } = props;
    const retainData = config.retainData;

    this.logging = new Logging(this, 'Logging', { retainData });
    this.accessLogs = new AccessLogs(this, 'AccessLogs', { retainData });
    this.data = new Data(this, 'Data', { retainData });
    this.auth = new Auth(this, 'Auth', { retainData, mfa: config.mfa });
    this.files = new Files(this, 'Files', { retainData, webOrigins: filesCorsOrigins(config), accessLogs: this.accessLogs.bucket });
    this.partners = new Partners(this, 'Partners', {
      slug: config.slug,
      key: this.data.key,
      origins: deployedPartnerOrigins(config),
      membershipOrigin: config.membershipOrigin === 'local' ? undefined : config.membershipOrigin,
    });
    // Every audit entry, hash-chained, under Object Lock (compliance mode, six years).
    this.auditArchive = new AuditArchiveStore(this, 'AuditArchive', { accessLogs: this.accessLogs.bucket });
    // What operators and `npm run practice` (first admin, status, restore runbook) read by name.
    new CfnOutput(this, 'tableName', { value: this.data.table.tableName });
    new CfnOutput(this, 'userPoolId', { value: this.auth.userPool.userPoolId });
    new CfnOutput(this, 'filesBucket', { value: this.files.bucket.bucketName });
    // `npm run practice -- audit-verify` reads the archive from here.
    new CfnOutput(this, 'auditArchiveBucket', { value: this.auditArchive.bucket.bucketName });
  }

  /**
   * Exports the app stack may import, declared here rather than only where the app happens to use
   * them. CloudFormation refuses to drop an export another stack imports; an export CDK made only
   * because the app used it would vanish from this stack when the app stops using it, and the data
   * stack (deployed first) would then fail on a live export. Pinned exports stay put across releases.
   */
  pinExports(): void {
    const { data, files, auth, logging, accessLogs, partners, auditArchive } = this;
    for (const value of [
      data.table.tableName,
      data.table.tableArn,
      data.table.tableStreamArn!,
      data.key.keyArn,
      files.bucket.bucketName,
      files.bucket.bucketArn,
      files.key.keyArn,
      accessLogs.bucket.bucketName,
      accessLogs.bucket.bucketArn,
      accessLogs.bucket.bucketRegionalDomainName,
      auth.userPool.userPoolId,
      auth.userPool.userPoolArn,
      auth.userPool.userPoolProviderName,
      auth.client.userPoolClientId,
      logging.key.keyArn,
      partners.secret.secretArn,
      auditArchive.bucket.bucketName,
      auditArchive.bucket.bucketArn,
      auditArchive.key.keyArn,
    ]) {
      this.exportValue(value);
    }
  }
}
