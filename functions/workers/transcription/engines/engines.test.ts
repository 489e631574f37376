import { describe, expect, it } from 'vitest';
import { LOCAL_RULES_MODEL } from '../../../lib/adapters/chat-model.js';
import { LocalRulesNoteWriter } from '../note/local-rules.js';
import { enginesFromEnv } from './engines.js';
import { OpenAiCompatibleNoteWriter } from './openai-note-writer.js';

describe('the local note writer', () => {
  it("is the rule-based formatter without a model, and with the Copilot's local rule-based assistant (no language model)", async () => {
    expect((await enginesFromEnv({})).text).toBeInstanceOf(LocalRulesNoteWriter);
    expect((await enginesFromEnv({ TIDEWELL_AI_BASE_URL: 'http://127.0.0.1:3000/local/ai/v1', TIDEWELL_AI_MODEL: LOCAL_RULES_MODEL })).text).toBeInstanceOf(
      LocalRulesNoteWriter,
    );
  });

  it('is the OpenAI-compatible endpoint when one names a language model', async () => {
    expect((await enginesFromEnv({ TIDEWELL_AI_BASE_URL: 'http://127.0.0.1:11434/v1', TIDEWELL_AI_MODEL: 'llama3.2' })).text).toBeInstanceOf(
      OpenAiCompatibleNoteWriter,
    );
  });
});
