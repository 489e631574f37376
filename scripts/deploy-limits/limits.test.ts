import { describe, expect, it } from 'vitest';
import { checkTemplate, GENEROUS, LIMITS, policyChars, resolveGenerously, type Resource, type Template } from './limits.js';

function over(template: Template, bytes = 1_000) {
  return checkTemplate('Probe', template, bytes).filter((l) => !l.ok);
}
const statement = (resource: unknown) => ({ Effect: 'Allow', Action: 's3:GetObject', Resource: resource });
const policyOf = (statements: unknown[]) => ({ Version: '2012-10-17', Statement: statements });

describe('deploy limits on a synthesized template', () => {
  it('passes a small template and prints the figures it measured', () => {
    const lines = checkTemplate('Probe', { Resources: { Queue: { Type: 'AWS::SQS::Queue' } } }, 900);
    expect(lines.every((l) => l.ok)).toBe(true);
    expect(lines).toContainEqual(expect.objectContaining({ limit: 'Resources per stack (CloudFormation hard limit)', figure: 1, max: 500 }));
    expect(lines).toContainEqual(expect.objectContaining({ limit: 'Template size (uploaded to S3 by cdk deploy)', figure: 900 }));
  });

  it('fails a stack over the 250-resource budget, and over 500 as well past the hard limit', () => {
    const resources = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`Topic${i}`, { Type: 'AWS::SNS::Topic' } as Resource]));
    expect(over({ Resources: resources(250) })).toEqual([]);
    expect(over({ Resources: resources(251) }).map((l) => l.limit)).toEqual(['Resources per stack (Tidewell budget)']);
    expect(over({ Resources: resources(501) }).map((l) => l.limit)).toEqual([
      'Resources per stack (CloudFormation hard limit)',
      'Resources per stack (Tidewell budget)',
    ]);
  });

  it("adds up a role's inline policies, its own and attached ones, against 10,240 characters", () => {
    const bucketArn = 'arn:aws:s3:::tidewell-files/' + 'k'.repeat(80);
    // Each statement is about 140 characters minified; 40 of them in each of two policies pass one by one, not together.
    const statements = Array.from({ length: 40 }, (_, i) => statement(`${bucketArn}${i}`));
    const size = policyChars(policyOf(statements));
    expect(size).toBeLessThan(LIMITS.rolePolicyChars);
    expect(2 * size).toBeGreaterThan(LIMITS.rolePolicyChars);
    const template: Template = {
      Resources: {
        Role: { Type: 'AWS::IAM::Role', Properties: { Policies: [{ PolicyName: 'own', PolicyDocument: policyOf(statements) }] } },
        Attached: { Type: 'AWS::IAM::Policy', Properties: { Roles: [{ Ref: 'Role' }], PolicyDocument: policyOf(statements) } },
      },
    };
    expect(over(template)).toEqual([expect.objectContaining({ limit: 'IAM role inline policies together', subject: 'Role' })]);
    delete template.Resources!.Attached;
    expect(over(template)).toEqual([]);
  });

  it('counts a value CloudFormation resolves at deploy time at a generous length, never below the real one', () => {
    expect(resolveGenerously({ Ref: 'AWS::AccountId' })).toHaveLength(12);
    expect(resolveGenerously({ 'Fn::GetAtt': ['Table', 'Arn'] })).toHaveLength(GENEROUS.arn);
    expect(resolveGenerously({ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':s3:::', { Ref: 'Bucket' }]] })).toBe(
      `arn:aws-us-gov:s3:::${'x'.repeat(GENEROUS.ref)}`,
    );
    expect(resolveGenerously({ 'Fn::Sub': 'arn:${AWS::Partition}:logs:${AWS::Region}:${AWS::AccountId}:log-group:${Group}' })).toHaveLength(
      'arn:aws-us-gov:logs:'.length + 16 + 1 + 12 + ':log-group:'.length + GENEROUS.ref,
    );
    // 40 statements naming a table ARN: short in the template, each ARN counted at its generous length once resolved.
    const refs = policyOf(Array.from({ length: 40 }, () => statement({ 'Fn::GetAtt': ['Table', 'Arn'] })));
    expect(JSON.stringify(refs).length).toBeLessThan(LIMITS.rolePolicyChars);
    expect(over({ Resources: { Role: { Type: 'AWS::IAM::Role', Properties: { Policies: [{ PolicyDocument: refs }] } } } })).toHaveLength(1);
  });

  it('fails a function whose environment is over 4 KB, and a function name over 64 characters', () => {
    const fn = (variables: Record<string, unknown>, name?: string): Template => ({
      Resources: { Fn: { Type: 'AWS::Lambda::Function', Properties: { Environment: { Variables: variables }, ...(name ? { FunctionName: name } : {}) } } },
    });
    expect(over(fn({ SMALL: 'x'.repeat(3_000) }))).toEqual([]);
    expect(over(fn({ BIG: 'x'.repeat(4_100) }))).toEqual([expect.objectContaining({ limit: 'Lambda environment variables together', subject: 'Fn' })]);
    // Thirty ARNs resolved at deploy time: a short template, an environment over the limit.
    const arns = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`ARN_${i}`, { 'Fn::GetAtt': [`Thing${i}`, 'Arn'] }]));
    expect(over(fn(arns)).map((l) => l.limit)).toEqual(['Lambda environment variables together']);
    expect(over(fn({}, 'f'.repeat(65))).map((l) => l.limit)).toEqual(['Lambda function name']);
  });

  it('fails an HTTP API with more than 300 routes', () => {
    const routes = (n: number) => ({
      Api: { Type: 'AWS::ApiGatewayV2::Api', Properties: { ProtocolType: 'HTTP' } } as Resource,
      ...Object.fromEntries(
        Array.from({ length: n }, (_, i) => [
          `Route${i}`,
          { Type: 'AWS::ApiGatewayV2::Route', Properties: { ApiId: { Ref: 'Api' }, RouteKey: `GET /r${i}` } } as Resource,
        ]),
      ),
    });
    expect(over({ Resources: routes(200) }).map((l) => l.limit)).toEqual([]);
    expect(over({ Resources: routes(301) }).map((l) => l.limit)).toContain('Routes per HTTP API');
  });

  it('fails a template over 1 MB and notes one over the 51,200 bytes of a direct upload', () => {
    const lines = checkTemplate('Probe', { Resources: {} }, 60_000);
    expect(lines.find((l) => l.limit.startsWith('Template size'))).toEqual(expect.objectContaining({ ok: true, note: expect.stringContaining('51,200') }));
    expect(over({ Resources: {} }, 1_048_577).map((l) => l.limit)).toEqual(['Template size (uploaded to S3 by cdk deploy)']);
  });

  it('fails a state machine definition, an AppSync resolver, a topic or queue policy and a log group name over their limits', () => {
    const big = (n: number) => 'x'.repeat(n);
    const template: Template = {
      Resources: {
        Machine: { Type: 'AWS::StepFunctions::StateMachine', Properties: { DefinitionString: { 'Fn::Join': ['', ['{"States":"', big(1_048_576), '"}']] } } },
        Resolver: { Type: 'AWS::AppSync::Resolver', Properties: { Code: big(32_769), RequestMappingTemplate: big(65_537) } },
        Schema: { Type: 'AWS::AppSync::GraphQLSchema', Properties: { Definition: big(100) } },
        TopicPolicy: { Type: 'AWS::SNS::TopicPolicy', Properties: { PolicyDocument: policyOf([statement(big(30_720))]) } },
        QueuePolicy: { Type: 'AWS::SQS::QueuePolicy', Properties: { PolicyDocument: policyOf([statement(big(20_480))]) } },
        Logs: { Type: 'AWS::Logs::LogGroup', Properties: { LogGroupName: { 'Fn::Join': ['', ['/aws/vendedlogs/', big(500)]] } } },
      },
    };
    expect(
      over(template)
        .map((l) => `${l.limit} ${l.subject}`)
        .sort(),
    ).toEqual([
      'AppSync request mapping template Resolver',
      'AppSync resolver code Resolver',
      'Log group name Logs',
      'SNS topic policy TopicPolicy',
      'SQS queue policy QueuePolicy',
      'Step Functions state machine definition Machine',
    ]);
  });
});
