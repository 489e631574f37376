/**
 * The last check on every engine's chart proposals (the local rules, Bedrock, an OpenAI-compatible
 * model): a proposal stands only on transcript statements that assert it. A diagnosis whose every
 * mention is denied ("no fever") or only possible ("rule out strep") is dropped; one that is a
 * family member's or a past condition becomes family or past history; an allergy or a medication
 * change that is not asserted is dropped. A model's words are not trusted over the transcript's.
 */
import type { TranscriptSegment } from '../../../../shared/ai/transcription-schema.js';
import { assertionOfTerm, relationOf, type Assertion, type AssertionResult } from './assertion.js';
import { keepKnownEvidence, type NoteWriter, type ProposalDraft } from './note-model.js';

/** The words a proposal names its finding by: the model's spoken term, then the name without its qualifiers. */
function termsOf(p: ProposalDraft): string[] {
  const names = [p.fields.term, p.fields.productName, p.fields.name, p.fields.diagnosis].filter((v): v is string => typeof v === 'string' && v.trim() !== '');
  const plain = names.flatMap((n) => [
    n,
    n
      .split(',')[0]
      .replace(/\([^)]*\)/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  ]);
  return [...new Set(plain.map((n) => n.toLowerCase()).filter(Boolean))];
}

/** How the transcript states a proposal: affirmed when any of its evidence statements affirms any of its names. */
export function assertionOfProposal(p: ProposalDraft, transcript: readonly TranscriptSegment[]): AssertionResult & { statement?: string } {
  const texts = p.segmentIds.map((id) => transcript.find((s) => s.id === id)?.text ?? '').filter(Boolean);
  let first: (AssertionResult & { statement?: string }) | undefined;
  for (const text of texts) {
    for (const term of termsOf(p)) {
      const result = assertionOfTerm(text, term);
      if (result.assertion === 'affirmed') return result;
      first ??= result;
    }
  }
  return first ?? { assertion: 'negated' };
}

const KEEP: Record<ProposalDraft['kind'], readonly Assertion[]> = {
  'medication-start': ['affirmed'],
  'medication-stop': ['affirmed', 'historical'],
  allergy: ['affirmed', 'historical'],
  diagnosis: ['affirmed'],
  'family-history': ['affirmed', 'family'],
  'past-history': ['affirmed', 'historical'],
  vitals: ['affirmed', 'negated', 'possible', 'family', 'historical'],
};

export function assertedProposals(drafts: readonly ProposalDraft[], transcript: readonly TranscriptSegment[]): ProposalDraft[] {
  const out: ProposalDraft[] = [];
  for (const p of drafts) {
    if (p.kind === 'vitals') {
      out.push(p);
      continue;
    }
    // Nothing in the transcript to show for it: it cannot be shown to have been said.
    if (!p.segmentIds.length) continue;
    const { assertion, trigger, statement } = assertionOfProposal(p, transcript);
    // The transcript's own statement, not a model's quotation of it.
    const evidence = statement ?? p.evidence;
    if (KEEP[p.kind].includes(assertion)) {
      out.push({ ...p, ...(evidence ? { evidence } : {}) });
      continue;
    }
    if (p.kind !== 'diagnosis' || (assertion !== 'family' && assertion !== 'historical')) continue;
    const label = typeof p.fields.code === 'string' ? `${String(p.fields.name)} (${p.fields.code})` : String(p.fields.name);
    if (assertion === 'family') {
      const relation = relationOf(trigger);
      out.push({
        ...p,
        kind: 'family-history',
        summary: `Family history: ${label}`,
        fields: { ...p.fields, ...(relation ? { relation } : {}) },
        ...(evidence ? { evidence } : {}),
      });
    } else out.push({ ...p, kind: 'past-history', summary: `Past history: ${label}`, ...(evidence ? { evidence } : {}) });
  }
  return out;
}

/** The pipeline's proposal step: the engine's proposals, their evidence kept to the transcript's segments, asserted only. */
export async function proposalStep(writer: NoteWriter, transcript: readonly TranscriptSegment[]): Promise<ProposalDraft[]> {
  return assertedProposals(keepKnownEvidence(await writer.chartProposals(transcript, {}), transcript), transcript);
}
