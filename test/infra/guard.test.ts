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

  it("passes the demo practice's stack, every acknowledged finding with its Control Tower id and reason", () => {
    const practice = synthPracticeStack(undefined, {}, { guard: true });
    const report = guardReport(practice.app);
    expect(report?.violations ?? []).toEqual([]);
    const suppressed = report?.suppressedViolations ?? [];
    for (const finding of suppressed) expect(finding.reason, finding.ruleName).toMatch(/^CT\.[A-Z0-9]+\.PR\.\d+: .{40,}/);
    // The findings fixed in the template stay fixed rather than acknowledged.
    const acknowledged = new Set(suppressed.map((s) => s.ruleName));
    for (const fixed of ['kms_create_grant_aws_service_check', 'sqs_dlq_check']) expect(acknowledged).not.toContain(fixed);
    expect(suppressed.find((s) => s.ruleName === 's3_event_notifications_enabled_check')?.violatingConstructs.map((c) => c.constructPath)).not.toContainEqual(
      expect.stringContaining('/Files/'),
    );

    const { ofType } = templateLookups(practice);
    for (const [, key] of ofType('AWS::KMS::Key')) {
      expect(key.Properties.KeyPolicy.Statement).toContainEqual(
        expect.objectContaining({ Effect: 'Deny', Action: 'kms:CreateGrant', Condition: { BoolIfExists: { 'kms:GrantIsForAWSResource': 'false', 'aws:PrincipalIsAWSService': 'false' } } }),
      );
    }
  }, 600_000);
});
