/**
 * The AI scribe's pipeline time for a 60 s recording, step by step, locally.
 *
 *   npx tsx test/bench/scribe-pipeline.ts        (starts its own local runtime in a temporary folder)
 *
 * flite speaks a visit, ffmpeg makes it exactly 60 s of webm/opus like the browser's recorder, the
 * recording is uploaded as six 10 s-sized chunks through the chunk presign route, and the run is
 * started and watched through GET /v1/transcriptions/{id} every 20 ms: the time spent in each
 * status is the step's time (as seen by the client, so each includes up to one poll interval).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { withSignedInRuntime, type Call } from './signed-in-runtime.js';
import { CLINICAL_SENTENCES } from './speech-accuracy.js';

export interface PipelineTiming {
  totalMs: number;
  steps: { status: string; ms: number }[];
  finalStatus: string;
  transcriptWords: number;
}

function sixtySecondRecording(dir: string): Buffer {
  const text = [...CLINICAL_SENTENCES, ...CLINICAL_SENTENCES].join('. ');
  execFileSync('flite', ['-voice', 'rms', '-t', text, '-o', join(dir, 'visit.wav')]);
  execFileSync('ffmpeg', [
    '-nostdin',
    '-loglevel',
    'error',
    '-y',
    '-i',
    join(dir, 'visit.wav'),
    '-af',
    'apad',
    '-t',
    '60',
    '-c:a',
    'libopus',
    '-b:a',
    '63600',
    join(dir, 'visit.webm'),
  ]);
  return readFileSync(join(dir, 'visit.webm'));
}

export async function measureScribePipeline(call: Call, origin: string): Promise<PipelineTiming> {
  const dir = mkdtempSync(join(tmpdir(), 'tidewell-scribe-bench-'));
  try {
    const bytes = sixtySecondRecording(dir);
    const patient = await call('POST', '/v1/patients', {
      firstName: 'Bench',
      lastName: `Scribe${Date.now().toString(36)}`,
      gender: 'female',
      dob: '1970-01-01',
    });
    const note = await call('POST', '/v2/notes', { noteId: 'new', noteType: 'NOTE', patientId: patient.body.id });
    const sessionId = `bench-${Date.now().toString(36)}`;
    const size = Math.ceil(bytes.length / 6);
    let filesPath = '';
    for (let index = 0; index < 6; index++) {
      const piece = bytes.subarray(index * size, (index + 1) * size);
      const presign = await call('POST', '/v1/transcriptions/chunks', {
        patientId: patient.body.id,
        noteId: note.body.noteId,
        sessionId,
        index,
        contentType: 'audio/webm;codecs=opus',
        size: piece.length,
      });
      filesPath = presign.body.filesPath;
      const put = await fetch(presign.body.signedUrl, {
        method: 'PUT',
        headers: { 'content-type': 'audio/webm;codecs=opus', origin },
        body: new Uint8Array(piece),
      });
      if (!put.ok) throw new Error(`chunk ${index} upload answered ${put.status}`);
    }
    const started = performance.now();
    const run = await call('POST', '/v1/transcriptions', { filesPath, patientId: patient.body.id, noteId: note.body.noteId });
    const steps: { status: string; ms: number }[] = [];
    let status = run.body.status as string;
    let since = started;
    while (!['completed', 'failed', 'cancelled'].includes(status)) {
      await new Promise((r) => setTimeout(r, 20));
      const now = (await call('GET', `/v1/transcriptions/${run.body.transcriptionId}`)).body.status as string;
      if (now !== status) {
        const at = performance.now();
        steps.push({ status, ms: at - since });
        since = at;
        status = now;
      }
      if (performance.now() - started > 600_000) throw new Error(`still ${status} after 10 minutes`);
    }
    const totalMs = performance.now() - started;
    const result = status === 'completed' ? (await call('GET', `/v1/transcriptions/${run.body.transcriptionId}/result`)).body : undefined;
    const transcriptWords = result ? (result.transcript as { text: string }[]).reduce((n, s) => n + s.text.split(' ').length, 0) : 0;
    return { totalMs, steps, finalStatus: status, transcriptWords };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatPipelineTiming(t: PipelineTiming): string {
  const lines = t.steps.map((s) => `  ${s.status.padEnd(32)} ${(s.ms / 1000).toFixed(2)} s`);
  return [
    `AI scribe pipeline, 60 s recording (6 chunks, local engines): ${t.finalStatus} in ${(t.totalMs / 1000).toFixed(2)} s, ${t.transcriptWords} words recognized`,
    ...lines,
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(formatPipelineTiming(await withSignedInRuntime((call, webUrl) => measureScribePipeline(call, webUrl))));
}
