import { describe, expect, it } from 'vitest';
import { failureMessage, handler } from './handler.js';

describe('transcription worker', () => {
  it('refuses a run that names no transcription with a permanent error', async () => {
    await expect(handler({ step: 'processAudio', state: { practiceId: '', transcriptionId: '' } })).rejects.toMatchObject({ name: 'TranscriptionNotFound' });
  });

  it('rejects an unknown step by name', async () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    await expect(handler({ step: 'transcribeFaster' as any, state: { practiceId: 'p', transcriptionId: 't' } })).rejects.toMatchObject({
      name: 'UnknownTranscriptionStep',
    });
  });

  it("takes a named error's message from the Lambda error Cause and hides any other", () => {
    const cause = JSON.stringify({
      errorType: 'SpeechEngineMissing',
      errorMessage: 'Install it with: apt-get install pocketsphinx pocketsphinx-en-us ffmpeg',
      trace: [],
    });
    expect(failureMessage({ Error: 'SpeechEngineMissing', Cause: cause })).toEqual({
      status: 'failed',
      message: 'Install it with: apt-get install pocketsphinx pocketsphinx-en-us ffmpeg',
    });
    expect(failureMessage({ Error: 'TypeError', Cause: JSON.stringify({ errorMessage: 'x is undefined at /var/task' }) })).toEqual({
      status: 'failed',
      message: 'The AI note could not be created. Please try again.',
    });
    expect(
      failureMessage({ Error: 'NoteNoLongerDraft', Cause: JSON.stringify({ errorMessage: 'The note was signed or deleted before the AI note was ready.' }) })
        .status,
    ).toBe('cancelled');
    expect(failureMessage(undefined).status).toBe('failed');
  });
});
