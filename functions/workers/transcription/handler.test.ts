import { describe, expect, it } from 'vitest';
import { handler } from './handler.js';

const state = { practiceId: 'prc_demo_tidewell', transcriptionId: 'trn_1' };

describe('transcription worker', () => {
  it('refuses to start a transcription while Transcribe is not configured', async () => {
    await expect(handler({ step: 'startTranscription', state })).rejects.toMatchObject({ name: 'TranscriptionNotConfigured' });
  });

  it('refuses to poll a transcription while Transcribe is not configured', async () => {
    await expect(handler({ step: 'checkTranscription', state })).rejects.toMatchObject({ name: 'TranscriptionNotConfigured' });
  });

  it('refuses to generate a note while Bedrock is not configured', async () => {
    await expect(handler({ step: 'generateNote', state })).rejects.toMatchObject({ name: 'NoteGenerationNotConfigured' });
  });

  it('records a failure and marks the state FAILED', async () => {
    const result = await handler({ step: 'recordFailure', state: { ...state, error: { Error: 'TranscriptionNotConfigured' } } });
    expect(result).toEqual({ ...state, error: { Error: 'TranscriptionNotConfigured' }, transcriptionStatus: 'FAILED' });
  });

  it('rejects an unknown step by name', async () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    await expect(handler({ step: 'transcribeFaster' as any, state })).rejects.toMatchObject({ name: 'UnknownTranscriptionStep' });
  });
});
