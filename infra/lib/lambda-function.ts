import { Duration } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { existsSync } from 'node:fs';
import { Construct } from 'constructs';
import { NagSuppressions } from 'cdk-nag';
import { suppressGuardRules } from './guard.js';
import type { Logging } from './logging.js';
import { cdkBundling, LAMBDA_NODE_OPTIONS } from './lambda-bundling.js';
import { INLINE_POLICY_REASON } from './nag.js';
import { repoPath, REPO_ROOT } from './paths.js';

export interface TidewellFunctionProps {
  /** Handler module relative to the repository root; it exports `handler`. */
  entry: string;
  logging: Logging;
  environment: Record<string, string>;
  memoryMb?: number;
  timeoutSeconds?: number;
  description?: string;
}

/** Why no group function runs in a VPC (cdk-nag's HIPAA pack and Control Tower's CT.LAMBDA.PR.3 both ask). */
const NO_VPC_REASON =
  'The function talks only to regional AWS APIs over TLS with IAM auth (DynamoDB, S3, AppSync, Scheduler); it reaches no VPC resource, so a VPC (subnets, endpoints or NAT: a dozen stack resources and an hourly cost per practice) would isolate nothing.';

/**
 * A Node.js 22 Lambda (arm64, X-Ray) bundled by esbuild from a handler module, with its own
 * encrypted log group and a role that starts with nothing but writes to that log group.
 */
export function tidewellFunction(scope: Construct, id: string, props: TidewellFunctionProps): NodejsFunction {
  const entry = repoPath(props.entry);
  if (!existsSync(entry)) throw new Error(`Handler module ${props.entry} does not exist (function ${id})`);

  const logGroup = props.logging.logGroup(scope, `${id}Logs`);
  const role = new iam.Role(scope, `${id}Role`, {
    assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
    description: `Runs ${props.entry}`,
  });
  logGroup.grantWrite(role);

  const fn = new NodejsFunction(scope, id, {
    entry,
    handler: 'handler',
    description: props.description ?? props.entry,
    runtime: lambda.Runtime.NODEJS_22_X,
    architecture: lambda.Architecture.ARM_64,
    memorySize: props.memoryMb ?? 512,
    timeout: Duration.seconds(props.timeoutSeconds ?? 29),
    tracing: lambda.Tracing.ACTIVE,
    role,
    logGroup,
    projectRoot: REPO_ROOT,
    depsLockFilePath: repoPath('package-lock.json'),
    environment: { NODE_OPTIONS: LAMBDA_NODE_OPTIONS, ...props.environment },
    bundling: cdkBundling(entry),
  });

  NagSuppressions.addResourceSuppressions(fn, [
    {
      id: 'AwsSolutions-L1',
      reason:
        'Pinned to nodejs22.x: the bundles target Node 22 and the AWS SDK v3 line in the lockfile supports it; a runtime bump is a deliberate, tested change.',
    },
    {
      id: 'HIPAA.Security-LambdaDLQ',
      reason:
        'Invoked synchronously (API Gateway, Step Functions, Scheduler with its own DLQ) or by a stream event source mapping with its own on-failure queue: a function DLQ would never receive anything.',
    },
    {
      id: 'HIPAA.Security-LambdaInsideVPC',
      reason: NO_VPC_REASON,
    },
    {
      id: 'HIPAA.Security-LambdaConcurrency',
      reason: 'Load is bounded by the HTTP API stage throttle; reserving concurrency per function would starve the other groups of the same account.',
    },
  ]);
  suppressGuardRules(fn, [{ rule: 'lambda_inside_vpc_check', reason: `CT.LAMBDA.PR.3: ${NO_VPC_REASON}` }]);
  // X-Ray's PutTraceSegments has no resource-level permissions.
  NagSuppressions.addResourceSuppressions(
    role,
    [
      {
        id: 'AwsSolutions-IAM5',
        reason:
          'X-Ray tracing actions (xray:PutTraceSegments, xray:PutTelemetryRecords) support only Resource "*"; log writes are scoped to the function log group and its streams.',
        appliesTo: ['Resource::*', { regex: '/^Resource::<.*Logs.*\\.Arn>:\\*$/g' }],
      },
      { id: 'HIPAA.Security-IAMNoInlinePolicy', reason: INLINE_POLICY_REASON },
    ],
    true,
  );
  return fn;
}

/** Read/write on the practice table (and its key) for a function made by tidewellFunction. */
export function grantTableReadWrite(fn: NodejsFunction, table: dynamodb.ITable): void {
  table.grantReadWriteData(fn);
  NagSuppressions.addResourceSuppressions(
    fn.role!,
    [
      {
        id: 'AwsSolutions-IAM5',
        // The table is the data stack's: in the app stack its ARN is an import of that stack's export.
        reason:
          'Read/write on this table and its indexes only (Resource <table>/index/*); the KMS wildcard actions (GenerateDataKey*, ReEncrypt*) are scoped to the table key.',
        appliesTo: [
          { regex: '/^Resource::(<.*Table.*\\.Arn>|[A-Za-z0-9-]+:ExportsOutputFnGetAtt.*Table[0-9A-F]+Arn[0-9A-F]+)\\/index\\/\\*$/g' },
          'Action::kms:GenerateDataKey*',
          'Action::kms:ReEncrypt*',
        ],
      },
    ],
    true,
  );
}
