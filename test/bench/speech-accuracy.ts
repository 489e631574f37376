/**
 * Word accuracy of the local speech engine on clinical sentences spoken by Debian's flite voices.
 *
 *   npx tsx test/bench/speech-accuracy.ts [--voices slt,rms,awb]
 *
 * Each sentence is synthesized, decoded to the recognizer's 16 kHz mono WAV by the same ffmpeg
 * call the pipeline makes, recognized by the same pocketsphinx call, and compared word by word
 * (numbers written as words, as pocketsphinx writes them). Prints word error rate per voice.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { recognizeWav, toRecognizerWav } from '../../functions/lib/adapters/local-speech.js';

export const CLINICAL_SENTENCES = [
  'the patient reports a headache for three days',
  'blood pressure is one hundred thirty over eighty',
  'heart rate is seventy two',
  'she is allergic to penicillin',
  'start ibuprofen four hundred milligrams',
  'stop lisinopril',
  'this is likely a tension headache',
  'the lungs are clear',
  'the patient has a sore throat and a fever for two days',
  'follow up in two weeks',
  'he has a cough and shortness of breath',
  'continue metformin five hundred milligrams twice a day',
  'the abdomen is soft and not tender',
  'temperature is ninety eight point six',
  'we will order a chest x ray',
  'return if the pain gets worse',
];

/** Word-level Levenshtein distance: substitutions, insertions and deletions. */
export function wordErrors(reference: string, hypothesis: string): number {
  const r = reference.split(/\s+/).filter(Boolean);
  const h = hypothesis.split(/\s+/).filter(Boolean);
  const d = Array.from({ length: r.length + 1 }, (_x, i) => [i, ...Array(h.length).fill(0)]);
  for (let j = 1; j <= h.length; j++) d[0][j] = j;
  for (let i = 1; i <= r.length; i++)
    for (let j = 1; j <= h.length; j++) d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (r[i - 1] === h[j - 1] ? 0 : 1));
  return d[r.length][h.length];
}

export async function measureAccuracy(voices: readonly string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'tidewell-accuracy-'));
  const results: { voice: string; words: number; errors: number; wer: number; sentencesExact: number }[] = [];
  try {
    for (const voice of voices) {
      let words = 0;
      let errors = 0;
      let exact = 0;
      for (const [i, sentence] of CLINICAL_SENTENCES.entries()) {
        const raw = join(dir, `${voice}-${i}.wav`);
        const wav = join(dir, `${voice}-${i}-16k.wav`);
        execFileSync('flite', ['-voice', voice, '-t', sentence, '-o', raw]);
        await toRecognizerWav(raw, wav);
        const heard = (await recognizeWav(wav)).map((s) => s.text).join(' ');
        const e = wordErrors(sentence, heard);
        words += sentence.split(' ').length;
        errors += e;
        if (e === 0) exact += 1;
      }
      results.push({ voice, words, errors, wer: errors / words, sentencesExact: exact });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const i = process.argv.indexOf('--voices');
  const voices = i > 0 ? process.argv[i + 1].split(',') : ['slt', 'rms', 'awb'];
  for (const r of await measureAccuracy(voices)) {
    console.log(
      `${r.voice}: word error rate ${(r.wer * 100).toFixed(1)} % (${r.errors} errors in ${r.words} words), ${r.sentencesExact}/${CLINICAL_SENTENCES.length} sentences exact`,
    );
  }
}
