import { NOTIFICATION_STREAM } from '../../functions/workers/notification-stream/subscription.js';
import { AUDIT_ARCHIVE_STREAM } from '../../functions/workers/audit-archive/subscription.js';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { transcriptionDefinition, TRANSCRIPTION_WORKER_ENTRY } from '../lib/transcription/transcription-definition.js';
import { fhirExportDefinition } from '../lib/fhir-export/fhir-export-definition.js';

const FHIR_EXPORT_WORKER = 'group-chart';
import type { LocalTableStream } from './dynamodb/stream/table-stream.js';
import { authorizeSubscriber } from '../../functions/lib/auth/authorize-subscriber.js';
import { createCognitoTokenVerifier } from './realtime/cognito-token-verifier.js';
import { attachRealtime } from './realtime/realtime-server.js';
import { createLocalCarrier } from './carrier/local-carrier.js';
import { startLocalScheduler } from './scheduler/local-scheduler.js';
import { RECURRING_RETRY, RECURRING_SCHEDULES, RECURRING_WINDOW_MINUTES } from '../../functions/workers/schedule-target/recurring.js';
import { createLocalStepFunctions } from './stepfunctions/execution-service.js';
import { lambdaResolver, localLambdaArn, type LambdaHandler, type LambdaModule } from './stepfunctions/local-lambdas.js';
import { serveStepFunctionsApi } from './stepfunctions/sfn-http-api.js';

/** The worker Lambdas the stack deploys, by function name, mapped to the same handler modules. */
export const LOCAL_WORKERS: Record<string, LambdaModule> = {
  'schedule-target': { entry: 'functions/workers/schedule-target/handler.ts' },
  transcription: { entry: TRANSCRIPTION_WORKER_ENTRY },
  [NOTIFICATION_STREAM.name]: { entry: NOTIFICATION_STREAM.entry },
  [AUDIT_ARCHIVE_STREAM.name]: { entry: AUDIT_ARCHIVE_STREAM.entry },
  // The chart group's function: the practice FHIR export's state machine runs its steps there, as deployed.
  [FHIR_EXPORT_WORKER]: { entry: 'functions/chart/handler.ts' },
};

export interface AsyncServicesOptions {
  dataDir: string;
  repoRoot: string;
  slug: string;
  tableName: string;
  tableStream: LocalTableStream;
  /** practices/<slug>.json sms.originationNumbers: the numbers the sandbox carrier holds. */
  smsOriginationNumbers?: readonly string[];
  wrapStreamConsumer?: (handler: LambdaHandler) => LambdaHandler;
}

/**
 * What the services need of the runtime they attach to. Declared here, not imported from runtime.ts,
 * because the runtime imports this module: the runtime satisfies these shapes structurally.
 */
export interface AsyncServicesHost {
  httpServer: Server;
  onRequest(prefix: string, handler: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>): void;
  onStop(fn: () => void | Promise<void>): void;
}

/** The runtime's outputs the services read (a subset of LocalOutputs). */
export interface AsyncServicesOutputs {
  region: string;
  graphqlUrl: string;
  cognitoEndpoint: string;
  userPoolId: string;
  userPoolClientId: string;
}

/**
 * Realtime (AppSync protocol), Step Functions and Scheduler stand-ins, attached to a started
 * runtime. Each sets the same environment variables the stack gives the Lambdas that use it,
 * plus the local-only endpoint override the adapters look for.
 */
