/**
 * The local speech engine (npm start): Debian's pocketsphinx with its en-us model, offline, and
 * ffmpeg to decode and resample. Not a vendor stand-in that returns canned text: it recognises the
 * audio it is given, with the accuracy measured in the README. pocketsphinx has no speaker
 * diarization, so every segment is 'Speaker 1'.
 */
import { execFile } from 'node:child_process';
import type { TranscriptSegment } from '../../../shared/ai/transcription-schema.js';

export const LOCAL_SPEECH_INSTALL = 'apt-get install pocketsphinx pocketsphinx-en-us ffmpeg';

/** A named error, so the state machine records it as the run's message instead of retrying it. */
export class SpeechEngineMissing extends Error {
  constructor(tool: string) {
    super(`Local speech recognition needs ${tool}, which is not installed on this machine. Install it with: ${LOCAL_SPEECH_INSTALL}`);
    this.name = 'SpeechEngineMissing';
  }
}

export class AudioNotDecodable extends Error {
  constructor() {
    super('The recording could not be decoded: the file is damaged or is not audio. Please upload the recording again.');
    this.name = 'AudioNotDecodable';
  }
}

interface RunResult {
  stdout: string;
  stderr: string;
}

function run(tool: string, args: string[], timeoutMs: number): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    execFile(tool, args, { maxBuffer: 64 * 1024 * 1024, timeout: timeoutMs }, (error, stdout, stderr) => {
      if (error && (error as NodeJS.ErrnoException).code === 'ENOENT') reject(new SpeechEngineMissing(tool));
      else if (error) reject(Object.assign(error, { stderr }));
      else resolve({ stdout, stderr });
    });
  });
}

/** Decodes any audio ffmpeg reads (webm/opus, ogg, m4a, mp3, wav) into the 16 kHz mono 16-bit WAV pocketsphinx needs. */
export async function toRecognizerWav(input: string, output: string): Promise<void> {
  try {
    await run('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-i', input, '-vn', '-ar', '16000', '-ac', '1', '-sample_fmt', 's16', output], 30 * 60_000);
  } catch (error) {
    if (error instanceof SpeechEngineMissing) throw error;
    throw new AudioNotDecodable();
  }
}

/** Joins decodable files (each with its own header, e.g. WAV chunks) in the given order into one WAV. */
export async function concatToWav(inputs: readonly string[], output: string): Promise<void> {
  const args = ['-nostdin', '-loglevel', 'error', '-y'];
  for (const input of inputs) args.push('-i', input);
  const streams = inputs.map((_x, i) => `[${i}:a]`).join('');
  args.push('-filter_complex', `${streams}concat=n=${inputs.length}:v=0:a=1[out]`, '-map', '[out]', '-ar', '16000', '-ac', '1', '-sample_fmt', 's16', output);
  try {
    await run('ffmpeg', args, 30 * 60_000);
  } catch (error) {
    if (error instanceof SpeechEngineMissing) throw error;
    throw new AudioNotDecodable();
  }
}

export async function audioSeconds(wav: string): Promise<number> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', wav], 60_000).catch((error: unknown) => {
    if (error instanceof SpeechEngineMissing) throw new SpeechEngineMissing('ffmpeg');
    throw new AudioNotDecodable();
  });
  return Number(stdout.trim()) || 0;
}

interface TimedWord {
  word: string;
  start: number;
  end: number;
}

/** Silences shorter than this stay inside a segment; longer ones (a sentence's pause) end it. */
const SEGMENT_PAUSE_SECONDS = 0.04;
const SEGMENT_MAX_SECONDS = 15;

/**
 * pocketsphinx writes no punctuation and often no pause between sentences, so a segment also ends
 * before the words a clinician starts a new statement with ("start ibuprofen", "follow up", "blood
 * pressure", "the patient"): each sentence of the note can then point at its own stretch of audio.
 */
