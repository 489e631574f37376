import './with-resolvers-polyfill.js';
import { randomUUID } from 'node:crypto';
import { StateMachine, type StateMachineDefinition } from 'aws-local-stepfunctions';
import { LOCAL_ACCOUNT_ID, lambdaResolver, type LambdaHandler, type LambdaModule } from './local-lambdas.js';

export const LAMBDA_INVOKE = 'arn:aws:states:::lambda:invoke';

export interface LocalStateMachineSpec {
  name: string;
  /** The ASL (JSONPath) the stack deploys, as an object or JSON text. */
  definition: StateMachineDefinition | string;
  /** `${Key}` placeholders in the definition, as CDK's definitionSubstitutions fill them. */
  substitutions?: Record<string, string>;
}

export interface LocalStepFunctionsOptions {
  stateMachines: LocalStateMachineSpec[];
  /** Lambda function name → handler module (or a function, in tests). */
  functions: Record<string, LambdaModule | LambdaHandler>;
  repoRoot: string;
  region?: string;
}

export type ExecutionStatus = 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT' | 'ABORTED';

/** DescribeExecution's output shape (@aws-sdk/client-sfn). */
export interface ExecutionDescription {
  executionArn: string;
  stateMachineArn: string;
  name: string;
  status: ExecutionStatus;
  startDate: Date;
  stopDate?: Date;
  input: string;
  output?: string;
  error?: string;
  cause?: string;
}

interface ExecutionRecord {
  description: ExecutionDescription;
  events: { type: string; [key: string]: unknown }[];
  done: Promise<void>;
  abort: () => void;
}

export class SfnServiceError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

export function substitute(definition: StateMachineDefinition | string, substitutions: Record<string, string> = {}): StateMachineDefinition {
  let text = typeof definition === 'string' ? definition : JSON.stringify(definition);
  for (const [key, value] of Object.entries(substitutions)) text = text.split(`\${${key}}`).join(value);
  return JSON.parse(text) as StateMachineDefinition;
}

type AnyState = {
  Type: string;
  Resource?: string;
  Branches?: { States: Record<string, AnyState> }[];
  Iterator?: { States: Record<string, AnyState> };
  ItemProcessor?: { States: Record<string, AnyState> };
};

function taskStates(states: Record<string, AnyState>): [string, AnyState][] {
  return Object.entries(states).flatMap(([name, state]) => [
    ...(state.Type === 'Task' ? ([[name, state]] as [string, AnyState][]) : []),
    ...(state.Branches ?? []).flatMap((b) => taskStates(b.States)),
    ...(state.Iterator ? taskStates(state.Iterator.States) : []),
    ...(state.ItemProcessor ? taskStates(state.ItemProcessor.States) : []),
  ]);
}

/** How the Lambda runtime reports a thrown error: errorType is the error's name. */
function lambdaError(error: unknown): Error {
  const original = error instanceof Error ? error : new Error(String(error));
  const reported = new Error(JSON.stringify({ errorType: original.name, errorMessage: original.message, trace: [] }));
  reported.name = original.name;
  return reported;
}

/**
 * Runs the deployed state machine definitions in-process on aws-local-stepfunctions, with
 * StartExecution/DescribeExecution in the shapes of @aws-sdk/client-sfn. Lambda tasks (the
 * lambda:invoke integration or a function ARN as Resource) run the mapped handler modules.
 * Executions live in memory: a restart forgets them, as the stand-in has no persistence.
 */
