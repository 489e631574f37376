/**
 * How well the AI scribe hears negation, doubt, family and past history on the visit phrase
 * corpus (test/fixtures/scribe/visit-phrases.json), as text and spoken.
 *
 *   npx tsx test/bench/scribe-phrases.ts [--voice slt] [--direct] [--misses]
 *
 * Text path: each phrase as one transcript segment through the proposal step and the formatter.
 * Spoken path: flite speaks each phrase, ffmpeg makes it webm/opus like the browser's recorder, and
 * it goes through the whole local pipeline: a chunk upload, POST /v1/transcriptions, the state
 * machine's steps (ffmpeg, pocketsphinx, the formatter, the proposal step), then the run's result.
 * --direct skips the runtime and calls the same ffmpeg, pocketsphinx and note writer in process.
 * Prints precision and recall of the proposals, section placement accuracy and the number of
 * proposals made from negated or uncertain phrases (which must be 0).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { NoteSection, TranscriptSegment } from '../../shared/ai/transcription-schema.js';
import { recognizeWav, toRecognizerWav } from '../../functions/lib/adapters/local-speech.js';
import { DRUG_STARTER } from '../../functions/lib/code-sets/drug-starter.js';
import { Icd10Index } from '../../functions/lib/code-sets/icd10-index.js';
import { ICD10_STARTER } from '../../functions/lib/code-sets/icd10-starter.js';
import { DrugIndex } from '../../functions/lib/code-sets/ndc.js';
import { proposalStep } from '../../functions/workers/transcription/note/asserted-proposals.js';
import { LocalRulesNoteWriter } from '../../functions/workers/transcription/note/local-rules.js';
import type { ProposalDraft } from '../../functions/workers/transcription/note/note-model.js';
import { withSignedInRuntime, type Call } from './signed-in-runtime.js';
import { formatCorpusScore, scoreCorpus, VISIT_PHRASES, type PhraseOutcome, type VisitPhrase } from '../support/scribe-phrases.js';

type Outcome = Omit<PhraseOutcome, 'phrase'>;

const STARTERS = { drugs: async () => new DrugIndex(DRUG_STARTER), icd10: async () => new Icd10Index(ICD10_STARTER) };
const writer = new LocalRulesNoteWriter(STARTERS);

async function textOutcome(transcript: TranscriptSegment[]): Promise<Outcome> {
  return { transcript, proposals: await proposalStep(writer, transcript), note: await writer.soapNote(transcript) };
}

export async function textPath(phrases: readonly VisitPhrase[] = VISIT_PHRASES): Promise<PhraseOutcome[]> {
  const out: PhraseOutcome[] = [];
  for (const phrase of phrases) out.push({ phrase, ...(await textOutcome([{ id: 'seg-1', speaker: 'Speaker 1', start: 0, end: 2, text: phrase.text }])) });
  return out;
}

function speak(dir: string, name: string, text: string, voice: string): { wav: string; webm: string } {
  const wav = join(dir, `${name}.wav`);
  const webm = join(dir, `${name}.webm`);
  execFileSync('flite', ['-voice', voice, '-t', text, '-o', wav]);
  execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-i', wav, '-c:a', 'libopus', '-b:a', '63600', webm]);
  return { wav, webm };
}

/** The same ffmpeg and pocketsphinx calls as the local speech engine, then the same writer and proposal step. */
export async function spokenDirect(voice: string, phrases: readonly VisitPhrase[] = VISIT_PHRASES): Promise<PhraseOutcome[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tidewell-phrases-'));
  try {
    const out: PhraseOutcome[] = [];
    for (const [i, phrase] of phrases.entries()) {
      const { webm } = speak(dir, `p${i}`, phrase.text, voice);
      const wav16 = join(dir, `p${i}-16k.wav`);
      await toRecognizerWav(webm, wav16);
      out.push({ phrase, ...(await textOutcome(await recognizeWav(wav16))) });
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Each phrase as its own recorded visit through the local runtime's pipeline. */
export async function spokenPipeline(call: Call, origin: string, voice: string, phrases: readonly VisitPhrase[] = VISIT_PHRASES): Promise<PhraseOutcome[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tidewell-phrases-'));
  try {
    const patient = await call('POST', '/v1/patients', {
      firstName: 'Bench',
      lastName: `Phrases${Date.now().toString(36)}`,
      gender: 'female',
      dob: '1970-01-01',
    });
    const out: PhraseOutcome[] = [];
    for (const [i, phrase] of phrases.entries()) {
      const bytes = readFileSync(speak(dir, `p${i}`, phrase.text, voice).webm);
      const note = await call('POST', '/v2/notes', { noteId: 'new', noteType: 'NOTE', patientId: patient.body.id });
      const sessionId = `phrases-${Date.now().toString(36)}-${i}`;
      const presign = await call('POST', '/v1/transcriptions/chunks', {
        patientId: patient.body.id,
        noteId: note.body.noteId,
        sessionId,
        index: 0,
        contentType: 'audio/webm;codecs=opus',
        size: bytes.length,
      });
      const put = await fetch(presign.body.signedUrl, {
        method: 'PUT',
        headers: { 'content-type': 'audio/webm;codecs=opus', origin },
        body: new Uint8Array(bytes),
      });
      if (!put.ok) throw new Error(`upload answered ${put.status}`);
      const run = await call('POST', '/v1/transcriptions', { filesPath: presign.body.filesPath, patientId: patient.body.id, noteId: note.body.noteId });
      let status = run.body.status as string;
      const deadline = Date.now() + 120_000;
      while (!['completed', 'failed', 'cancelled'].includes(status)) {
        if (Date.now() > deadline) throw new Error(`"${phrase.text}" still ${status} after 2 minutes`);
        await new Promise((r) => setTimeout(r, 100));
        status = (await call('GET', `/v1/transcriptions/${run.body.transcriptionId}`)).body.status as string;
      }
      if (status !== 'completed') {
        // Nothing recognized: no proposals and no placement, scored as such.
        out.push({ phrase, transcript: [], proposals: [], note: [] });
        continue;
      }
      const result = (await call('GET', `/v1/transcriptions/${run.body.transcriptionId}/result`)).body as {
        transcript: TranscriptSegment[];
        note: NoteSection[];
        proposals: ProposalDraft[];
      };
      out.push({ phrase, transcript: result.transcript, proposals: result.proposals, note: result.note });
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const arg = (name: string) => process.argv.indexOf(name);
  const voice = arg('--voice') > 0 ? process.argv[arg('--voice') + 1] : 'slt';
  const showMisses = arg('--misses') > 0;
  const report = (title: string, outcomes: PhraseOutcome[]) => {
    const score = scoreCorpus(outcomes);
    console.log(formatCorpusScore(title, score));
    if (showMisses && score.misses.length) console.log(score.misses.map((m) => `    ${m}`).join('\n'));
  };
  report(`Visit phrases as text (${VISIT_PHRASES.length} phrases)`, await textPath());
  if (arg('--direct') > 0) {
    report(`Visit phrases spoken (flite ${voice} → ffmpeg → pocketsphinx → formatter and proposal step, in process)`, await spokenDirect(voice));
  } else {
    await withSignedInRuntime(async (call, webUrl) => {
      report(
        `Visit phrases spoken (flite ${voice} → upload → local pipeline: ffmpeg, pocketsphinx, formatter, proposal step)`,
        await spokenPipeline(call, webUrl, voice),
      );
    });
  }
}
