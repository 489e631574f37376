import { describe, expect, it } from 'vitest';
import type { TranscriptSegment } from '../../../../shared/ai/transcription-schema.js';
import { formatCorpusScore, scoreCorpus, VISIT_PHRASES, type PhraseOutcome } from '../../../../test/support/scribe-phrases.js';
import { DRUG_STARTER } from '../../../lib/code-sets/drug-starter.js';
import { Icd10Index } from '../../../lib/code-sets/icd10-index.js';
import { ICD10_STARTER } from '../../../lib/code-sets/icd10-starter.js';
import { DrugIndex } from '../../../lib/code-sets/ndc.js';
import { proposalStep } from './asserted-proposals.js';
import { LocalRulesNoteWriter } from './local-rules.js';

const STARTERS = { drugs: async () => new DrugIndex(DRUG_STARTER), icd10: async () => new Icd10Index(ICD10_STARTER) };
const writer = new LocalRulesNoteWriter(STARTERS);

async function run(text: string): Promise<Omit<PhraseOutcome, 'phrase'>> {
  const transcript: TranscriptSegment[] = [{ id: 'seg-1', speaker: 'Speaker 1', start: 0, end: 2, text }];
  return { transcript, proposals: await proposalStep(writer, transcript), note: await writer.soapNote(transcript) };
}

describe('the scribe on the visit phrase corpus, as text', () => {
  it('holds at least 40 phrases of every kind', () => {
    expect(VISIT_PHRASES.length).toBeGreaterThanOrEqual(40);
    for (const category of ['negation', 'uncertainty', 'family', 'historical', 'assertion'])
      expect(VISIT_PHRASES.filter((p) => p.category === category).length).toBeGreaterThanOrEqual(5);
  });

  it('proposes nothing from a negated or uncertain phrase, and places and proposes the rest as a clinician would', async () => {
    const outcomes: PhraseOutcome[] = [];
    for (const phrase of VISIT_PHRASES) outcomes.push({ phrase, ...(await run(phrase.text)) });
    const score = scoreCorpus(outcomes);
    console.log(formatCorpusScore('Visit phrases as text', score));
    if (score.misses.length) console.log(score.misses.join('\n'));
    expect(score.negatedProposals).toBe(0);
    expect(score.precision).toBeGreaterThanOrEqual(0.95);
    expect(score.recall).toBeGreaterThanOrEqual(0.9);
    expect(score.placementAccuracy).toBeGreaterThanOrEqual(0.9);
  });
});
