import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AiEngine } from '../../../../shared/ai/transcription-schema.js';
import { concatToWav, recognizeWav, toRecognizerWav } from '../../../lib/adapters/local-speech.js';
import { readObject, writeObject } from '../run-files.js';
import type { RunAudio, SpeechEngine } from './engine-types.js';

export const LOCAL_SPEECH_ENGINE: AiEngine = { kind: 'local-pocketsphinx', local: true, label: 'Local speech recognition (pocketsphinx, no speaker labels)' };

const extensionOf = (key: string) => key.slice(key.lastIndexOf('.') + 1).toLowerCase();
/** Containers whose timeslice chunks continue one stream: their bytes join into one file. */
const STREAMED = new Set(['webm', 'ogg', 'm4a', 'mp3']);

async function withTemp<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'tidewell-audio-'));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export class LocalSpeechEngine implements SpeechEngine {
  readonly engine = LOCAL_SPEECH_ENGINE;

  /**
   * MediaRecorder chunks are pieces of one stream (only the first has the header), so they are
   * joined byte by byte in index order, then decoded; WAV chunks each carry a header and are joined
   * by ffmpeg's concat filter. The result is the 16 kHz mono WAV the recognizer reads, also used for playback.
   */
  async prepareAudio(audio: RunAudio) {
    const audioKey = `${audio.runFolder}recording.wav`;
    await withTemp(async (dir) => {
      const extension = extensionOf(audio.sourceKeys[0]);
      const output = join(dir, 'recording.wav');
      if (audio.sourceKeys.length > 1 && !STREAMED.has(extension)) {
        const inputs: string[] = [];
        for (const [i, key] of audio.sourceKeys.entries()) {
          const path = join(dir, `part-${i}.${extensionOf(key)}`);
          await writeFile(path, await readObject(key));
          inputs.push(path);
        }
        await concatToWav(inputs, output);
      } else {
        const joined = join(dir, `joined.${extension}`);
        const parts: Uint8Array[] = [];
        for (const key of audio.sourceKeys) parts.push(await readObject(key));
        await writeFile(joined, Buffer.concat(parts));
        await toRecognizerWav(joined, output);
      }
      await writeObject(audioKey, await readFile(output), 'audio/wav');
    });
    return { audioKey, contentType: 'audio/wav' };
  }

  async start(audioKey: string) {
    const segments = await withTemp(async (dir) => {
      const wav = join(dir, 'recording.wav');
      await writeFile(wav, await readObject(audioKey));
      return recognizeWav(wav);
    });
    return { status: 'COMPLETED' as const, segments };
  }

  async check(): Promise<never> {
    throw new Error('The local speech engine finishes in start; there is no job to check');
  }
}
