import { describe, expect, it } from 'vitest';
import { audioUploadError } from '../../../../shared/ai/transcription-schema.js';
import { audioContentType, audioFilesError, ONE_FILE_ONLY } from './audio-upload.js';

describe('audioFilesError', () => {
  it('takes one file of an allowed extension up to 250,000,000 bytes', () => {
    for (const name of ['visit.mp3', 'visit.WAV', 'a.webm', 'a.ogg', 'a.m4a']) expect(audioFilesError([{ name, size: 10 }])).toBeNull();
    expect(audioFilesError([{ name: 'a.mp3', size: 250_000_000 }])).toBeNull();
  });
  it('refuses none or several files, other types, empty and too large files', () => {
    expect(audioFilesError([])).toBe(ONE_FILE_ONLY);
    expect(
      audioFilesError([
        { name: 'a.mp3', size: 1 },
        { name: 'b.mp3', size: 1 },
      ]),
    ).toBe(ONE_FILE_ONLY);
    // The same words the server refuses with.
    const wrongType = audioUploadError('a.flac', 1);
    expect(wrongType).toBeTruthy();
    expect(audioFilesError([{ name: 'a.flac', size: 1 }])).toBe(wrongType);
    expect(audioFilesError([{ name: 'mp3', size: 1 }])).toBe(audioUploadError('mp3', 1));
    const tooLarge = audioUploadError('a.mp3', 250_000_001);
    expect(tooLarge).toBeTruthy();
    expect(tooLarge).not.toBe(wrongType);
    expect(audioFilesError([{ name: 'a.mp3', size: 250_000_001 }])).toBe(tooLarge);
    expect(audioFilesError([{ name: 'a.mp3', size: 0 }])).toBe('The file is empty');
  });
  it('names a content type from the extension when the browser gives none', () => {
    expect(audioContentType({ name: 'a.m4a', type: '' })).toBe('audio/mp4');
    expect(audioContentType({ name: 'a.wav', type: 'audio/x-wav' })).toBe('audio/x-wav');
  });
});
