import { DescribeExecutionCommand, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';

export type WorkflowStatus = 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT' | 'ABORTED' | 'PENDING_REDRIVE';

export interface WorkflowExecution {
  executionArn: string;
  status: WorkflowStatus;
  startDate: Date;
  stopDate?: Date;
  /** Parsed JSON output of a succeeded execution. */
  output?: unknown;
  error?: string;
  cause?: string;
}

/** Starts and inspects state machine executions (Step Functions). */
export interface WorkflowAdapter {
  /** `name` makes the start idempotent: the same name and input return the same execution. */
  start(input: { stateMachineArn: string; input: object; name?: string }): Promise<{ executionArn: string; startDate: Date }>;
  describe(executionArn: string): Promise<WorkflowExecution>;
}

/** The two calls both implementations serve, in the shapes of @aws-sdk/client-sfn. */
export interface ExecutionApi {
  startExecution(input: { stateMachineArn: string; input?: string; name?: string }): Promise<{ executionArn?: string; startDate?: Date }>;
  describeExecution(input: { executionArn: string }): Promise<{
    executionArn?: string;
    status?: string;
    startDate?: Date;
    stopDate?: Date;
    output?: string;
    error?: string;
    cause?: string;
  }>;
}

function toExecution(out: Awaited<ReturnType<ExecutionApi['describeExecution']>>, executionArn: string): WorkflowExecution {
  return {
    executionArn: out.executionArn ?? executionArn,
    status: (out.status ?? 'RUNNING') as WorkflowStatus,
    startDate: out.startDate ?? new Date(0),
    ...(out.stopDate ? { stopDate: out.stopDate } : {}),
    ...(out.output !== undefined ? { output: JSON.parse(out.output) } : {}),
    ...(out.error !== undefined ? { error: out.error } : {}),
    ...(out.cause !== undefined ? { cause: out.cause } : {}),
  };
}

class ExecutionApiWorkflow implements WorkflowAdapter {
  constructor(private readonly api: ExecutionApi) {}

  async start({ stateMachineArn, input, name }: { stateMachineArn: string; input: object; name?: string }) {
    const out = await this.api.startExecution({ stateMachineArn, input: JSON.stringify(input), ...(name ? { name } : {}) });
    if (!out.executionArn || !out.startDate) throw new Error('StartExecution returned no execution');
    return { executionArn: out.executionArn, startDate: out.startDate };
  }

  async describe(executionArn: string) {
    return toExecution(await this.api.describeExecution({ executionArn }), executionArn);
  }
}

/** AWS Step Functions through @aws-sdk/client-sfn. */
export class SfnWorkflowAdapter extends ExecutionApiWorkflow {
  constructor(client: SFNClient) {
    super({
      startExecution: (input) => client.send(new StartExecutionCommand(input)),
      describeExecution: (input) => client.send(new DescribeExecutionCommand(input)),
    });
  }
}

/** The local execution service (infra/local/stepfunctions), called in-process. */
export class LocalWorkflowAdapter extends ExecutionApiWorkflow {}

/** SFN_ENDPOINT is set only locally, where the execution service speaks the Step Functions JSON API. */
export function workflowAdapterFromEnv(env: NodeJS.ProcessEnv = process.env): WorkflowAdapter {
  const region = env.AWS_REGION ?? 'us-east-1';
  const endpoint = env.SFN_ENDPOINT;
  return new SfnWorkflowAdapter(new SFNClient(endpoint ? { endpoint, region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : { region }));
}
