/**
 * The two stacks of a practice, as the CDK app names them, and what the CLI reads back from
 * CloudFormation: state, the version tag written at deploy, and the data stack's outputs.
 */
import { DescribeStackResourcesCommand, DescribeStacksCommand, type CloudFormationClient, type Stack } from '@aws-sdk/client-cloudformation';

/** Holds what must outlive any release (table, buckets, pool, keys); deployed first. */
export const dataStackName = (slug: string) => `Tidewell-${slug}-data`;
/** Everything else; takes the data stack's resources by reference; deployed second. */
export const appStackName = (slug: string) => `Tidewell-${slug}-app`;

/** The stack tag `-c version=<sha>@<date>` writes on both stacks. */
export const VERSION_TAG = 'tidewell:version';

export interface StackState {
  name: string;
  /** CloudFormation's StackStatus, such as UPDATE_COMPLETE. */
  status: string;
  /** The `tidewell:version` tag, null when the stack carries none (deployed without the CLI). */
  version: string | null;
  outputs: Record<string, string>;
  /** arn:aws:cloudformation:<region>:<account>:stack/<name>/<id> */
  stackId: string;
  terminationProtection: boolean;
}

function stateOf(stack: Stack): StackState {
  return {
    name: stack.StackName ?? '',
    status: stack.StackStatus ?? 'UNKNOWN',
    version: stack.Tags?.find((t) => t.Key === VERSION_TAG)?.Value ?? null,
    outputs: Object.fromEntries((stack.Outputs ?? []).map((o) => [o.OutputKey ?? '', o.OutputValue ?? ''])),
    stackId: stack.StackId ?? '',
    terminationProtection: stack.EnableTerminationProtection === true,
  };
}

/** The stack, or null when CloudFormation has none of that name (never deployed, or deleted). */
export async function readStack(cfn: CloudFormationClient, name: string): Promise<StackState | null> {
  try {
    const { Stacks } = await cfn.send(new DescribeStacksCommand({ StackName: name }));
    const stack = Stacks?.[0];
    return stack && stack.StackStatus !== 'DELETE_COMPLETE' ? stateOf(stack) : null;
  } catch (e) {
    // CloudFormation answers a missing stack with a ValidationError "Stack with id … does not exist".
    if ((e as { name?: string }).name === 'ValidationError' && /does not exist/.test((e as Error).message)) return null;
    throw e;
  }
}

export interface DataResources {
  userPoolId: string;
  tableName: string;
  /** arn:aws:dynamodb:<region>:<account>:table/<name>, for AWS Backup's recovery points. */
  tableArn: string;
}

/** Output keys the data stack exports; a stack without them is read through its resources. */
export const DATA_OUTPUTS = { userPoolId: 'userPoolId', tableName: 'tableName' } as const;

/**
 * The pool id and table name of a deployed data stack, from its outputs (DescribeStacks), else
 * from its resources by type (DescribeStackResources), so a data stack deployed before the
 * outputs existed is still found.
 */
export async function dataResources(cfn: CloudFormationClient, stack: StackState): Promise<DataResources> {
  let userPoolId = stack.outputs[DATA_OUTPUTS.userPoolId];
  let tableName = stack.outputs[DATA_OUTPUTS.tableName];
  if (!userPoolId || !tableName) {
    const { StackResources } = await cfn.send(new DescribeStackResourcesCommand({ StackName: stack.name }));
    const physical = (type: string) => (StackResources ?? []).filter((r) => r.ResourceType === type).map((r) => r.PhysicalResourceId ?? '');
    const pools = physical('AWS::Cognito::UserPool');
    const tables = physical('AWS::DynamoDB::Table');
    userPoolId ||= pools.length === 1 ? pools[0] : '';
    tableName ||= tables.length === 1 ? tables[0] : '';
  }
  if (!userPoolId)
    throw new Error(`${stack.name} has no user pool: no "${DATA_OUTPUTS.userPoolId}" output and not exactly one AWS::Cognito::UserPool resource.`);
  if (!tableName) throw new Error(`${stack.name} has no table: no "${DATA_OUTPUTS.tableName}" output and not exactly one AWS::DynamoDB::Table resource.`);
  const [, , , region, account] = stack.stackId.split(':');
  const partition = stack.stackId.split(':')[1] || 'aws';
  return { userPoolId, tableName, tableArn: `arn:${partition}:dynamodb:${region}:${account}:table/${tableName}` };
}