const STATEMENT_STARTS = new Set(['start', 'stop', 'follow', 'continue', 'return', 'discontinue', 'prescribe', 'increase', 'decrease', 'schedule']);
const STATEMENT_BIGRAMS = new Set([
  'blood pressure',
  'heart rate',
  'the patient',
  'this is',
  'she is',
  'he is',
  'she has',
  'he has',
  'no known',
  'temperature is',
]);
const MIN_WORDS_BEFORE_SPLIT = 3;
const CONDITION_BEFORE = new Set(['high', 'low']);

type Token = TimedWord | { pause: true; long: boolean };

/**
 * pocketsphinx_continuous -time yes prints, per utterance, the hypothesis line and then one
 * `word start end confidence` line per word, with <s>, </s>, <sil> and fillers ([NOISE], ++…++)
 * between. Words carry their alternate pronunciation as `word(2)`.
 */
export function segmentsFromPocketsphinx(output: string): TranscriptSegment[] {
  const tokens: Token[] = [];
  for (const line of output.split('\n')) {
    const parts = line.trim().split(/\s+/);
    if (parts.length !== 4 || !/^\d/.test(parts[1]) || !/^\d/.test(parts[2])) continue;
    const [token, startText, endText] = parts;
    const start = Number(startText);
    const end = Number(endText);
    if (token === '<s>') continue;
    if (token === '</s>') tokens.push({ pause: true, long: true });
    else if (token === '<sil>' || /^\[.*\]$/.test(token) || /^\+\+.*\+\+$/.test(token))
      tokens.push({ pause: true, long: end - start >= SEGMENT_PAUSE_SECONDS });
    else tokens.push({ word: token.replace(/\(\d+\)$/, '').toLowerCase(), start, end });
  }
  const groups: TimedWord[][] = [];
  let current: TimedWord[] = [];
  const close = () => {
    if (current.length) groups.push(current);
    current = [];
  };
  tokens.forEach((token, i) => {
    if ('pause' in token) {
      if (token.long) close();
      return;
    }
    const next = tokens[i + 1];
    const bigram = next && 'word' in next ? `${token.word} ${next.word}` : '';
    // "High blood pressure" is a condition named inside a statement, not a reading that starts one.
    const named = current.length > 0 && CONDITION_BEFORE.has(current[current.length - 1].word);
    const startsStatement = STATEMENT_STARTS.has(token.word) || (STATEMENT_BIGRAMS.has(bigram) && !named);
    if ((startsStatement && current.length >= MIN_WORDS_BEFORE_SPLIT) || (current.length && token.end - current[0].start > SEGMENT_MAX_SECONDS)) close();
    current.push(token);
  });
  close();
  return groups.map((words, i) => ({
    id: `seg-${i + 1}`,
    speaker: 'Speaker 1',
    start: round(words[0].start),
    end: round(words[words.length - 1].end),
    text: words.map((w) => w.word).join(' '),
  }));
}

const round = (n: number) => Math.round(n * 100) / 100;

export interface LocalSpeechOptions {
  /** A language model (ARPA or binary) and dictionary biased to clinical words, when measured better. */
  languageModel?: string;
  dictionary?: string;
}

/** Recognises a 16 kHz mono WAV; an empty result is a transcript without segments, not an error. */
export async function recognizeWav(wav: string, options: LocalSpeechOptions = {}): Promise<TranscriptSegment[]> {
  const args = ['-infile', wav, '-time', 'yes', '-logfn', '/dev/null'];
  if (options.languageModel) args.push('-lm', options.languageModel);
  if (options.dictionary) args.push('-dict', options.dictionary);
  const { stdout } = await run('pocketsphinx_continuous', args, 60 * 60_000).catch((error: unknown) => {
    if (error instanceof SpeechEngineMissing) throw new SpeechEngineMissing('pocketsphinx');
    throw error;
  });
  return segmentsFromPocketsphinx(stdout);
}