export async function attachAsyncServices(runtime: AsyncServicesHost, outputs: AsyncServicesOutputs, opts: AsyncServicesOptions) {
  const region = outputs.region;

  const realtime = attachRealtime(runtime.httpServer, {
    path: '/graphql',
    verifyToken: createCognitoTokenVerifier({
      cognitoEndpoint: outputs.cognitoEndpoint,
      userPoolId: outputs.userPoolId,
      clientId: outputs.userPoolClientId,
      region,
    }),
    // The API's rule, by the same function: the practice is the stack's, the record decides.
    authorize: async (claims, field, delivery) => {
      await authorizeSubscriber(claims, process.env.PRACTICE_ID ?? '', { route: `Subscription.${field}`, audit: !delivery });
    },
  });
  runtime.onRequest('/graphql', async (req, res) => {
    if (!(await realtime.handleHttp(req, res))) res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Not Found' }));
  });
  runtime.onStop(() => realtime.close());

  const resolveLambda = lambdaResolver(LOCAL_WORKERS, opts.repoRoot);

  // The event source mapping: the same subscription (filter, batch, retries) the stack deploys.
  // Subscribed before the scheduler starts, so a reminder that fires at start-up is announced too.
  process.env.APPSYNC_URL = outputs.graphqlUrl;
  process.env.APPSYNC_LOCAL_SECRET = realtime.publisherSecret;
  const streamConsumer = await resolveLambda(NOTIFICATION_STREAM.name);
  const invokeConsumer = opts.wrapStreamConsumer?.(streamConsumer) ?? streamConsumer;
  opts.tableStream.subscribe({ tableName: opts.tableName, subscription: NOTIFICATION_STREAM, invoke: async (event) => invokeConsumer(event) });
  // The audit archiver, on its own mapping as deployed: every audit entry, in commit order, to the locked bucket.
  const auditArchiver = await resolveLambda(AUDIT_ARCHIVE_STREAM.name);
  opts.tableStream.subscribe({ tableName: opts.tableName, subscription: AUDIT_ARCHIVE_STREAM, invoke: async (event) => auditArchiver(event) });
  runtime.onRequest('/local/stream/dead-letters', (_req, res) => {
    res
      .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
      .end(JSON.stringify({ deadLetters: opts.tableStream.deadLetters() }));
  });
  // Stops before the realtime server closes (stops run in reverse order): batches in flight finish.
  runtime.onStop(() => opts.tableStream.stop());

  const stateMachineName = `tidewell-${opts.slug}-transcription`;
  const fhirExportMachineName = `tidewell-${opts.slug}-fhir-export`;
  const stepFunctions = createLocalStepFunctions({
    repoRoot: opts.repoRoot,
    region,
    functions: LOCAL_WORKERS,
    stateMachines: [
      { name: stateMachineName, definition: transcriptionDefinition({ worker: localLambdaArn('transcription', region) }) as never },
      { name: fhirExportMachineName, definition: fhirExportDefinition({ worker: localLambdaArn(FHIR_EXPORT_WORKER, region) }) as never },
    ],
  });
  const sfnApi = await serveStepFunctionsApi(stepFunctions);
  runtime.onStop(async () => {
    await sfnApi.close();
    await stepFunctions.stop();
  });

  const scheduler = await startLocalScheduler({
    dataDir: opts.dataDir,
    region,
    invokeTarget: async (targetArn, input) => {
      const handler = await resolveLambda(targetArn);
      await handler(JSON.parse(input));
    },
  });
  runtime.onStop(() => scheduler.stop());
  // The stack's recurring schedules (DoseSpot's syncPatientRx), on the same target, as a deploy creates them.
  const schedulerGroup = `tidewell-${opts.slug}`;
  for (const recurring of RECURRING_SCHEDULES) {
    await scheduler.ensure(schedulerGroup, recurring.name, {
      ScheduleExpression: recurring.expression,
      ScheduleExpressionTimezone: 'UTC',
      Description: recurring.description,
      State: 'ENABLED',
      FlexibleTimeWindow: { Mode: 'FLEXIBLE', MaximumWindowInMinutes: RECURRING_WINDOW_MINUTES },
      Target: {
        Arn: localLambdaArn('schedule-target', region),
        RoleArn: `arn:aws:iam::000000000000:role/${schedulerGroup}-scheduler-invoke`,
        Input: JSON.stringify(recurring.input),
        RetryPolicy: { MaximumRetryAttempts: RECURRING_RETRY.maximumRetryAttempts, MaximumEventAgeInSeconds: RECURRING_RETRY.maximumEventAgeInSeconds },
      },
    });
  }

  // The sandbox carrier publishes to the worker the stack subscribes to the SMS topic (the schedule target).
  const carrier = createLocalCarrier({
    dataDir: opts.dataDir,
    region,
    accountId: '000000000000',
    originationNumbers: opts.smsOriginationNumbers ?? [],
    topicArn: `arn:aws:sns:${region}:000000000000:tidewell-${opts.slug}-sms`,
    publish: async (event) => {
      const handler = await resolveLambda('schedule-target');
      await handler(event);
    },
  });
  runtime.onRequest('/local/sms-voice', (req, res) => carrier.handleApi(req, res));
  runtime.onRequest('/local/carrier', (req, res) => carrier.handleUi(req, res));
  runtime.onStop(() => carrier.stop());
  const localOrigin = new URL(outputs.graphqlUrl);
  localOrigin.hostname = '127.0.0.1';

  Object.assign(process.env, {
    SFN_ENDPOINT: sfnApi.endpoint,
    TRANSCRIPTION_STATE_MACHINE_ARN: stepFunctions.stateMachineArn(stateMachineName),
    FHIR_EXPORT_STATE_MACHINE_ARN: stepFunctions.stateMachineArn(fhirExportMachineName),
    SCHEDULER_ENDPOINT: scheduler.endpoint,
    SCHEDULER_GROUP: `tidewell-${opts.slug}`,
    SCHEDULER_TARGET_ARN: localLambdaArn('schedule-target', region),
    SCHEDULER_ROLE_ARN: `arn:aws:iam::000000000000:role/tidewell-${opts.slug}-scheduler-invoke`,
    SMS_VOICE_ENDPOINT: `${localOrigin.origin}/local/sms-voice`,
    SMS_CONFIGURATION_SET: `tidewell-${opts.slug}-sms`,
  });

  return {
    realtime,
    stepFunctions,
    scheduler,
    sfnEndpoint: sfnApi.endpoint,
    transcriptionStateMachineArn: stepFunctions.stateMachineArn(stateMachineName),
    fhirExportStateMachineArn: stepFunctions.stateMachineArn(fhirExportMachineName),
    schedulerGroup: `tidewell-${opts.slug}`,
    smsVoiceEndpoint: `${localOrigin.origin}/local/sms-voice`,
  };
}
