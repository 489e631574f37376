import { OpenAiCompatible } from '../../../lib/adapters/openai-compatible.js';
import { ModelNoteWriter } from './model-note-writer.js';

/** The JSON is asked for in words (response_format json_object), with the schema the Bedrock tool uses. */
export class OpenAiCompatibleNoteWriter extends ModelNoteWriter {
  constructor(baseUrl: string, model: string, apiKey?: string, fetchFn?: typeof fetch) {
    const endpoint = new OpenAiCompatible(baseUrl, model, apiKey, fetchFn);
    super({ kind: 'openai-compatible', local: true, label: `Local model ${model} (OpenAI-compatible endpoint)`, model }, (prompt, schema, userText) =>
      endpoint.json(`${prompt.system}\nAnswer with one JSON object matching this JSON Schema:\n${JSON.stringify(schema)}`, userText),
    );
  }
}
