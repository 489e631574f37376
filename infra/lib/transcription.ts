import { Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { NagSuppressions } from 'cdk-nag';
import type { PracticeAi } from '../config/practice-config.js';
import { grantTableReadWrite, tidewellFunction } from './lambda-function.js';
import type { Logging } from './logging.js';
import { INLINE_POLICY_REASON } from './nag.js';
import { TRANSCRIPTION_WORKER_ENTRY, transcriptionDefinition } from './transcription/transcription-definition.js';

export interface TranscriptionProps {
  slug: string;
  practiceId: string;
  table: dynamodb.ITable;
  filesBucketName: string;
  logging: Logging;
  /** practices/<slug>.json ai: the Bedrock model; without it runs fail with a message naming the setting. */
  ai?: PracticeAi;
  /** Object read/write on the files bucket (recordings in, joined audio and results out; Transcribe reads with this role). */
  grantFiles: (fn: NodejsFunction) => void;
}

/** Bedrock resources a model id needs: a cross-region inference profile (us./eu./apac. prefix) also needs its foundation model in every region it routes to. */
export function bedrockModelArns(stack: Stack, modelId: string, region: string): string[] {
  if (/^(us|eu|apac|us-gov|global)\./.test(modelId)) {
    const model = modelId.slice(modelId.indexOf('.') + 1);
    return [
      `arn:${stack.partition}:bedrock:${region}:${stack.account}:inference-profile/${modelId}`,
      `arn:${stack.partition}:bedrock:*::foundation-model/${model}`,
    ];
  }
  return [`arn:${stack.partition}:bedrock:${region}::foundation-model/${modelId}`];
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
      // Joining a 90 minute recording holds about 45 MB; a Converse call over a long transcript takes a minute or two.
      timeoutSeconds: 300,
      memoryMb: 1024,
      environment: {
        TABLE_NAME: props.table.tableName,
        PRACTICE_ID: props.practiceId,
        FILES_BUCKET: props.filesBucketName,
        TRANSCRIPTION_ENGINE: 'aws',
        ...(props.ai ? { BEDROCK_MODEL_ID: props.ai.modelId, BEDROCK_REGION: props.ai.region ?? Stack.of(this).region } : {}),
      },
    });
    grantTableReadWrite(this.worker, props.table);
    props.grantFiles(this.worker);
    const stack = Stack.of(this);
    this.worker.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['transcribe:StartTranscriptionJob', 'transcribe:GetTranscriptionJob'],
        resources: [`arn:${stack.partition}:transcribe:${stack.region}:${stack.account}:transcription-job/*`],
      }),
    );
    if (props.ai) {
      this.worker.addToRolePolicy(
        new iam.PolicyStatement({ actions: ['bedrock:InvokeModel'], resources: bedrockModelArns(stack, props.ai.modelId, props.ai.region ?? stack.region) }),
      );
    }
    NagSuppressions.addResourceSuppressions(
      this.worker.role!,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason:
            'Transcription job names are made per run (transcription-job/*); a cross-region inference profile routes to its foundation model in any region (foundation-model/* of the one model).',
          appliesTo: [
            { regex: '/^Resource::arn:(<AWS::Partition>|aws[a-z-]*):transcribe:.*transcription-job\\/\\*$/g' },
            { regex: '/^Resource::arn:(<AWS::Partition>|aws[a-z-]*):bedrock:\\*::foundation-model\\/.*$/g' },
          ],
        },
      ],
      true,
    );

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
    // Only DescribeExecution (the status check), not grantRead's list and history actions on '*'.
    this.stateMachine.grantExecution(fn, 'states:DescribeExecution');
    fn.addEnvironment('TRANSCRIPTION_STATE_MACHINE_ARN', this.stateMachine.stateMachineArn);
    NagSuppressions.addResourceSuppressions(
      fn.role!,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason: "Execution names are made per run: DescribeExecution covers this state machine's executions (execution:<name>:*) only.",
          // The partition is a token, or 'aws' once the practice config names the account and region.
          appliesTo: [{ regex: '/^Resource::arn:(<AWS::Partition>|aws[a-z-]*):states:.*:execution:.*:\\*$/g' }],
        },
      ],
      true,
    );
  }
}
