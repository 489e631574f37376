/**
 * Bedrock's Converse API, asked for structured output through a forced tool call: the model must
 * answer by calling the one tool given (toolChoice), whose input schema is the JSON shape wanted.
 * The model id and region are the practice's (practices/<slug>.json ai). Only the worker loads this.
 */
import { ConverseCommand, type BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';

export interface StructuredRequest {
  system: string;
  prompt: string;
  tool: { name: string; description: string; inputSchema: Record<string, unknown> };
  maxTokens?: number;
}

export class ModelAnsweredWithoutTool extends Error {
  constructor(tool: string, stopReason: string | undefined) {
    super(`The model did not call ${tool} (stop reason ${stopReason ?? 'none'})`);
    this.name = 'ModelAnsweredWithoutTool';
  }
}

export class BedrockConverse {
  constructor(
    private readonly client: BedrockRuntimeClient,
    readonly modelId: string,
  ) {}

  async structured<T>(request: StructuredRequest): Promise<T> {
    const out = await this.client.send(
      new ConverseCommand({
        modelId: this.modelId,
        system: [{ text: request.system }],
        messages: [{ role: 'user', content: [{ text: request.prompt }] }],
        inferenceConfig: { maxTokens: request.maxTokens ?? 4096, temperature: 0 },
        toolConfig: {
          tools: [{ toolSpec: { name: request.tool.name, description: request.tool.description, inputSchema: { json: request.tool.inputSchema as never } } }],
          toolChoice: { tool: { name: request.tool.name } },
        },
      }),
    );
    const use = out.output?.message?.content?.find((block) => block.toolUse?.name === request.tool.name)?.toolUse;
    if (!use) throw new ModelAnsweredWithoutTool(request.tool.name, out.stopReason);
    return use.input as T;
  }
}
