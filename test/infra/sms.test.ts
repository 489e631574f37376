import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PracticeSms } from '../../infra/config/practice-config.js';
import { Sms } from '../../infra/lib/sms.js';
import { synthPracticeStack, templateLookups } from './synth-practice-stack.js';

let lookups: ReturnType<typeof templateLookups>;
const ofType = (type: string) => lookups.ofType(type);

beforeAll(() => {
  lookups = templateLookups(synthPracticeStack());
}, 120_000);

const policyOf = (roleRef: string) =>
  ofType('AWS::IAM::Policy')
    .filter(([, p]) => JSON.stringify(p.Properties.Roles).includes(roleRef))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Record<string, unknown>[]);

describe('two-way SMS in the stack', () => {
  it('has a TLS-only topic encrypted with a customer managed key the SMS service may publish with', () => {
    const [[topicId, topic]] = ofType('AWS::SNS::Topic').filter(([, t]) => t.Properties.TopicName === 'tidewell-demo-sms');
    const [keyId] = lookups.refs(topic.Properties.KmsMasterKeyId);
    expect(lookups.resources[keyId!]!.Type).toBe('AWS::KMS::Key');
    expect(JSON.stringify(lookups.resources[keyId!]!.Properties.KeyPolicy)).toContain('sms-voice.amazonaws.com');
    const policies = ofType('AWS::SNS::TopicPolicy').filter(([, p]) => JSON.stringify(p.Properties.Topics).includes(topicId));
    const statements = JSON.stringify(policies.map(([, p]) => p.Properties.PolicyDocument));
    expect(statements).toContain('sms-voice.amazonaws.com');
    expect(statements).toContain('aws:SecureTransport');
  });

  it('publishes delivery events of the configuration set to the topic and subscribes the worker, with retries and a dead-letter queue', () => {
    const [[, set]] = ofType('AWS::SMSVOICE::ConfigurationSet');
    expect(set.Properties).toMatchObject({
      ConfigurationSetName: 'tidewell-demo-sms',
      EventDestinations: [{ Enabled: true, MatchingEventTypes: ['TEXT_ALL', 'MEDIA_ALL'] }],
    });
    const [[, subscription]] = ofType('AWS::SNS::Subscription').filter(([, s]) => s.Properties.Protocol === 'lambda');
    const [target] = lookups.fnByDescription('Tidewell scheduled sends (demo)');
    expect(JSON.stringify(subscription.Properties.Endpoint)).toContain(target);
    const [[, invoke]] = ofType('AWS::Lambda::EventInvokeConfig');
    expect(invoke.Properties).toMatchObject({ MaximumRetryAttempts: 2 });
    const [dlq] = ofType('AWS::SQS::Queue').find(([id]) => id.startsWith('SchedulerDeadLetters'))!;
    expect(JSON.stringify(invoke.Properties.DestinationConfig.OnFailure)).toContain(dlq);
  });

  it('lets the messaging group, the practice group (forms sent by text) and the schedule target send texts, and no other function', () => {
    const senders = ofType('AWS::IAM::Policy').filter(([, p]) => JSON.stringify(p.Properties.PolicyDocument).includes('sms-voice:SendTextMessage'));
    const roles = senders.map(([, p]) => JSON.stringify(p.Properties.Roles));
    expect(roles).toHaveLength(3);
    expect(roles.some((r) => r.includes('ApiGroupmessagingRole'))).toBe(true);
    expect(roles.some((r) => r.includes('ApiGrouppracticeRole'))).toBe(true);
    expect(roles.some((r) => r.includes('SchedulerTargetRole'))).toBe(true);
    const statement = policyOf('ApiGroupmessagingRole').find((s) => JSON.stringify(s.Action).includes('sms-voice'))!;
    expect(statement.Action).toEqual(['sms-voice:SendTextMessage', 'sms-voice:SendMediaMessage']);
    // The service reads a text's attachments from the files bucket itself.
    const mediaReads = ofType('AWS::S3::BucketPolicy')
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as { Principal?: { Service?: string }; Action: string }[])
      .filter((st) => st.Principal?.Service === 'sms-voice.amazonaws.com');
    expect(mediaReads).toEqual([expect.objectContaining({ Action: 's3:GetObject', Effect: 'Allow' })]);
    const [, messaging] = lookups.fnByDescription('Tidewell messaging endpoints (demo)');
    expect(messaging.Properties.Environment.Variables).toMatchObject({ SMS_TRANSPORT: 'sms-voice', SMS_CONFIGURATION_SET: 'tidewell-demo-sms' });
  });
});

describe('the Sms construct on its own', () => {
  function synthSms(config: PracticeSms | undefined) {
    const stack = new Stack(new App(), 'SmsAlone', { env: { account: '111122223333', region: 'eu-west-1' } });
    const worker = new lambda.Function(stack, 'Worker', {
      runtime: lambda.Runtime.NODEJS_22_X,
      handler: 'index.handler',
      code: lambda.Code.fromInline('exports.handler=()=>{}'),
    });
    const sender = new lambda.Function(stack, 'Sender', {
      runtime: lambda.Runtime.NODEJS_22_X,
      handler: 'index.handler',
      code: lambda.Code.fromInline('exports.handler=()=>{}'),
    });
    const sms = new Sms(stack, 'Sms', {
      slug: 'harbor',
      worker: worker as unknown as NodejsFunction,
      deadLetterQueue: new sqs.Queue(stack, 'Dlq'),
      key: new kms.Key(stack, 'Key'),
      config,
    });
    sms.grantSend(sender as unknown as NodejsFunction);
    sms.allowMediaFrom(new s3.Bucket(stack, 'Files'), new kms.Key(stack, 'FilesKey'));
    return Template.fromStack(stack).toJSON().Resources as Record<string, { Type: string; Properties: Record<string, any> }>; // eslint-disable-line @typescript-eslint/no-explicit-any
  }
  const of = (r: ReturnType<typeof synthSms>, type: string) => Object.values(r).filter((x) => x.Type === type);

  it('without an sms config: the topic and its subscription exist, sending is switched off and nothing is granted at the service', () => {
    const r = synthSms(undefined);
    expect(of(r, 'AWS::SNS::Topic')).toHaveLength(1);
    expect(of(r, 'AWS::SMSVOICE::ConfigurationSet')).toHaveLength(0);
    const sender = Object.entries(r).find(([id]) => id.startsWith('Sender') && r[id]!.Type === 'AWS::Lambda::Function')![1];
    expect(sender.Properties.Environment.Variables).toEqual({ SMS_TRANSPORT: 'none' });
    expect(JSON.stringify(of(r, 'AWS::IAM::Policy'))).not.toContain('sms-voice:');
    expect(JSON.stringify(of(r, 'AWS::S3::BucketPolicy'))).not.toContain('sms-voice');
  });

  it('with an existing configuration set: the stack references it and creates none', () => {
    const r = synthSms({ originationNumbers: ['+15415550100'], configurationSet: 'harbor-receipts' });
    expect(of(r, 'AWS::SMSVOICE::ConfigurationSet')).toHaveLength(0);
    const sender = Object.entries(r).find(([id]) => id.startsWith('Sender') && r[id]!.Type === 'AWS::Lambda::Function')![1];
    expect(sender.Properties.Environment.Variables).toEqual({ SMS_TRANSPORT: 'sms-voice', SMS_CONFIGURATION_SET: 'harbor-receipts' });
    expect(JSON.stringify(of(r, 'AWS::IAM::Policy'))).toContain('configuration-set/harbor-receipts');
  });
});
