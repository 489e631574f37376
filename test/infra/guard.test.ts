import { App, Stack } from 'aws-cdk-lib';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyGuard, suppressGuardRules } from '../../infra/lib/guard.js';
import { synthPracticeStack, templateLookups } from './synth-practice-stack.js';

interface ReportedViolation {
  ruleName: string;
  description: string;
  reason?: string;
  violatingConstructs: { constructPath: string }[];
}
interface ValidationReport {
  pluginReports: { pluginName: string; conclusion: string; violations: ReportedViolation[]; suppressedViolations?: ReportedViolation[] }[];
}

function guardReport(app: App): ValidationReport['pluginReports'][number] | undefined {
  const report = JSON.parse(readFileSync(join(app.synth().directory, 'validation-report.json'), 'utf8')) as ValidationReport;
  return report.pluginReports.find((r) => r.pluginName === 'cdk-validator-cfnguard');
}

/** A queue with no dead-letter queue fails CT.SQS.PR.1: the smallest template the guard refuses. */
function queueApp(suppress?: string): App {
  const app = new App({ builtinCloudFormationValidation: false });
  const stack = new Stack(app, 'GuardProbe');
  const queue = new sqs.Queue(stack, 'Work', { encryption: sqs.QueueEncryption.SQS_MANAGED });
  if (suppress) suppressGuardRules(queue, [{ rule: 'sqs_dlq_check', reason: suppress }]);
  applyGuard(app);
  return app;
}

describe('the Control Tower guard in the synth', () => {
  it('fails the synth on a finding nobody acknowledged, naming the control', () => {
    expect(() => queueApp().synth()).toThrow(/CT\.SQS\.PR\.1/);
  });

  it('passes an acknowledged finding and keeps it, with its reason, in the report', () => {
    const reason = 'The messages are replayed from the table on failure; a dead-letter queue would hold nothing anyone reads.';
    const report = guardReport(queueApp(reason));
    expect(report?.violations ?? []).toEqual([]);
    expect(report?.suppressedViolations).toEqual([expect.objectContaining({ ruleName: 'sqs_dlq_check', reason })]);
  });

  it('refuses an acknowledgement without a reason a reviewer can check', () => {
    expect(() => queueApp('not needed')).toThrow(/without a reason/);
  });

  // The demo stack with the guard runs in `npm run synth` (CI), where a finding fails the build;
  // cfn-guard over the whole template takes minutes on two cores, too long for a unit test.
  it("fixes in the template what the guard found in the demo practice's stack, without new resources", () => {
    const practice = synthPracticeStack();
    const { ofType, resources } = templateLookups(practice);
    // CT.KMS.PR.3: no key hands out grants except to AWS services acting for a resource.
    const keys = ofType('AWS::KMS::Key');
    expect(keys.length).toBeGreaterThan(0);
    for (const [, key] of keys) {
      expect(key.Properties.KeyPolicy.Statement).toContainEqual(
        expect.objectContaining({
          Effect: 'Deny',
          Principal: { AWS: '*' },
          Action: 'kms:CreateGrant',
          Resource: '*',
          Condition: { BoolIfExists: { 'kms:GrantIsForAWSResource': 'false', 'aws:PrincipalIsAWSService': 'false' } },
        }),
      );
    }
    // CT.SQS.PR.1: each queue is a dead-letter queue and says so.
    for (const [, queue] of ofType('AWS::SQS::Queue')) expect(queue.Properties.RedriveAllowPolicy).toEqual({ redrivePermission: 'allowAll' });
    // CT.S3.PR.4: patient-file events reach EventBridge, set on the bucket (no notification custom resource).
    const [[, files]] = ofType('AWS::S3::Bucket').filter(([id]) => id.startsWith('FilesBucket'));
    expect(files.Properties.NotificationConfiguration).toEqual({ EventBridgeConfiguration: { EventBridgeEnabled: true } });
    expect(ofType('Custom::S3BucketNotifications')).toEqual([]);
    // The budget is per stack (CloudFormation's limit is per template), not for the two together.
    for (const template of [practice.dataTemplate, practice.appTemplate]) expect(Object.keys(template.toJSON().Resources).length).toBeLessThanOrEqual(250);
    expect(Object.keys(resources).length).toBeGreaterThan(0);
  });
});
