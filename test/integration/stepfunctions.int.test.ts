import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ExecutionDoesNotExist } from '@aws-sdk/client-sfn';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workflowAdapterFromEnv, type WorkflowAdapter, type WorkflowExecution } from '../../functions/lib/adapters/workflow.js';
import { createLocalStepFunctions, type LocalStepFunctions } from '../../infra/local/stepfunctions/execution-service.js';
import { localLambdaArn } from '../../infra/local/stepfunctions/local-lambdas.js';
import { serveStepFunctionsApi } from '../../infra/local/stepfunctions/sfn-http-api.js';

const REPO_ROOT = resolve(import.meta.dirname, '../..');
const DEFINITION = readFileSync(resolve(REPO_ROOT, 'test/fixtures/stepfunctions/double-machine.asl.json'), 'utf8');

describe('local Step Functions behind the workflow adapter', () => {
  let service: LocalStepFunctions;
  let api: Awaited<ReturnType<typeof serveStepFunctionsApi>>;
  let workflow: WorkflowAdapter;
  let machineArn: string;

  async function runToEnd(input: object, name?: string): Promise<WorkflowExecution> {
    const { executionArn } = await workflow.start({ stateMachineArn: machineArn, input, name });
    await service.waitForExecution(executionArn);
    return workflow.describe(executionArn);
  }

  beforeAll(async () => {
    service = createLocalStepFunctions({
      repoRoot: REPO_ROOT,
      region: 'us-east-1',
      // The same definition text the stack would deploy, with CDK-style substitutions.
      stateMachines: [{ name: 'double', definition: DEFINITION, substitutions: { DoubleFunctionArn: localLambdaArn('DoubleFunction', 'us-east-1') } }],
      functions: { DoubleFunction: { entry: 'test/fixtures/stepfunctions/flaky-step.ts' } },
    });
    api = await serveStepFunctionsApi(service);
    workflow = workflowAdapterFromEnv({ SFN_ENDPOINT: api.endpoint, AWS_REGION: 'us-east-1' });
    machineArn = service.stateMachineArn('double');
  });

  afterAll(async () => {
    await service?.stop();
    await api?.close();
  });

  it('retries a transient Lambda error, then takes the Choice branch the result selects', async () => {
    const { executionArn } = await workflow.start({ stateMachineArn: machineArn, input: { key: 'retry', value: 60, failTimes: 2 } });
    expect((await workflow.describe(executionArn)).status).toBe('RUNNING');

    await service.waitForExecution(executionArn);
    const execution = await workflow.describe(executionArn);

    expect(execution).toMatchObject({ executionArn, status: 'SUCCEEDED', output: { size: 'big', doubled: 120, attempts: 3 } });
    expect(execution.stopDate!.getTime() - execution.startDate.getTime()).toBeGreaterThanOrEqual(2500); // 1 s + 2 s backoff
    const retries = service.executionEvents(executionArn).filter((e) => e.type === 'StateRetried');
    expect(retries).toHaveLength(2);
  });

  it('takes the default branch without retrying when the first call succeeds', async () => {
    const execution = await runToEnd({ key: 'small', value: 3 });
    expect(execution).toMatchObject({ status: 'SUCCEEDED', output: { size: 'small', doubled: 6, attempts: 1 } });
  });

  it('catches a permanent Lambda error with its Lambda-style error and cause', async () => {
    const execution = await runToEnd({ key: 'permanent', value: 1, permanent: true });
    expect(execution.status).toBe('SUCCEEDED');
    const output = execution.output as { size: string; error: string; cause: string };
    expect(output.size).toBe('none');
    expect(output.error).toBe('PermanentError');
    expect(JSON.parse(output.cause)).toMatchObject({ errorType: 'PermanentError', errorMessage: 'cannot process permanent' });
  });

  it('treats a repeated start with the same name and input as the same execution, and rejects unknown executions', async () => {
    const first = await workflow.start({ stateMachineArn: machineArn, input: { key: 'same', value: 1 }, name: 'same-name' });
    const second = await workflow.start({ stateMachineArn: machineArn, input: { key: 'same', value: 1 }, name: 'same-name' });
    expect(second.executionArn).toBe(first.executionArn);
    await expect(workflow.start({ stateMachineArn: machineArn, input: { key: 'other', value: 1 }, name: 'same-name' })).rejects.toMatchObject({
      name: 'ExecutionAlreadyExists',
    });
    await expect(workflow.describe(`${first.executionArn}-missing`)).rejects.toBeInstanceOf(ExecutionDoesNotExist);
  });
});
