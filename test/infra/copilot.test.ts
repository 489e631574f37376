import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { GROUPS } from '../../functions/groups.js';
import { synthPracticeStack, templateLookups, type SynthesizedPractice } from './synth-practice-stack.js';

const PROFILE = 'us.anthropic.claude-3-5-haiku-20241022-v1:0';
let practice: SynthesizedPractice;
let lookups: ReturnType<typeof templateLookups>;

beforeAll(() => {
  practice = synthPracticeStack(GROUPS, { ai: { modelId: PROFILE, region: 'us-west-2' } });
  lookups = templateLookups(practice);
}, 120_000);

const aiFunction = () => lookups.fnByDescription('Tidewell ai endpoints (demo)');

describe('the Copilot in the stack', () => {
  it("streams through the ai function's own URL: RESPONSE_STREAM, token checked by the handler, CORS for the web only", () => {
    const urls = lookups.ofType('AWS::Lambda::Url');
    expect(urls).toHaveLength(1);
    const [, url] = urls[0];
    const [fnId] = aiFunction();
    expect(lookups.refs(url.Properties.TargetFunctionArn)).toEqual([fnId]);
    expect(url.Properties).toMatchObject({
      AuthType: 'NONE',
      InvokeMode: 'RESPONSE_STREAM',
      Cors: { AllowMethods: ['POST'], AllowHeaders: ['authorization', 'content-type', 'x-timezone'] },
    });
    expect(JSON.stringify(url.Properties.Cors.AllowOrigins)).toContain('WebDistribution');
    const env = aiFunction()[1].Properties.Environment.Variables;
    expect(JSON.stringify(env.COGNITO_ISSUER)).toContain('cognito-idp');
    expect(lookups.resources[lookups.refs(env.USER_POOL_CLIENT_ID)[0]].Type).toBe('AWS::Cognito::UserPoolClient');
    expect(lookups.refs(env.USER_POOL_CLIENT_ID)).toHaveLength(1);
    expect(practice.template.toJSON().Outputs.copilotStreamUrl).toBeDefined();
    // A function timeout past API Gateway's 30 s, for long streamed replies.
    expect(aiFunction()[1].Properties.Timeout).toBe(120);
  });

  it("may invoke the practice's model only, in its region", () => {
    const env = aiFunction()[1].Properties.Environment.Variables;
    expect(env).toMatchObject({ AI_MODEL_ID: PROFILE, AI_REGION: 'us-west-2' });
    const roleId = lookups.refs(aiFunction()[1].Properties.Role)[0];
    const statements = lookups
      .ofType('AWS::IAM::Policy')
      .filter(([, p]) => JSON.stringify(p.Properties.Roles).includes(roleId))
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as { Action: string[]; Resource: unknown }[]);
    const bedrock = statements.filter((s) => JSON.stringify(s.Action).includes('bedrock:'));
    expect(bedrock).toHaveLength(1);
    expect(bedrock[0].Action).toEqual(['bedrock:InvokeModel', 'bedrock:InvokeModelWithResponseStream']);
    const resources = JSON.stringify(bedrock[0].Resource);
    expect(resources).toContain(':bedrock:*::foundation-model/anthropic.claude-3-5-haiku-20241022-v1:0');
    expect(resources).toContain(`:bedrock:us-west-2:111122223333:inference-profile/${PROFILE}`);
    // Besides the ai group, only the transcription worker (the scribe's note) may reach the model.
    const [workerId] = lookups.fnByDescription('Tidewell transcription steps (demo)');
    const workerRoleId = lookups.refs(lookups.resources[workerId].Properties.Role)[0];
    const others = lookups.ofType('AWS::IAM::Policy').filter(([, p]) => ![roleId, workerRoleId].some((id) => JSON.stringify(p.Properties.Roles).includes(id)));
    expect(others.length).toBeGreaterThan(0);
    expect(JSON.stringify(others)).not.toContain('bedrock:');
  });

  it('passes both cdk-nag packs', () => {
    const annotations = Annotations.fromStack(practice.stack);
    const findings = [
      ...annotations.findError('*', Match.stringLikeRegexp('^(AwsSolutions|HIPAA\\.Security)-')),
      ...annotations.findWarning('*', Match.stringLikeRegexp('^(AwsSolutions|HIPAA\\.Security)-')),
    ];
    expect(findings.map((f) => `${f.id}: ${String(f.entry.data).split(':')[0]}`)).toEqual([]);
  });
});
