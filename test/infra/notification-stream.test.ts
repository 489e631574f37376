import { beforeAll, describe, expect, it } from 'vitest';
import { NOTIFICATION_STREAM } from '../../functions/workers/notification-stream/subscription.js';
import { synthPracticeStack, templateLookups, type SynthesizedPractice } from './synth-practice-stack.js';

let practice: SynthesizedPractice;
let lookups: ReturnType<typeof templateLookups>;
const ofType = (type: string) => lookups.ofType(type);
const refs = (value: unknown) => lookups.refs(value);
const fnByDescription = (description: string) => lookups.fnByDescription(description);

beforeAll(() => {
  practice = synthPracticeStack();
  lookups = templateLookups(practice);
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
    expect(lookups.resources[queueId]).toMatchObject({ Type: 'AWS::SQS::Queue', Properties: { SqsManagedSseEnabled: true } });
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
    expect(dynamo.sort()).toEqual([
      'dynamodb:BatchGetItem',
      'dynamodb:BatchWriteItem',
      'dynamodb:DescribeStream',
      'dynamodb:GetRecords',
      'dynamodb:GetShardIterator',
      'dynamodb:ListStreams',
    ]);
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
