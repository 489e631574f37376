import { RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { denyGrantsExceptForAwsServices, suppressGuardRules } from './guard.js';

/**
 * HIPAA's documentation rule (45 CFR 164.316(b)(2)) asks for six years; access and audit logs are
 * security records, so every log group of the stack keeps them that long.
 */
export const LOG_RETENTION = logs.RetentionDays.SIX_YEARS;

/** One customer-managed key for every CloudWatch log group of the practice. */
export class Logging extends Construct {
  readonly key: kms.Key;

  constructor(
    scope: Construct,
    id: string,
    private readonly props: { retainData: boolean },
  ) {
    super(scope, id);
    const stack = Stack.of(this);
    this.key = new kms.Key(this, 'Key', {
      description: 'Encrypts the practice log groups',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    denyGrantsExceptForAwsServices(this.key);
    this.key.addToResourcePolicy(
      new iam.PolicyStatement({
        principals: [new iam.ServicePrincipal(`logs.${stack.region}.amazonaws.com`)],
        actions: ['kms:Encrypt*', 'kms:Decrypt*', 'kms:ReEncrypt*', 'kms:GenerateDataKey*', 'kms:Describe*'],
        resources: ['*'],
        conditions: {
          ArnLike: { 'kms:EncryptionContext:aws:logs:arn': `arn:${stack.partition}:logs:${stack.region}:${stack.account}:log-group:*` },
        },
      }),
    );
  }

  logGroup(scope: Construct, id: string, logGroupName?: string): logs.LogGroup {
    const group = new logs.LogGroup(scope, id, {
      logGroupName,
      encryptionKey: this.key,
      retention: LOG_RETENTION,
      removalPolicy: this.props.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    if (Stack.of(scope) !== Stack.of(this)) {
      suppressGuardRules(group, [
        {
          rule: 'cloudwatch_log_group_encrypted_check',
          reason:
            "CT.CLOUDWATCH.PR.3: KmsKeyId is the data stack's log key (customer managed, rotating, the logs service allowed), imported with Fn::ImportValue, which guard cannot resolve; test/infra/practice-stacks.test.ts checks every log group carries it.",
        },
      ]);
    }
    return group;
  }
}
