import { Stack } from 'aws-cdk-lib';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { NagSuppressions } from 'cdk-nag';
import type { Logging } from './logging.js';
import { INLINE_POLICY_REASON } from './nag.js';
import { fhirExportDefinition } from './fhir-export/fhir-export-definition.js';

export interface FhirExportProps {
  slug: string;
  logging: Logging;
  /** The chart group's function: it holds the FHIR mappers and runs the steps (no function of its own). */
  worker: NodejsFunction;
  /** Object read on the files bucket, for the links an admin downloads the export through. */
  grantFilesRead: (fn: NodejsFunction) => void;
}

/**
 * The whole-practice FHIR export state machine (the same ASL object the local runtime runs). Four
 * resources: the machine, its role and policy, and its log group.
 */
export class FhirExport extends Construct {
  readonly stateMachine: sfn.StateMachine;

  constructor(
    scope: Construct,
    id: string,
    private readonly props: FhirExportProps,
  ) {
    super(scope, id);
    const logGroup = props.logging.logGroup(this, 'Logs', `/aws/vendedlogs/states/tidewell-${props.slug}-fhir-export`);
    this.stateMachine = new sfn.StateMachine(this, 'StateMachine', {
      stateMachineName: `tidewell-${props.slug}-fhir-export`,
      definitionBody: sfn.DefinitionBody.fromString(Stack.of(this).toJsonString(fhirExportDefinition({ worker: props.worker.functionArn }))),
      // Every event, without payloads (the state holds ids and counts only, but a failure's cause may quote data).
      logs: { destination: logGroup, level: sfn.LogLevel.ALL, includeExecutionData: false },
      tracingEnabled: true,
    });
    props.worker.grantInvoke(this.stateMachine);
    NagSuppressions.addResourceSuppressions(
      this.stateMachine,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason:
            'CloudWatch Logs delivery and X-Ray actions support only Resource "*"; the invoke grant covers the chart function and its versions (<arn>:*) only.',
          appliesTo: ['Resource::*', { regex: '/^Resource::<.*Group-?chart.*\\.Arn>:\\*$/gi' }],
        },
        { id: 'HIPAA.Security-IAMNoInlinePolicy', reason: INLINE_POLICY_REASON },
      ],
      true,
    );
  }

  /** Lets an API group start, follow and resume exports and hand out links to their files. */
  grantStart(fn: NodejsFunction): void {
    this.stateMachine.grantStartExecution(fn);
    this.stateMachine.grantExecution(fn, 'states:DescribeExecution');
    fn.addEnvironment('FHIR_EXPORT_STATE_MACHINE_ARN', this.stateMachine.stateMachineArn);
    this.props.grantFilesRead(fn);
    NagSuppressions.addResourceSuppressions(
      fn.role!,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason: "Execution names are made per run: DescribeExecution covers this state machine's executions (execution:<name>:*) only.",
          appliesTo: [{ regex: '/^Resource::arn:(<AWS::Partition>|aws[a-z-]*):states:.*:execution:.*:\\*$/g' }],
        },
      ],
      true,
    );
  }
}
