import type { AiEngine, ChartProposal, EvidencedSentence, NoteSection, TranscriptSegment } from '../../../../shared/ai/transcription-schema.js';

export const SOAP_HEADINGS = ['Subjective', 'Objective', 'Assessment', 'Plan'] as const;
export type SoapHeading = (typeof SOAP_HEADINGS)[number];
export const AFTER_VISIT_SUMMARY_HEADING = 'After-visit summary';

export type ProposalDraft = Omit<ChartProposal, 'proposalId' | 'status' | 'written'>;

/** What writes the note from a transcript: Bedrock, an OpenAI-compatible endpoint, or the local rules. */
export interface NoteWriter {
  readonly engine: AiEngine;
  soapNote(transcript: readonly TranscriptSegment[], context: NoteContext): Promise<NoteSection[]>;
  afterVisitSummary(transcript: readonly TranscriptSegment[], note: readonly NoteSection[], context: NoteContext): Promise<EvidencedSentence[]>;
  chartProposals(transcript: readonly TranscriptSegment[], context: NoteContext): Promise<ProposalDraft[]>;
}

export interface NoteContext {
  /** A custom template's body: the note follows its headings instead of SOAP. */
  templateText?: string;
}

/**
 * Every generated sentence keeps only segment ids the transcript has: a model may invent ids, and a
 * sentence left without any is shown to the clinician as unevidenced.
 */
export function keepKnownEvidence<T extends { segmentIds: string[] }>(items: readonly T[], transcript: readonly TranscriptSegment[]): T[] {
  const known = new Set(transcript.map((s) => s.id));
  return items.map((item) => ({ ...item, segmentIds: [...new Set(item.segmentIds.filter((id) => known.has(id)))] }));
}

export function checkedNote(sections: readonly NoteSection[], transcript: readonly TranscriptSegment[]): NoteSection[] {
  return sections.map((s) => ({ heading: s.heading, sentences: keepKnownEvidence(s.sentences, transcript) }));
}