export function createLocalStepFunctions(opts: LocalStepFunctionsOptions) {
  const region = opts.region ?? process.env.AWS_REGION ?? 'us-east-1';
  const resolveLambda = lambdaResolver(opts.functions, opts.repoRoot);
  const machines = new Map<string, { name: string; definition: StateMachineDefinition }>();
  const executions = new Map<string, ExecutionRecord>();

  const stateMachineArn = (name: string) => `arn:aws:states:${region}:${LOCAL_ACCOUNT_ID}:stateMachine:${name}`;
  for (const spec of opts.stateMachines)
    machines.set(stateMachineArn(spec.name), { name: spec.name, definition: substitute(spec.definition, spec.substitutions) });

  function overrides(definition: StateMachineDefinition) {
    const handlers: Record<string, (input: never) => Promise<unknown>> = {};
    for (const [stateName, state] of taskStates(definition.States as unknown as Record<string, AnyState>)) {
      const resource = state.Resource ?? '';
      if (resource === LAMBDA_INVOKE) {
        handlers[stateName] = (async (input: { FunctionName: string; Payload?: unknown }) => {
          const handler = await resolveLambda(input.FunctionName);
          try {
            const payload = await handler(input.Payload ?? {}, { functionName: input.FunctionName });
            return { ExecutedVersion: '$LATEST', Payload: payload ?? null, StatusCode: 200 };
          } catch (error) {
            throw lambdaError(error);
          }
        }) as never;
      } else if (resource.startsWith('arn:aws:lambda:')) {
        handlers[stateName] = (async (input: unknown) => {
          const handler = await resolveLambda(resource);
          try {
            return (await handler(input, { functionName: resource })) ?? null;
          } catch (error) {
            throw lambdaError(error);
          }
        }) as never;
      } else {
        handlers[stateName] = (async () => {
          throw new SfnServiceError('States.TaskFailed', `The local runtime does not run ${resource}`);
        }) as never;
      }
    }
    return handlers as unknown as Record<string, (input: unknown) => Promise<never>>;
  }

  async function startExecution(input: { stateMachineArn: string; input?: string; name?: string }): Promise<{ executionArn: string; startDate: Date }> {
    const machine = machines.get(input.stateMachineArn);
    if (!machine) throw new SfnServiceError('StateMachineDoesNotExist', `State Machine Does Not Exist: '${input.stateMachineArn}'`);
    const name = input.name ?? randomUUID();
    const executionArn = `arn:aws:states:${region}:${LOCAL_ACCOUNT_ID}:execution:${machine.name}:${name}`;
    const rawInput = input.input ?? '{}';
    const existing = executions.get(executionArn);
    if (existing) {
      // StartExecution is idempotent for the same name and input.
      if (existing.description.input === rawInput) return { executionArn, startDate: existing.description.startDate };
      throw new SfnServiceError('ExecutionAlreadyExists', `Execution Already Exists: '${executionArn}'`);
    }
    let parsedInput: unknown;
    try {
      parsedInput = JSON.parse(rawInput);
    } catch {
      throw new SfnServiceError('InvalidExecutionInput', 'Invalid State Machine Execution Input: not valid JSON');
    }
    const startDate = new Date();
    const description: ExecutionDescription = { executionArn, stateMachineArn: input.stateMachineArn, name, status: 'RUNNING', startDate, input: rawInput };
    const run = new StateMachine(machine.definition, { validationOptions: { checkArn: false } }).run(parsedInput as never, {
      overrides: { taskResourceLocalHandlers: overrides(machine.definition) },
      context: {
        Execution: { Id: executionArn, Name: name, StartTime: startDate.toISOString(), Input: parsedInput as never },
        StateMachine: { Id: input.stateMachineArn, Name: machine.name },
      },
    });
    const record: ExecutionRecord = { description, events: [], abort: run.abort, done: Promise.resolve() };
    const collectEvents = (async () => {
      for await (const event of run.eventLogs) record.events.push(event as unknown as ExecutionRecord['events'][number]);
    })().catch(() => undefined);
    record.done = run.result
      .then(
        (output) => {
          Object.assign(description, { status: 'SUCCEEDED', output: JSON.stringify(output), stopDate: new Date() });
        },
        async (error: Error) => {
          // The event log may still be draining when the result rejects.
          await collectEvents;
          const failed = [...record.events].reverse().find((e) => e.type === 'ExecutionFailed') as { Error?: string; Cause?: unknown } | undefined;
          const timedOut = error.name === 'ExecutionTimeoutError';
          const aborted = error.name === 'ExecutionAbortedError';
          // The engine wraps a Fail state's or a task's error; DescribeExecution reports the inner one.
          const inner = (error as Error & { cause?: unknown }).cause;
          const reported = inner instanceof Error ? inner : error;
          Object.assign(description, {
            status: timedOut ? 'TIMED_OUT' : aborted ? 'ABORTED' : 'FAILED',
            error: failed?.Error ?? (timedOut ? 'States.Timeout' : reported.name),
            cause: typeof failed?.Cause === 'string' ? failed.Cause : failed?.Cause !== undefined ? JSON.stringify(failed.Cause) : reported.message,
            stopDate: new Date(),
          });
        },
      )
      .then(() => collectEvents);
    executions.set(executionArn, record);
    return { executionArn, startDate };
  }

  async function describeExecution(input: { executionArn: string }): Promise<ExecutionDescription> {
    const record = executions.get(input.executionArn);
    if (!record) throw new SfnServiceError('ExecutionDoesNotExist', `Execution Does Not Exist: '${input.executionArn}'`);
    return { ...record.description };
  }

  return {
    stateMachineArn,
    startExecution,
    describeExecution,
    /** Resolves when the execution has stopped; for tests and the runtime's shutdown. */
    async waitForExecution(executionArn: string): Promise<ExecutionDescription> {
      const record = executions.get(executionArn);
      if (!record) throw new SfnServiceError('ExecutionDoesNotExist', `Execution Does Not Exist: '${executionArn}'`);
      await record.done;
      return { ...record.description };
    },
    /** The execution's event history (StateEntered, StateRetried, StateCaught, ...). */
    executionEvents(executionArn: string) {
      return [...(executions.get(executionArn)?.events ?? [])];
    },
    async stop(): Promise<void> {
      for (const record of executions.values()) if (record.description.status === 'RUNNING') record.abort();
      await Promise.all([...executions.values()].map((r) => r.done.catch(() => undefined)));
    },
  };
}

export type LocalStepFunctions = ReturnType<typeof createLocalStepFunctions>;
