/**
 * Which engines a run uses. In AWS (TRANSCRIPTION_ENGINE=aws, set by the stack) Amazon Transcribe
 * and Bedrock's Converse API with the practice's model; locally pocketsphinx, and an
 * OpenAI-compatible endpoint when TIDEWELL_AI_BASE_URL and TIDEWELL_AI_MODEL name a language model,
 * otherwise the rule-based formatter. The AWS SDK clients load only when an AWS engine is chosen.
 */
import { LOCAL_RULES_MODEL } from '../../../lib/adapters/chat-model.js';
import { aiNotConfigured } from '../errors.js';
import { LocalRulesNoteWriter } from '../note/local-rules.js';
import type { Engines } from './engine-types.js';
import { LocalSpeechEngine } from './local-speech-engine.js';

export type { Engines, RunAudio, SpeechCheck, SpeechEngine } from './engine-types.js';

export async function enginesFromEnv(env: NodeJS.ProcessEnv = process.env): Promise<Engines> {
  if (env.TRANSCRIPTION_ENGINE === 'aws') {
    if (!env.BEDROCK_MODEL_ID) throw aiNotConfigured('Note generation (practices/<slug>.json ai.modelId)');
    const [{ TranscribeSpeechEngine }, { BedrockNoteWriter }] = await Promise.all([
      import('./transcribe-speech-engine.js'),
      import('./bedrock-note-writer.js'),
    ]);
    return { speech: await TranscribeSpeechEngine.fromEnv(env), text: await BedrockNoteWriter.fromEnv(env) };
  }
  const speech = new LocalSpeechEngine();
  // The Copilot's local rule-based assistant is no language model and writes no notes: the
  // scribe's own rule-based formatter does that job locally.
  if (env.TIDEWELL_AI_BASE_URL && env.TIDEWELL_AI_MODEL && env.TIDEWELL_AI_MODEL !== LOCAL_RULES_MODEL) {
    const { OpenAiCompatibleNoteWriter } = await import('./openai-note-writer.js');
    return { speech, text: new OpenAiCompatibleNoteWriter(env.TIDEWELL_AI_BASE_URL, env.TIDEWELL_AI_MODEL, env.TIDEWELL_AI_API_KEY) };
  }
  return { speech, text: new LocalRulesNoteWriter() };
}
