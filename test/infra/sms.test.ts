import { beforeAll, describe, expect, it } from 'vitest';
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
    expect(set.Properties).toMatchObject({ ConfigurationSetName: 'tidewell-demo-sms', EventDestinations: [{ Enabled: true, MatchingEventTypes: ['TEXT_ALL', 'MEDIA_ALL'] }] });
    const [[, subscription]] = ofType('AWS::SNS::Subscription').filter(([, s]) => s.Properties.Protocol === 'lambda');
    const [target] = lookups.fnByDescription('Tidewell scheduled sends (demo)');
    expect(JSON.stringify(subscription.Properties.Endpoint)).toContain(target);
    const [[, invoke]] = ofType('AWS::Lambda::EventInvokeConfig');
    expect(invoke.Properties).toMatchObject({ MaximumRetryAttempts: 2 });
    const [dlq] = ofType('AWS::SQS::Queue').find(([id]) => id.startsWith('SchedulerDeadLetters'))!;
    expect(JSON.stringify(invoke.Properties.DestinationConfig.OnFailure)).toContain(dlq);
  });

  it('lets the messaging group and the schedule target send texts, and no other function', () => {
    const senders = ofType('AWS::IAM::Policy').filter(([, p]) => JSON.stringify(p.Properties.PolicyDocument).includes('sms-voice:SendTextMessage'));
    const roles = senders.map(([, p]) => JSON.stringify(p.Properties.Roles));
    expect(roles).toHaveLength(2);
    expect(roles.some((r) => r.includes('ApiGroupmessagingRole'))).toBe(true);
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
