/**
 * A note writer backed by a language model (Bedrock Converse in AWS, an OpenAI-compatible endpoint
 * locally): the same versioned prompts and answer schemas for both. The model sees the transcript
 * as numbered segments and answers with segment ids; ids it invents are dropped by the pipeline,
 * and an ICD-10 code it gives must exist in the practice's loaded code set.
 */
import type { AiEngine, EvidencedSentence, NoteSection, TranscriptSegment } from '../../../../shared/ai/transcription-schema.js';
import { LOADED_CODE_SETS, type CodeSets } from '../note/local-rules.js';
import { SOAP_HEADINGS, type NoteWriter, type ProposalDraft } from '../note/note-model.js';
import { AFTER_VISIT_SUMMARY_PROMPT } from '../prompts/after-visit-summary.v1.js';
import { CHART_PROPOSALS_PROMPT } from '../prompts/chart-proposals.v2.js';
import { AFTER_VISIT_SUMMARY_SCHEMA, CHART_PROPOSALS_SCHEMA, SOAP_NOTE_SCHEMA } from '../prompts/schemas.js';
import { SOAP_NOTE_PROMPT } from '../prompts/soap-note.v1.js';

export interface Prompt {
  id: string;
  version: number;
  system: string;
  tool: { name: string; description: string };
}

/** One structured call: the prompt, the answer's JSON schema, the user message. */
export type AskModel = <T>(prompt: Prompt, schema: Record<string, unknown>, userText: string) => Promise<T>;

export function transcriptLines(transcript: readonly TranscriptSegment[]): string {
  return transcript.map((s) => `[${s.id}] ${s.speaker} (${s.start.toFixed(1)}-${s.end.toFixed(1)} s): ${s.text}`).join('\n');
}

const asStrings = (value: unknown) => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
const asSentences = (value: unknown): EvidencedSentence[] =>
  (Array.isArray(value) ? value : [])
    .filter((s): s is { text: string; segmentIds?: unknown } => typeof s?.text === 'string' && s.text.trim() !== '')
    .map((s) => ({ text: s.text.trim(), segmentIds: asStrings(s.segmentIds) }));

const FAMILY_RELATION: Record<string, string> = { mother: 'MTH', father: 'FTH', brother: 'BRO', sister: 'SIS', grandparent: 'GRPRN' };

interface ModelProposal {
  kind?: string;
  summary?: string;
  name?: string;
  strength?: string;
  strengthUOM?: string;
  icd10Code?: string;
  term?: string;
  evidence?: string;
  relation?: string;
  vitals?: Record<string, unknown>;
  segmentIds?: unknown;
}

export class ModelNoteWriter implements NoteWriter {
  constructor(
    readonly engine: AiEngine,
    private readonly ask: AskModel,
    private readonly codes: CodeSets = LOADED_CODE_SETS,
  ) {}

  async soapNote(transcript: readonly TranscriptSegment[]): Promise<NoteSection[]> {
    const answer = await this.ask<{ sections?: { heading?: string; sentences?: unknown }[] }>(
      SOAP_NOTE_PROMPT,
      SOAP_NOTE_SCHEMA,
      `Transcript:\n${transcriptLines(transcript)}`,
    );
    // The four headings in order whatever the model returned; a missing one is said to be missing, without evidence.
    return SOAP_HEADINGS.map((heading) => {
      const sentences = asSentences(answer.sections?.find((s) => s.heading === heading)?.sentences);
      return { heading, sentences: sentences.length ? sentences : [{ text: 'Nothing was said for this section.', segmentIds: [] }] };
    });
  }

  async afterVisitSummary(transcript: readonly TranscriptSegment[], note: readonly NoteSection[]): Promise<EvidencedSentence[]> {
    const noteText = note.map((s) => `${s.heading}: ${s.sentences.map((x) => x.text).join(' ')}`).join('\n');
    const answer = await this.ask<{ sentences?: unknown }>(
      AFTER_VISIT_SUMMARY_PROMPT,
      AFTER_VISIT_SUMMARY_SCHEMA,
      `Transcript:\n${transcriptLines(transcript)}\n\nSOAP note:\n${noteText}`,
    );
    return asSentences(answer.sentences);
  }

  async chartProposals(transcript: readonly TranscriptSegment[]): Promise<ProposalDraft[]> {
    const answer = await this.ask<{ proposals?: ModelProposal[] }>(
      CHART_PROPOSALS_PROMPT,
      CHART_PROPOSALS_SCHEMA,
      `Transcript:\n${transcriptLines(transcript)}`,
    );
    const icd10 = await this.codes.icd10();
    const drafts: ProposalDraft[] = [];
    for (const p of answer.proposals ?? []) {
      const segmentIds = asStrings(p.segmentIds);
      const name = p.name?.trim();
      // The model's own words for the finding and its quotation: the pipeline checks both against the transcript.
      const said = { ...(p.evidence?.trim() ? { evidence: p.evidence.trim() } : {}) };
      const term = p.term?.trim() ? { term: p.term.trim() } : {};
      switch (p.kind) {
        case 'medication-start':
        case 'medication-stop':
          if (!name) break;
          drafts.push({
            kind: p.kind,
            summary: p.summary ?? `${p.kind === 'medication-start' ? 'Start' : 'Stop'} ${name}`,
            fields: { productName: name, ...(p.kind === 'medication-start' && p.strength ? { strength: p.strength, strengthUOM: p.strengthUOM ?? '' } : {}) },
            segmentIds,
            ...said,
          });
          break;
        case 'allergy':
          if (name) drafts.push({ kind: 'allergy', summary: p.summary ?? `Allergy to ${name}`, fields: { name }, segmentIds, ...said });
          break;
        case 'diagnosis':
        case 'family-history':
        case 'past-history': {
          const code = p.icd10Code ? icd10.get(p.icd10Code) : null;
          if (!code) break;
          const label = `${code.description} (${code.code})`;
          const relation = p.kind === 'family-history' ? FAMILY_RELATION[p.relation ?? ''] : undefined;
          drafts.push({
            kind: p.kind,
            summary: p.kind === 'diagnosis' ? label : `${p.kind === 'family-history' ? 'Family history' : 'Past history'}: ${label}`,
            fields: {
              name: code.description,
              code: code.code,
              icd10CodeId: code.ident,
              ...(name ? { term: name } : {}),
              ...term,
              ...(relation ? { relation } : {}),
            },
            segmentIds,
            ...said,
          });
          break;
        }
        case 'vitals': {
          const vitals = Object.fromEntries(
            Object.entries(p.vitals ?? {}).filter((e): e is [string, number] => typeof e[1] === 'number' && Number.isFinite(e[1])),
          );
          if (Object.keys(vitals).length) drafts.push({ kind: 'vitals', summary: p.summary ?? 'Vitals', fields: vitals, segmentIds });
          break;
        }
        default:
          break;
      }
    }
    return drafts;
  }
}
