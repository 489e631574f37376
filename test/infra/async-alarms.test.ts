import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { NOTIFICATION_STREAM } from '../../functions/workers/notification-stream/subscription.js';
import { loadPracticeConfig, PracticeConfigSchema } from '../../infra/config/practice-config.js';
import { REPO_ROOT } from '../../infra/lib/paths.js';
import { synthPracticeStack, type SynthesizedPractice } from './synth-practice-stack.js';

type Resource = { Type: string; Properties: Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any

let practice: SynthesizedPractice;
let resources: Record<string, Resource>;

const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const refs = (value: unknown) => [...JSON.stringify(value).matchAll(/"(?:Ref|Fn::GetAtt)":\s*\[?"([A-Za-z0-9]+)"/g)].map((m) => m[1]);
const fnByDescription = (description: string) => ofType('AWS::Lambda::Function').find(([, f]) => f.Properties.Description === description)!;

beforeAll(() => {
  practice = synthPracticeStack();
  resources = practice.template.toJSON().Resources;
}, 120_000);

describe('notification stream in the stack', () => {
  it("subscribes the publisher to the table's stream with the shared filter, batch, bisect, bounded retries and a dead-letter queue", () => {
    const [consumerId] = fnByDescription('Tidewell notification publisher (demo)');
    const [mappingId, mapping] = ofType('AWS::Lambda::EventSourceMapping').find(([, m]) => refs(m.Properties.FunctionName).includes(consumerId))!;
    expect(mappingId).toBeDefined();
    const [tableId] = ofType('AWS::DynamoDB::Table')[0];
    expect(JSON.stringify(mapping.Properties.EventSourceArn)).toContain(`"${tableId}","StreamArn"`);
    expect(mapping.Properties).toMatchObject({
      StartingPosition: 'LATEST',
      BatchSize: NOTIFICATION_STREAM.batchSize,
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: NOTIFICATION_STREAM.retryAttempts,
      MaximumRecordAgeInSeconds: NOTIFICATION_STREAM.maxRecordAgeSeconds,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    expect(mapping.Properties.FilterCriteria.Filters.map((f: { Pattern: string }) => JSON.parse(f.Pattern))).toEqual(NOTIFICATION_STREAM.filters);
    const [queueId] = refs(mapping.Properties.DestinationConfig.OnFailure.Destination);
    expect(resources[queueId]).toMatchObject({ Type: 'AWS::SQS::Queue', Properties: { SqsManagedSseEnabled: true } });
    const queuePolicy = ofType('AWS::SQS::QueuePolicy').find(([, p]) => refs(p.Properties.Queues).includes(queueId));
    expect(queuePolicy![1].Properties.PolicyDocument.Statement).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
  });

  it('gives the publisher nothing on the table but reading its stream and reading/writing items (its markers), no index', () => {
    const [, consumer] = fnByDescription('Tidewell notification publisher (demo)');
    const role = refs(consumer.Properties.Role)[0];
    const statements = ofType('AWS::IAM::Policy')
      .filter(([, p]) => refs(p.Properties.Roles).includes(role))
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]);
    const dynamo = statements.flatMap((s) => [s.Action].flat()).filter((a) => a.startsWith('dynamodb:'));
    expect(dynamo.sort()).toEqual(['dynamodb:DescribeStream', 'dynamodb:GetItem', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams', 'dynamodb:PutItem']);
    expect(JSON.stringify(statements)).not.toContain('/index/');
  });

  it('lets only the publisher call the publish mutations', () => {
    const [consumerId, consumer] = fnByDescription('Tidewell notification publisher (demo)');
    expect(refs(consumer.Properties.Environment.Variables.APPSYNC_URL)[0]).toMatch(/^NotificationsApi/);
    const publishers = ofType('AWS::IAM::Policy')
      .filter(([, p]) => JSON.stringify(p.Properties.PolicyDocument).includes('appsync:GraphQL'))
      .flatMap(([, p]) => refs(p.Properties.Roles));
    const consumerRole = refs(consumer.Properties.Role)[0];
    expect(publishers).toEqual([consumerRole]);
    for (const [id, fn] of ofType('AWS::Lambda::Function')) {
      if (id !== consumerId) expect(fn.Properties.Environment?.Variables?.APPSYNC_URL, id).toBeUndefined();
    }
  });
});

describe('alarms on every async path', () => {
  const alarm = (name: string) => {
    const found = ofType('AWS::CloudWatch::Alarm').find(([, a]) => a.Properties.AlarmName === `tidewell-demo-${name}`);
    expect(found, name).toBeDefined();
    return found![1].Properties;
  };

  it('sends every alarm (and its recovery) to one KMS-encrypted topic with the practice config addresses subscribed', () => {
    const [[topicId, topic]] = ofType('AWS::SNS::Topic');
    expect(ofType('AWS::SNS::Topic')).toHaveLength(1);
    const [keyId] = refs(topic.Properties.KmsMasterKeyId);
    expect(resources[keyId]).toMatchObject({ Type: 'AWS::KMS::Key', Properties: { EnableKeyRotation: true } });
    expect(JSON.stringify(resources[keyId].Properties.KeyPolicy)).toContain('cloudwatch.amazonaws.com');
    const subscriptions = ofType('AWS::SNS::Subscription').map(([, s]) => s.Properties);
    expect(subscriptions).toEqual(practice.config.alarms!.emails.map((email) => expect.objectContaining({ Protocol: 'email', Endpoint: email, TopicArn: { Ref: topicId } })));
    const alarms = ofType('AWS::CloudWatch::Alarm');
    expect(alarms.length).toBeGreaterThan(0);
    for (const [id, a] of alarms) {
      expect(a.Properties.AlarmActions, id).toEqual([{ Ref: topicId }]);
      expect(a.Properties.OKActions, id).toEqual([{ Ref: topicId }]);
      expect(a.Properties).toMatchObject({ Threshold: 1, EvaluationPeriods: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold', TreatMissingData: 'notBreaching' });
    }
  });

  it('watches both dead-letter queues', () => {
    const [streamConsumerId] = fnByDescription('Tidewell notification publisher (demo)');
    const mapping = ofType('AWS::Lambda::EventSourceMapping').find(([, m]) => refs(m.Properties.FunctionName).includes(streamConsumerId))![1];
    const streamQueue = refs(mapping.Properties.DestinationConfig.OnFailure.Destination)[0];
    const stream = alarm('notification-stream-dead-letters');
    expect(stream).toMatchObject({ Namespace: 'AWS/SQS', MetricName: 'ApproximateNumberOfMessagesVisible' });
    expect(refs(stream.Dimensions)).toEqual([streamQueue]);
    const scheduler = alarm('scheduler-dead-letters');
    expect(refs(scheduler.Dimensions)[0]).toMatch(/^SchedulerDeadLetters/);
  });

  it("watches the transcription state machine's failed and timed-out executions", () => {
    const [machineId] = ofType('AWS::StepFunctions::StateMachine')[0];
    for (const [name, metric] of [
      ['transcription-failed', 'ExecutionsFailed'],
      ['transcription-timed-out', 'ExecutionsTimedOut'],
    ]) {
      const a = alarm(name);
      expect(a).toMatchObject({ Namespace: 'AWS/States', MetricName: metric });
      expect(refs(a.Dimensions)).toEqual([machineId]);
    }
  });

  it("watches every group function's errors and throttles, workers included, one alarm per metric", () => {
    const watched = [
      ...practice.groups.map((g) => [g.name, `Tidewell ${g.name} endpoints (demo)`]),
      ['schedule-target', 'Tidewell scheduled sends (demo)'],
      ['transcription-worker', 'Tidewell transcription steps (demo)'],
      ['notification-stream', 'Tidewell notification publisher (demo)'],
    ];
    expect(ofType('AWS::Lambda::Function').filter(([, f]) => String(f.Properties.Description).startsWith('Tidewell '))).toHaveLength(watched.length);
    for (const [name, description] of watched) {
      const [fnId] = fnByDescription(description);
      for (const metric of ['Errors', 'Throttles']) {
        const a = alarm(`${name}-${metric.toLowerCase()}`);
        expect(a).toMatchObject({ Namespace: 'AWS/Lambda', MetricName: metric, Statistic: 'Sum' });
        expect(refs(a.Dimensions)).toEqual([fnId]);
      }
    }
    expect(ofType('AWS::CloudWatch::Alarm')).toHaveLength(watched.length * 2 + 4);
  });

  it('keeps cdk-nag clean', () => {
    const pattern = Match.stringLikeRegexp('^(AwsSolutions|HIPAA\\.Security)-');
    const annotations = Annotations.fromStack(practice.stack);
    expect([...annotations.findError('*', pattern), ...annotations.findWarning('*', pattern)].map((f) => `${f.id}: ${String(f.entry.data).split('\n')[0]}`)).toEqual([]);
  });
});

describe('practice config', () => {
  const base = { slug: 'harbor', practiceId: 'prc_harbor', practiceName: 'Harbor Family Medicine' };

  it('takes alarm addresses from alarms.emails and refuses the old alarmEmail field with what to write instead', () => {
    expect(PracticeConfigSchema.parse({ ...base, alarms: { emails: ['ops@harbor.example'] } }).alarms).toEqual({ emails: ['ops@harbor.example'] });
    expect(PracticeConfigSchema.safeParse({ ...base, alarms: { emails: ['not an address'] } }).error?.issues[0].message).toBe('alarms.emails must be email addresses');
    expect(PracticeConfigSchema.safeParse({ ...base, alarmEmail: 'ops@harbor.example' }).error?.issues[0].message).toBe('alarmEmail is replaced by alarms: { "emails": ["..."] }');
  });

  it('names the configs that exist when the practice slug is unknown', () => {
    expect(() => loadPracticeConfig('harbour', REPO_ROOT)).toThrow('No practice config practices/harbour.json. Known practices: demo.');
  });

  it('makes `cdk synth` with an unknown practice print the known configs, without a stack trace', async () => {
    const run = promisify(execFile)('npx', ['tsx', 'infra/bin/app.ts'], { cwd: REPO_ROOT, env: { ...process.env, CDK_CONTEXT_JSON: JSON.stringify({ practice: 'harbour' }) } });
    const failure = (await run.then(
      () => null,
      (e: { code: number; stderr: string }) => e,
    ))!;
    expect(failure.code).toBe(1);
    expect(failure.stderr.trim().split('\n').filter((l) => !l.startsWith('npm warn'))).toEqual(['No practice config practices/harbour.json. Known practices: demo.']);
  });
});
