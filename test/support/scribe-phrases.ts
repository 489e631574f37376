/**
 * The scribe's phrase corpus (test/fixtures/scribe/visit-phrases.json) and how a run over it is
 * scored: proposals as (kind, code or name) pairs against the expected ones, the SOAP section of
 * each phrase, and the proposals made from a negated or uncertain phrase (there must be none).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { NoteSection, TranscriptSegment } from '../../shared/ai/transcription-schema.js';
import type { ProposalDraft } from '../../functions/workers/transcription/note/note-model.js';

export interface ExpectedProposal {
  kind: ProposalDraft['kind'];
  code?: string;
  name?: string;
}
export interface VisitPhrase {
  category: 'negation' | 'uncertainty' | 'family' | 'historical' | 'assertion' | 'exam-plan';
  text: string;
  section: 'Subjective' | 'Objective' | 'Assessment' | 'Plan';
  proposals: ExpectedProposal[];
}

export const VISIT_PHRASES: VisitPhrase[] = (
  JSON.parse(readFileSync(fileURLToPath(new URL('../fixtures/scribe/visit-phrases.json', import.meta.url)), 'utf8')) as { phrases: VisitPhrase[] }
).phrases;

/** What one phrase came out as: the proposals of the proposal step and the note of the formatter. */
export interface PhraseOutcome {
  phrase: VisitPhrase;
  transcript: TranscriptSegment[];
  proposals: ProposalDraft[];
  note: NoteSection[];
}

export const keyOf = (p: { kind: string; code?: unknown; name?: unknown; fields?: Record<string, unknown> }): string => {
  if (p.kind === 'vitals') return 'vitals';
  const code = p.code ?? p.fields?.code;
  if (code !== undefined) return `${p.kind}:${String(code)}`;
  return `${p.kind}:${String(p.name ?? p.fields?.productName ?? p.fields?.name ?? '').toLowerCase()}`;
};

/** The sections the phrase's sentences landed in (evidenced sentences only). */
export const sectionsOf = (note: readonly NoteSection[]) => note.filter((s) => s.sentences.some((x) => x.segmentIds.length)).map((s) => s.heading);

export interface CorpusScore {
  phrases: number;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  precision: number;
  recall: number;
  placed: number;
  placementAccuracy: number;
  negatedProposals: number;
  byCategory: Record<string, { phrases: number; tp: number; fp: number; fn: number; placed: number }>;
  misses: string[];
}

export function scoreCorpus(outcomes: readonly PhraseOutcome[]): CorpusScore {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let placed = 0;
  let negatedProposals = 0;
  const byCategory: CorpusScore['byCategory'] = {};
  const misses: string[] = [];
  for (const { phrase, proposals, note, transcript } of outcomes) {
    const cat = (byCategory[phrase.category] ??= { phrases: 0, tp: 0, fp: 0, fn: 0, placed: 0 });
    cat.phrases += 1;
    const expected = new Set(phrase.proposals.map(keyOf));
    const got = new Set(proposals.map(keyOf));
    const hits = [...got].filter((k) => expected.has(k)).length;
    tp += hits;
    fp += got.size - hits;
    fn += expected.size - hits;
    cat.tp += hits;
    cat.fp += got.size - hits;
    cat.fn += expected.size - hits;
    // A negated or uncertain finding proposed as anything at all is the error this corpus guards against.
    if (phrase.category === 'negation' || phrase.category === 'uncertainty') negatedProposals += proposals.filter((p) => p.kind !== 'vitals').length;
    const sections = sectionsOf(note);
    const ok = sections.length === 1 && sections[0] === phrase.section;
    if (ok) {
      placed += 1;
      cat.placed += 1;
    }
    if (!ok || hits !== got.size || hits !== expected.size) {
      misses.push(
        `"${phrase.text}" heard "${transcript.map((s) => s.text).join(' / ')}": section ${sections.join('+') || 'none'} (want ${phrase.section}); proposals [${[...got].join(', ')}] (want [${[...expected].join(', ')}])`,
      );
    }
  }
  return {
    phrases: outcomes.length,
    truePositives: tp,
    falsePositives: fp,
    falseNegatives: fn,
    precision: tp + fp ? tp / (tp + fp) : 1,
    recall: tp + fn ? tp / (tp + fn) : 1,
    placed,
    placementAccuracy: outcomes.length ? placed / outcomes.length : 0,
    negatedProposals,
    byCategory,
    misses,
  };
}

export function formatCorpusScore(title: string, s: CorpusScore): string {
  const pct = (n: number) => `${(n * 100).toFixed(1)} %`;
  const rows = Object.entries(s.byCategory).map(([c, v]) => {
    const p = v.tp + v.fp ? v.tp / (v.tp + v.fp) : 1;
    const r = v.tp + v.fn ? v.tp / (v.tp + v.fn) : 1;
    return `  ${c.padEnd(12)} ${String(v.phrases).padStart(3)}   ${String(v.tp).padStart(3)} ${String(v.fp).padStart(3)} ${String(v.fn).padStart(3)}   ${pct(p).padStart(7)} ${pct(r).padStart(7)}   ${v.placed}/${v.phrases}`;
  });
  return [
    title,
    '  category   phrases   TP  FP  FN   precision  recall   placed',
    ...rows,
    `  ${'all'.padEnd(12)} ${String(s.phrases).padStart(3)}   ${String(s.truePositives).padStart(3)} ${String(s.falsePositives).padStart(3)} ${String(s.falseNegatives).padStart(3)}   ${pct(s.precision).padStart(7)} ${pct(s.recall).padStart(7)}   ${s.placed}/${s.phrases}`,
    `  section placement accuracy ${pct(s.placementAccuracy)}; proposals from negated or uncertain phrases: ${s.negatedProposals}`,
  ].join('\n');
}
