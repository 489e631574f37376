import { Validations, type App } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import { CfnGuardValidator } from '@cdklabs/cdk-validator-cfnguard';
import type { IConstruct } from 'constructs';

/**
 * AWS Control Tower's proactive controls, run by cfn-guard over every synthesized template (the
 * binary ships inside the package, so this needs no network). A finding fails the synth unless
 * the construct that owns it acknowledges the rule with a reason; the report, acknowledged
 * findings and their reasons included, is written to cdk.out/validation-report.json.
 */
export const GUARD_PLUGIN_NAME = 'cdk-validator-cfnguard';

export function applyGuard(app: App): void {
  Validations.of(app).addPlugins(new CfnGuardValidator());
}

/** A cfn-guard rule (its rule name, e.g. `sqs_dlq_check`) acknowledged with why it does not apply. */
export interface GuardSuppression {
  /** The rule name the report shows (`ruleName`), with its Control Tower id in the reason's comment. */
  rule: string;
  reason: string;
}

/** A reason short enough to say nothing is no reason: the report is read by a reviewer. */
const MIN_REASON_LENGTH = 40;

/**
 * Acknowledges guard rules on a construct and everything under it, as the cdk-nag suppressions
 * are written: beside the resource, each with its reason. An acknowledgement without a real
 * reason throws, so it cannot silence a finding quietly.
 */
export function suppressGuardRules(scope: IConstruct, suppressions: readonly GuardSuppression[]): void {
  for (const { rule, reason } of suppressions) {
    if (reason.trim().length < MIN_REASON_LENGTH) {
      throw new Error(`The guard rule ${rule} is acknowledged on ${scope.node.path} without a reason a reviewer can check: "${reason}".`);
    }
    Validations.of(scope).acknowledge({ id: `${GUARD_PLUGIN_NAME}::${rule}`, reason });
  }
}

/**
 * CT.KMS.PR.3: only AWS services acting for a resource (DynamoDB, Backup, Logs…) may create grants
 * on a key. A grant made by a person or a role would hand out use of the key outside its policy,
 * where no key-policy review sees it.
 */
export function denyGrantsExceptForAwsServices(key: kms.Key): void {
  key.addToResourcePolicy(
    new iam.PolicyStatement({
      sid: 'DenyGrantsExceptForAwsServices',
      effect: iam.Effect.DENY,
      principals: [new iam.AnyPrincipal()],
      actions: ['kms:CreateGrant'],
      resources: ['*'],
      conditions: { BoolIfExists: { 'kms:GrantIsForAWSResource': 'false', 'aws:PrincipalIsAWSService': 'false' } },
    }),
  );
}
