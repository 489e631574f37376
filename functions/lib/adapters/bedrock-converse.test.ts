import { BedrockRuntimeClient, ConverseCommand } from '@aws-sdk/client-bedrock-runtime';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { BedrockConverse } from './bedrock-converse.js';

const bedrock = mockClient(BedrockRuntimeClient);
beforeEach(() => bedrock.reset());

const TOOL = {
  name: 'record_soap_note',
  description: 'Record the note',
  inputSchema: { type: 'object', properties: { sections: { type: 'array' } }, required: ['sections'] },
};

describe('Bedrock Converse adapter', () => {
  it('forces the one tool (toolConfig + toolChoice) and returns the input of the toolUse block', async () => {
    bedrock.on(ConverseCommand).resolves({
      output: {
        message: {
          role: 'assistant',
          content: [
            {
              toolUse: {
                toolUseId: 'tooluse_1',
                name: 'record_soap_note',
                input: { sections: [{ heading: 'Plan', sentences: [{ text: 'Start ibuprofen.', segmentIds: ['seg-4'] }] }] },
              },
            },
          ],
        },
      },
      stopReason: 'tool_use',
      usage: { inputTokens: 812, outputTokens: 95, totalTokens: 907 },
      metrics: { latencyMs: 1830 },
    });
    const converse = new BedrockConverse(new BedrockRuntimeClient({ region: 'us-east-1' }), 'us.anthropic.claude-3-5-haiku-20241022-v1:0');
    const answer = await converse.structured({ system: 'You write SOAP notes.', prompt: 'Transcript:\n[seg-4] Speaker 1: start ibuprofen', tool: TOOL });

    expect(answer).toEqual({ sections: [{ heading: 'Plan', sentences: [{ text: 'Start ibuprofen.', segmentIds: ['seg-4'] }] }] });
    expect(bedrock.commandCalls(ConverseCommand)[0].args[0].input).toEqual({
      modelId: 'us.anthropic.claude-3-5-haiku-20241022-v1:0',
      system: [{ text: 'You write SOAP notes.' }],
      messages: [{ role: 'user', content: [{ text: 'Transcript:\n[seg-4] Speaker 1: start ibuprofen' }] }],
      inferenceConfig: { maxTokens: 4096, temperature: 0 },
      toolConfig: {
        tools: [{ toolSpec: { name: 'record_soap_note', description: 'Record the note', inputSchema: { json: TOOL.inputSchema } } }],
        toolChoice: { tool: { name: 'record_soap_note' } },
      },
    });
  });

  it('refuses an answer without the tool call by name', async () => {
    bedrock.on(ConverseCommand).resolves({ output: { message: { role: 'assistant', content: [{ text: 'Here is your note.' }] } }, stopReason: 'end_turn' });
    const converse = new BedrockConverse(new BedrockRuntimeClient({ region: 'us-east-1' }), 'model');
    await expect(converse.structured({ system: 's', prompt: 'p', tool: TOOL })).rejects.toMatchObject({ name: 'ModelAnsweredWithoutTool' });
  });
});
