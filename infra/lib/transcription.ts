import { Stack } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { NagSuppressions } from 'cdk-nag';
import { tidewellFunction } from './lambda-function.js';
import type { Logging } from './logging.js';
import { INLINE_POLICY_REASON } from './nag.js';
import { TRANSCRIPTION_WORKER_ENTRY, transcriptionDefinition } from './transcription/transcription-definition.js';

export interface TranscriptionProps {
  slug: string;
  practiceId: string;
  table: dynamodb.ITable;
  filesBucketName: string;
  logging: Logging;
}

/** The transcription state machine (the same ASL object the local runtime runs) and its worker. */
export class Transcription extends Construct {
  readonly stateMachine: sfn.StateMachine;
  readonly worker: NodejsFunction;

  constructor(scope: Construct, id: string, props: TranscriptionProps) {
    super(scope, id);
    this.worker = tidewellFunction(this, 'Worker', {
      entry: TRANSCRIPTION_WORKER_ENTRY,
      logging: props.logging,
      description: `Tidewell transcription steps (${props.slug})`,
      timeoutSeconds: 60,
      environment: { TABLE_NAME: props.table.tableName, PRACTICE_ID: props.practiceId, FILES_BUCKET: props.filesBucketName },
    });

    // The /aws/vendedlogs/ prefix keeps the log group's resource policy small (AWS guidance for Step Functions).
    const logGroup = props.logging.logGroup(this, 'Logs', `/aws/vendedlogs/states/tidewell-${props.slug}-transcription`);
    const definition = transcriptionDefinition({ worker: this.worker.functionArn });
    this.stateMachine = new sfn.StateMachine(this, 'StateMachine', {
      stateMachineName: `tidewell-${props.slug}-transcription`,
      definitionBody: sfn.DefinitionBody.fromString(Stack.of(this).toJsonString(definition)),
      // Execution data holds transcripts: log events, not their payloads.
      logs: { destination: logGroup, level: sfn.LogLevel.ALL, includeExecutionData: false },
      tracingEnabled: true,
    });
    this.worker.grantInvoke(this.stateMachine);

    NagSuppressions.addResourceSuppressions(
      this.stateMachine,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason:
            'CloudWatch Logs delivery (logs:CreateLogDelivery and friends) and X-Ray actions support only Resource "*"; the worker invoke grant covers the worker and its versions (<arn>:*) only.',
          appliesTo: ['Resource::*', { regex: '/^Resource::<.*Worker.*\\.Arn>:\\*$/g' }],
        },
        { id: 'HIPAA.Security-IAMNoInlinePolicy', reason: INLINE_POLICY_REASON },
      ],
      true,
    );
  }

  /** Lets an API group start and follow transcriptions. */
  grantStart(fn: NodejsFunction): void {
    this.stateMachine.grantStartExecution(fn);
    this.stateMachine.grantRead(fn);
    fn.addEnvironment('TRANSCRIPTION_STATE_MACHINE_ARN', this.stateMachine.stateMachineArn);
  }
}
