import { describe, expect, it } from 'vitest';
import { recognizeWav, segmentsFromPocketsphinx, toRecognizerWav } from './local-speech.js';

// pocketsphinx_continuous -time yes output for flite's "…three days. Blood pressure is … Start ibuprofen …".
const OUTPUT = `the patient records a headache for three days blood pressure is one hundred thirty over eighty start ibuprofen
<s> 0.100 0.120 1.000200
the 0.130 0.270 1.000100
patient 0.280 0.710 0.972774
records(3) 0.720 1.120 0.756591
a(2) 1.130 1.160 0.322636
headache 1.170 1.530 0.634922
for(2) 1.540 1.680 0.482543
three 1.690 2.000 1.000100
days 2.010 2.470 1.000000
blood 2.480 2.770 0.994017
pressure 2.780 3.240 0.989059
is 3.250 3.380 0.890463
one 3.390 3.580 0.520234
hundred(2) 3.590 3.990 0.748613
thirty 4.000 4.360 0.688567
over 4.370 4.660 0.866740
eighty 4.670 5.070 0.771877
<sil> 5.080 5.140 0.661498
[NOISE] 5.140 5.150 0.661498
ibuprofen 5.470 6.230 1.000000
</s> 6.240 6.300 1.000000
follow 7.0 7.2 1.0
up 7.2 7.4 1.0
</s> 7.4 7.5 1.0`;

describe('pocketsphinx output to transcript segments', () => {
  it('splits at long pauses, utterance ends and the words a new statement starts with, keeping times', () => {
    expect(segmentsFromPocketsphinx(OUTPUT)).toEqual([
      { id: 'seg-1', speaker: 'Speaker 1', start: 0.13, end: 2.47, text: 'the patient records a headache for three days' },
      { id: 'seg-2', speaker: 'Speaker 1', start: 2.48, end: 5.07, text: 'blood pressure is one hundred thirty over eighty' },
      { id: 'seg-3', speaker: 'Speaker 1', start: 5.47, end: 6.23, text: 'ibuprofen' },
      { id: 'seg-4', speaker: 'Speaker 1', start: 7, end: 7.4, text: 'follow up' },
    ]);
  });

  it('gives no segments for silence', () => {
    expect(segmentsFromPocketsphinx('\n<s> 0.0 0.1 1\n<sil> 0.1 3.0 1\n</s> 3.0 3.1 1\n')).toEqual([]);
  });
});

describe('without the local speech tools', () => {
  it('fails with a message naming what to install', async () => {
    const path = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      await expect(toRecognizerWav('/tmp/in.webm', '/tmp/out.wav')).rejects.toMatchObject({
        name: 'SpeechEngineMissing',
        message:
          'Local speech recognition needs ffmpeg, which is not installed on this machine. Install it with: apt-get install pocketsphinx pocketsphinx-en-us ffmpeg',
      });
      await expect(recognizeWav('/tmp/out.wav')).rejects.toMatchObject({ name: 'SpeechEngineMissing', message: expect.stringContaining('needs pocketsphinx') });
    } finally {
      process.env.PATH = path;
    }
  });
});
