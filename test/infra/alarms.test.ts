import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { synthPracticeStack, templateLookups, type StackResource, type SynthesizedPractice } from './synth-practice-stack.js';

let practice: SynthesizedPractice;
let lookups: ReturnType<typeof templateLookups>;
const ofType = (type: string) => lookups.ofType(type);
const refs = (value: unknown) => lookups.refs(value);
const fnByDescription = (description: string) => lookups.fnByDescription(description);

beforeAll(() => {
  practice = synthPracticeStack();
  lookups = templateLookups(practice);
}, 120_000);

describe('alarms on every async path', () => {
  const alarm = (name: string) => {
    const found = ofType('AWS::CloudWatch::Alarm').find(([, a]) => a.Properties.AlarmName === `tidewell-demo-${name}`);
    expect(found, name).toBeDefined();
    return found![1].Properties;
  };

  it('sends every alarm (and its recovery) to one KMS-encrypted topic with the practice config addresses subscribed', () => {
    // The other topic is the SMS topic (inbound texts and delivery receipts, test/infra/sms.test.ts).
    const alarmTopics = ofType('AWS::SNS::Topic').filter(([, t]) => t.Properties.TopicName !== 'tidewell-demo-sms');
    expect(alarmTopics).toHaveLength(1);
    const [[topicId, topic]] = alarmTopics;
    const [keyId] = refs(topic.Properties.KmsMasterKeyId);
    expect(lookups.resources[keyId]).toMatchObject({ Type: 'AWS::KMS::Key', Properties: { EnableKeyRotation: true } });
    expect(JSON.stringify(lookups.resources[keyId].Properties.KeyPolicy)).toContain('cloudwatch.amazonaws.com');
    const subscriptions = ofType('AWS::SNS::Subscription')
      .map(([, s]) => s.Properties)
      .filter((s) => s.Protocol !== 'lambda');
    expect(subscriptions).toEqual(
      practice.config.alarms!.emails.map((email) => expect.objectContaining({ Protocol: 'email', Endpoint: email, TopicArn: { Ref: topicId } })),
    );
    const alarms = ofType('AWS::CloudWatch::Alarm');
    expect(alarms.length).toBeGreaterThan(0);
    for (const [id, a] of alarms) {
      expect(a.Properties.AlarmActions, id).toEqual([{ Ref: topicId }]);
      expect(a.Properties.OKActions, id).toEqual([{ Ref: topicId }]);
      expect(a.Properties).toMatchObject({
        Threshold: 1,
        EvaluationPeriods: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        TreatMissingData: 'notBreaching',
      });
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

  /** The metric an alarm's math expression reads under `id`, and the expression itself. */
  const mathMetric = (a: StackResource['Properties'], id: string) => {
    const entries = a.Metrics as StackResource['Properties'][];
    const expression = entries.find((m) => m.Expression)!;
    expect(expression, `${a.AlarmName} has an expression`).toMatchObject({ ReturnData: true });
    const metric = entries.find((m) => m.Id === id)!;
    expect(metric, `${a.AlarmName} reads ${id}`).toMatchObject({ ReturnData: false });
    expect(expression.Expression).toContain(`FILL(${id}, 0)`);
    return { ...metric.MetricStat.Metric, Stat: metric.MetricStat.Stat };
  };

  it("watches the practice FHIR export's failed and timed-out executions in one alarm", () => {
    const [machineId] = ofType('AWS::StepFunctions::StateMachine').find(([, m]) => m.Properties.StateMachineName === 'tidewell-demo-fhir-export')!;
    const a = alarm('fhir-export-failed');
    expect(refs(mathMetric(a, 'failed').Dimensions)).toEqual([machineId]);
  });

  it("watches the transcription state machine's failed and timed-out executions in one alarm", () => {
    const [machineId] = ofType('AWS::StepFunctions::StateMachine').find(([, m]) => m.Properties.StateMachineName === 'tidewell-demo-transcription')!;
    const a = alarm('transcription-failed');
    for (const [id, metric] of [
      ['failed', 'ExecutionsFailed'],
      ['timedOut', 'ExecutionsTimedOut'],
    ]) {
      const m = mathMetric(a, id);
      expect(m).toMatchObject({ Namespace: 'AWS/States', MetricName: metric });
      expect(refs(m.Dimensions)).toEqual([machineId]);
    }
  });

  it("watches every API group function's errors in one alarm and their throttles in another, a metric per group", () => {
    for (const [alarmName, metricName] of [
      ['api-errors', 'Errors'],
      ['api-throttles', 'Throttles'],
    ]) {
      const a = alarm(alarmName);
      for (const group of practice.groups) {
        const [fnId] = fnByDescription(`Tidewell ${group.name} endpoints (demo)`);
        const m = mathMetric(a, group.name);
        expect(m).toMatchObject({ Namespace: 'AWS/Lambda', MetricName: metricName, Stat: 'Sum' });
        expect(refs(m.Dimensions)).toEqual([fnId]);
      }
      expect((a.Metrics as unknown[]).length).toBe(practice.groups.length + 1);
    }
  });

  it("watches every worker's errors and throttles in one alarm a worker", () => {
    const watched = [
      ['schedule-target', 'Tidewell scheduled sends (demo)'],
      ['transcription-worker', 'Tidewell transcription steps (demo)'],
      ['notification-stream', 'Tidewell notification publisher (demo)'],
      ['audit-archive', 'Tidewell audit archiver (demo)'],
      ['subscription-guard', 'Tidewell realtime subscription access check (demo)'],
    ];
    expect(ofType('AWS::Lambda::Function').filter(([, f]) => String(f.Properties.Description).startsWith('Tidewell '))).toHaveLength(
      watched.length + practice.groups.length,
    );
    for (const [name, description] of watched) {
      const [fnId] = fnByDescription(description);
      const a = alarm(`${name}-failures`);
      for (const [id, metric] of [
        ['errors', 'Errors'],
        ['throttles', 'Throttles'],
      ]) {
        const m = mathMetric(a, id);
        expect(m).toMatchObject({ Namespace: 'AWS/Lambda', MetricName: metric, Stat: 'Sum' });
        expect(refs(m.Dimensions)).toEqual([fnId]);
      }
    }
    // One a worker, two for the API groups, the transcription and FHIR export machines' and the three dead-letter queues' (notifications, scheduler, audit archive).
    expect(ofType('AWS::CloudWatch::Alarm')).toHaveLength(watched.length + 2 + 5);
  });

  it('keeps cdk-nag clean', () => {
    const pattern = Match.stringLikeRegexp('^(AwsSolutions|HIPAA\\.Security)-');
    const annotations = Annotations.fromStack(practice.stack);
    expect(
      [...annotations.findError('*', pattern), ...annotations.findWarning('*', pattern)].map((f) => `${f.id}: ${String(f.entry.data).split('\n')[0]}`),
    ).toEqual([]);
  });
});
