import { DescribeExecutionCommand, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { SfnWorkflowAdapter } from './workflow.js';

const sfnMock = mockClient(SFNClient);
const MACHINE = 'arn:aws:states:us-east-1:123456789012:stateMachine:transcription';
const EXECUTION = 'arn:aws:states:us-east-1:123456789012:execution:transcription:note-n1';

describe('SfnWorkflowAdapter', () => {
  beforeEach(() => sfnMock.reset());

  it('starts an execution with the input as JSON text and the idempotency name', async () => {
    const startDate = new Date('2025-03-01T10:00:00Z');
    sfnMock.on(StartExecutionCommand).resolves({ executionArn: EXECUTION, startDate });

    const started = await new SfnWorkflowAdapter(new SFNClient({ region: 'us-east-1' })).start({
      stateMachineArn: MACHINE,
      input: { noteId: 'n1', recordingKey: 'rec/n1.webm' },
      name: 'note-n1',
    });

    expect(sfnMock.commandCalls(StartExecutionCommand)[0].args[0].input).toEqual({
      stateMachineArn: MACHINE,
      input: '{"noteId":"n1","recordingKey":"rec/n1.webm"}',
      name: 'note-n1',
    });
    expect(started).toEqual({ executionArn: EXECUTION, startDate });
  });

  it('describes an execution with its parsed output, or its error and cause', async () => {
    sfnMock
      .on(DescribeExecutionCommand, { executionArn: EXECUTION })
      .resolves({
        executionArn: EXECUTION,
        stateMachineArn: MACHINE,
        status: 'SUCCEEDED',
        startDate: new Date(1),
        stopDate: new Date(2),
        output: '{"noteId":"n1"}',
      })
      .on(DescribeExecutionCommand, { executionArn: `${EXECUTION}-x` })
      .resolves({ executionArn: `${EXECUTION}-x`, stateMachineArn: MACHINE, status: 'FAILED', startDate: new Date(1), error: 'TransientError', cause: 'boom' });
    const adapter = new SfnWorkflowAdapter(new SFNClient({ region: 'us-east-1' }));

    expect(await adapter.describe(EXECUTION)).toEqual({
      executionArn: EXECUTION,
      status: 'SUCCEEDED',
      startDate: new Date(1),
      stopDate: new Date(2),
      output: { noteId: 'n1' },
    });
    expect(await adapter.describe(`${EXECUTION}-x`)).toMatchObject({ status: 'FAILED', error: 'TransientError', cause: 'boom' });
    expect(sfnMock.commandCalls(DescribeExecutionCommand).map((c) => c.args[0].input)).toEqual([
      { executionArn: EXECUTION },
      { executionArn: `${EXECUTION}-x` },
    ]);
  });
});
