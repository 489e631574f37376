import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { describe, expect, it } from 'vitest';
import type { PracticeEmail } from '../../infra/config/practice-config.js';
import { emailSendGrant } from '../../infra/lib/email.js';

/** One function with the email grant applied, synthesized on its own (the full stack test covers the demo config). */
function synth(email: PracticeEmail | undefined) {
  const stack = new Stack(new App(), 'EmailGrant', { env: { account: '111122223333', region: 'eu-west-1' } });
  const fn = new lambda.Function(stack, 'Notes', {
    runtime: lambda.Runtime.NODEJS_22_X,
    handler: 'index.handler',
    code: lambda.Code.fromInline('exports.handler=()=>{}'),
  });
  emailSendGrant(email)(fn as unknown as NodejsFunction);
  return Template.fromStack(stack).toJSON().Resources as Record<string, { Type: string; Properties: Record<string, any> }>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const ofType = (resources: ReturnType<typeof synth>, type: string) => Object.values(resources).filter((r) => r.Type === type);

describe('email send grant', () => {
  it('without an email config: sending is switched off and no SES permission exists', () => {
    const resources = synth(undefined);
    expect(ofType(resources, 'AWS::Lambda::Function')[0].Properties.Environment.Variables).toEqual({ EMAIL_TRANSPORT: 'none' });
    expect(JSON.stringify(ofType(resources, 'AWS::IAM::Policy'))).not.toContain('ses:');
  });

  it('an address identity with a configuration set: both ARNs, From limited to that one address', () => {
    const resources = synth({ identity: 'notes@harborfm.example', fromAddress: 'notes@harborfm.example', configurationSet: 'tidewell-harbor' });
    const [policy] = ofType(resources, 'AWS::IAM::Policy');
    const [statement] = policy.Properties.PolicyDocument.Statement;
    expect(statement.Action).toBe('ses:SendEmail');
    expect(statement.Condition).toEqual({ StringLike: { 'ses:FromAddress': 'notes@harborfm.example' } });
    const arns = JSON.stringify(statement.Resource);
    expect(arns).toContain(':ses:eu-west-1:111122223333:identity/notes@harborfm.example');
    expect(arns).toContain(':ses:eu-west-1:111122223333:configuration-set/tidewell-harbor');
    expect(ofType(resources, 'AWS::Lambda::Function')[0].Properties.Environment.Variables).toEqual({
      EMAIL_TRANSPORT: 'ses',
      EMAIL_IDENTITY: 'notes@harborfm.example',
      EMAIL_FROM_ADDRESS: 'notes@harborfm.example',
      EMAIL_CONFIGURATION_SET: 'tidewell-harbor',
    });
  });
});
