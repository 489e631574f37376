import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { transcriptionDefinition, TRANSCRIPTION_WORKER_ENTRY } from '../lib/transcription/transcription-definition.js';
import { createCognitoTokenVerifier } from './realtime/cognito-token-verifier.js';
import { attachRealtime } from './realtime/realtime-server.js';
import { startLocalScheduler } from './scheduler/local-scheduler.js';
import { createLocalStepFunctions } from './stepfunctions/execution-service.js';
import { lambdaResolver, localLambdaArn, type LambdaModule } from './stepfunctions/local-lambdas.js';
import { serveStepFunctionsApi } from './stepfunctions/sfn-http-api.js';

/** The worker Lambdas the stack deploys, by function name, mapped to the same handler modules. */
export const LOCAL_WORKERS: Record<string, LambdaModule> = {
  'schedule-target': { entry: 'functions/workers/schedule-target/handler.ts' },
  transcription: { entry: TRANSCRIPTION_WORKER_ENTRY },
};

export interface AsyncServicesOptions {
  dataDir: string;
  repoRoot: string;
  slug: string;
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
  });
  runtime.onRequest('/graphql', async (req, res) => {
    if (!(await realtime.handleHttp(req, res))) res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Not Found' }));
  });
  runtime.onStop(() => realtime.close());

  const resolveLambda = lambdaResolver(LOCAL_WORKERS, opts.repoRoot);

  const stateMachineName = `tidewell-${opts.slug}-transcription`;
  const stepFunctions = createLocalStepFunctions({
    repoRoot: opts.repoRoot,
    region,
    functions: LOCAL_WORKERS,
    stateMachines: [{ name: stateMachineName, definition: transcriptionDefinition({ worker: localLambdaArn('transcription', region) }) as never }],
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

  Object.assign(process.env, {
    APPSYNC_URL: outputs.graphqlUrl,
    APPSYNC_LOCAL_SECRET: realtime.publisherSecret,
    SFN_ENDPOINT: sfnApi.endpoint,
    TRANSCRIPTION_STATE_MACHINE_ARN: stepFunctions.stateMachineArn(stateMachineName),
    SCHEDULER_ENDPOINT: scheduler.endpoint,
    SCHEDULER_GROUP: `tidewell-${opts.slug}`,
    SCHEDULER_TARGET_ARN: localLambdaArn('schedule-target', region),
    SCHEDULER_ROLE_ARN: `arn:aws:iam::000000000000:role/tidewell-${opts.slug}-scheduler-invoke`,
  });

  return {
    realtime,
    stepFunctions,
    scheduler,
    sfnEndpoint: sfnApi.endpoint,
    transcriptionStateMachineArn: stepFunctions.stateMachineArn(stateMachineName),
    schedulerGroup: `tidewell-${opts.slug}`,
  };
}
