import { DescribeExecutionCommand, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { LocalNotificationPublisher } from '../../functions/lib/adapters/notification-publisher.js';
import { scheduleAdapterFromEnv, scheduleName } from '../../functions/lib/adapters/scheduler.js';
import { localLambdaArn } from '../../infra/local/stepfunctions/local-lambdas.js';
import { eventually, eventuallyFound } from '../support/eventually.js';
import { signIn, stackEndpoints, stackOutputs } from '../support/local-stack.js';

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };

/** Opens an AppSync realtime socket the way Amplify does (header-<base64url> subprotocol) and subscribes. */
async function subscribe(graphqlUrl: string, token: string, practiceId: string) {
  const url = new URL(graphqlUrl);
  const auth = { host: url.host, Authorization: token };
  const header = Buffer.from(JSON.stringify(auth)).toString('base64url');
  const socket = new WebSocket(`ws://${url.host}/graphql/realtime`, ['graphql-ws', `header-${header}`]);
  const messages: Record<string, unknown>[] = [];
  socket.on('message', (raw) => messages.push(JSON.parse(String(raw)) as Record<string, unknown>));
  const next = (type: string) =>
    eventuallyFound(`a ${type} message on the realtime socket`, async () => messages.find((m) => m.type === type), { within: 5000, every: 25 });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  socket.send(JSON.stringify({ type: 'connection_init' }));
  await next('connection_ack');
  const query = `subscription S($practiceId: String!) { onCreateNotification(practiceId: $practiceId) { practiceId notificationId text } }`;
  socket.send(
    JSON.stringify({
      id: 'sub-1',
      type: 'start',
      payload: { data: JSON.stringify({ query, variables: { practiceId } }), extensions: { authorization: auth } },
    }),
  );
  await next('start_ack');
  return { next, close: () => socket.close() };
}

describe('npm start wires realtime, Step Functions and Scheduler into the one runtime', () => {
  it('delivers a notification published through the local publisher to a subscriber on /graphql/realtime', async () => {
    const { graphqlUrl } = stackOutputs();
    const { practiceId, realtimePublisherSecret } = stackEndpoints();
    const token = await signIn('employee@demo.tidewell.local');
    const subscriber = await subscribe(graphqlUrl, token, practiceId);
    try {
      const publisher = new LocalNotificationPublisher({ url: graphqlUrl, secret: realtimePublisherSecret });
      await publisher.publishCreated({
        practiceId,
        sk: 'NOTIFICATION#wiring-1',
        notificationId: 'wiring-1',
        notificationType: 'TASK',
        notificationStatus: 'UNREAD',
        text: 'Call back about lab results',
        createdAt: new Date().toISOString(),
      });
      const data = await subscriber.next('data');
      expect(data.payload).toEqual({
        data: { onCreateNotification: { practiceId, notificationId: 'wiring-1', text: 'Call back about lab results' } },
      });
    } finally {
      subscriber.close();
    }
  });

  it('runs the deployed transcription definition with its worker and records the failure of a run that names no transcription', async () => {
    const { stepFunctions, transcriptionStateMachineArn } = stackEndpoints();
    const sfn = new SFNClient({ endpoint: stepFunctions, region: stackOutputs().region, credentials });
    const started = await sfn.send(
      new StartExecutionCommand({
        stateMachineArn: transcriptionStateMachineArn,
        input: JSON.stringify({ noteId: 'note-1', recordingKey: 'recordings/note-1.webm' }),
      }),
    );
    const described = await eventually(
      'the transcription execution to finish',
      () => sfn.send(new DescribeExecutionCommand({ executionArn: started.executionArn })),
      (d) => (d.status ?? 'RUNNING') !== 'RUNNING',
    );
    expect(described.status).toBe('FAILED');
    expect(described.error).toBe('TranscriptionFailed');
  });

  it('keeps a one-time schedule in the runtime scheduler through the same Scheduler adapter the Lambdas use', async () => {
    const { scheduler, schedulerGroup } = stackEndpoints();
    const adapter = scheduleAdapterFromEnv({
      SCHEDULER_ENDPOINT: scheduler,
      SCHEDULER_GROUP: schedulerGroup,
      SCHEDULER_TARGET_ARN: localLambdaArn('schedule-target'),
      SCHEDULER_ROLE_ARN: 'arn:aws:iam::000000000000:role/local',
      AWS_REGION: stackOutputs().region,
    });
    const name = scheduleName('wiring', `check-${Date.now()}`);
    const at = new Date(Date.now() + 60 * 60 * 1000);
    at.setMilliseconds(0);
    await adapter.createAt({ name, at, payload: { kind: 'wiring-check' } });
    expect(await adapter.get(name)).toMatchObject({ name, at });
    await adapter.delete(name);
    expect(await adapter.get(name)).toBeNull();
  });
});
