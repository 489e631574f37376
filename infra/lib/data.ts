import { RemovalPolicy } from 'aws-cdk-lib';
import * as backup from 'aws-cdk-lib/aws-backup';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as kms from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import { NagSuppressions } from 'cdk-nag';
import { INDEXES, TABLE_ATTRIBUTES, TABLE_PARTITION_KEY, TABLE_SORT_KEY, TTL_ATTRIBUTE } from '../../functions/lib/table/definition.js';
import { denyGrantsExceptForAwsServices } from './guard.js';

function attribute(name: string): dynamodb.Attribute {
  const def = TABLE_ATTRIBUTES.find((a) => a.name === name);
  if (!def) throw new Error(`Table attribute ${name} is not in the table definition`);
  return { name, type: def.type === 'N' ? dynamodb.AttributeType.NUMBER : dynamodb.AttributeType.STRING };
}

/** The practice's single table, built from the same definition module the local runtime uses. */
export class Data extends Construct {
  readonly table: dynamodb.Table;
  readonly key: kms.Key;

  constructor(scope: Construct, id: string, props: { retainData: boolean }) {
    super(scope, id);
    const removalPolicy = props.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

    this.key = new kms.Key(this, 'Key', {
      description: 'Encrypts the practice table, its stream and its backups',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    denyGrantsExceptForAwsServices(this.key);

    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: attribute(TABLE_PARTITION_KEY),
      sortKey: attribute(TABLE_SORT_KEY),
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      encryption: dynamodb.TableEncryption.CUSTOMER_MANAGED,
      encryptionKey: this.key,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: props.retainData,
      timeToLiveAttribute: TTL_ATTRIBUTE,
      // The notification publisher (notification-stream.ts, functions/workers/notification-stream) reads it.
      stream: dynamodb.StreamViewType.NEW_AND_OLD_IMAGES,
      removalPolicy,
    });
    for (const index of Object.values(INDEXES)) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: attribute(index.partitionKey),
        sortKey: attribute(index.sortKey),
        projectionType: dynamodb.ProjectionType.ALL,
      });
    }

    // PITR covers 35 days; the backup plan keeps restorable copies for years, in a vault under the same key.
    const vault = new backup.BackupVault(this, 'Vault', { encryptionKey: this.key, removalPolicy: RemovalPolicy.RETAIN });
    const plan = backup.BackupPlan.dailyWeeklyMonthly7YearRetention(this, 'Backup', vault);
    const selection = plan.addSelection('Table', { resources: [backup.BackupResource.fromDynamoDbTable(this.table)] });
    NagSuppressions.addResourceSuppressions(
      selection,
      [
        {
          id: 'AwsSolutions-IAM4',
          reason:
            'AWSBackupServiceRolePolicyForBackup is the AWS-maintained policy AWS Backup needs to snapshot the table; it follows new backup features without drift.',
          appliesTo: ['Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSBackupServiceRolePolicyForBackup'],
        },
      ],
      true,
    );
  }
}
