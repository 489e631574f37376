import { RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

export interface PartnersProps {
  slug: string;
  key: kms.IKey;
  /** The origins the web's CSP lets frame; the practice group refuses a partner app from any other. */
  origins: readonly string[];
  /** The core product's origin of the membership windows, one of `origins` (practices/<slug>.json membershipOrigin). */
  membershipOrigin?: string | undefined;
}

/**
 * Partner apps' signing secrets: ONE secret, `tidewell-<slug>-partner-secrets`, a JSON object
 * `{ "<partnerId>": "<secret>" }` the operator fills in the console (README "Partner apps"), so
 * adding a partner adds no stack resource.
 */
export class Partners extends Construct {
  readonly secret: secretsmanager.Secret;

  constructor(
    scope: Construct,
    id: string,
    private readonly props: PartnersProps,
  ) {
    super(scope, id);
    this.secret = new secretsmanager.Secret(this, 'Secrets', {
      secretName: `tidewell-${props.slug}-partner-secrets`,
      description: 'Partner delivery signing secrets: {"<partnerId>": "<secret of at least 16 characters>"}',
      encryptionKey: props.key,
      // Starts as an object with one placeholder entry no partner id can take (ids are lowercase letters, digits and dashes).
      generateSecretString: { secretStringTemplate: '{}', generateStringKey: '_placeholder', excludePunctuation: true },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    NagSuppressions.addResourceSuppressions(this.secret, [
      {
        id: 'AwsSolutions-SMG4',
        reason: 'Each value is a secret shared with an outside partner; it is rotated with that partner by hand, not by a rotation Lambda.',
      },
      {
        id: 'HIPAA.Security-SecretsManagerRotationEnabled',
        reason: 'Each value is a secret shared with an outside partner; it is rotated with that partner by hand, not by a rotation Lambda.',
      },
    ]);
  }

  /**
   * Read on the secret and decrypt through Secrets Manager, both on the function's own role. The
   * secret's grantRead would also write the role into the key's policy; the key lives in the data
   * stack and the role in the app stack, and the data stack must never reference the app's.
   */
  grantRead(fn: NodejsFunction): void {
    fn.addToRolePolicy(
      new iam.PolicyStatement({ actions: ['secretsmanager:GetSecretValue', 'secretsmanager:DescribeSecret'], resources: [this.secret.secretArn] }),
    );
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['kms:Decrypt'],
        resources: [this.props.key.keyArn],
        conditions: { StringEquals: { 'kms:ViaService': `secretsmanager.${Stack.of(this).region}.amazonaws.com` } },
      }),
    );
    fn.addEnvironment('PARTNER_SECRETS_ARN', this.secret.secretArn);
  }

  passOrigins(fn: NodejsFunction): void {
    fn.addEnvironment('PARTNER_ORIGINS', this.props.origins.join(','));
    if (this.props.membershipOrigin) fn.addEnvironment('MEMBERSHIP_ORIGIN', this.props.membershipOrigin);
  }
}
