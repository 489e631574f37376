import { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { BedrockConverse } from '../../../lib/adapters/bedrock-converse.js';
import { ModelNoteWriter } from './model-note-writer.js';

export class BedrockNoteWriter extends ModelNoteWriter {
  constructor(converse: BedrockConverse) {
    super({ kind: 'bedrock', local: false, label: `Amazon Bedrock (${converse.modelId})`, model: converse.modelId }, (prompt, schema, userText) =>
      converse.structured({ system: prompt.system, prompt: userText, tool: { ...prompt.tool, inputSchema: schema } }),
    );
  }

  static async fromEnv(env: NodeJS.ProcessEnv): Promise<BedrockNoteWriter> {
    const region = env.BEDROCK_REGION || env.AWS_REGION || 'us-east-1';
    return new BedrockNoteWriter(new BedrockConverse(new BedrockRuntimeClient({ region }), env.BEDROCK_MODEL_ID ?? ''));
  }
}
