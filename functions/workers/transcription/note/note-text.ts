/**
 * The generated note as the draft's text and formattedText. Each sentence of formattedText carries
 * its evidence (data-segments); a sentence without any is marked for the clinician to check.
 */
import type { AiEngine, EvidencedSentence, NoteSection } from '../../../../shared/ai/transcription-schema.js';
import { AFTER_VISIT_SUMMARY_HEADING } from './note-model.js';

export const UNEVIDENCED_MARK = '(check: not found in the recording)';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function engineLine(speech: AiEngine, text: AiEngine): string {
  const local = speech.local || text.local;
  return `${local ? 'Generated locally' : 'Generated'}: ${text.label}; speech: ${speech.label}. Review before signing.`;
}

function plainSentence(s: EvidencedSentence): string {
  return s.segmentIds.length ? s.text : `${s.text} ${UNEVIDENCED_MARK}`;
}

function htmlSentence(s: EvidencedSentence): string {
  return s.segmentIds.length
    ? `<span data-segments="${escapeHtml(s.segmentIds.join(' '))}">${escapeHtml(s.text)}</span>`
    : `<span data-segments="" data-unevidenced="true">${escapeHtml(s.text)} <em>${escapeHtml(UNEVIDENCED_MARK)}</em></span>`;
}

export function renderNote(
  sections: readonly NoteSection[],
  afterVisitSummary: readonly EvidencedSentence[] | undefined,
  engines: { speech: AiEngine; text: AiEngine },
) {
  const all: NoteSection[] = [...sections, ...(afterVisitSummary ? [{ heading: AFTER_VISIT_SUMMARY_HEADING, sentences: [...afterVisitSummary] }] : [])];
  const label = engineLine(engines.speech, engines.text);
  const text = [label, '', ...all.flatMap((s) => [s.heading, s.sentences.map(plainSentence).join(' '), ''])].join('\n').trimEnd();
  const formattedText = [
    `<p data-ai-engine="${escapeHtml(engines.text.kind)}"><em>${escapeHtml(label)}</em></p>`,
    ...all.map((s) => `<h3>${escapeHtml(s.heading)}</h3><p>${s.sentences.map(htmlSentence).join(' ')}</p>`),
  ].join('');
  return { text, formattedText };
}

/** A draft that already holds the clinician's text keeps it: the generated note goes below. */
export function mergeIntoDraft(existing: { text?: string; formattedText?: string }, generated: { text: string; formattedText: string }) {
  const hasText = (existing.text ?? '').trim().length > 0;
  return hasText
    ? {
        text: `${existing.text}\n\n${generated.text}`,
        formattedText: `${existing.formattedText ?? escapeHtml(existing.text ?? '')}<hr>${generated.formattedText}`,
      }
    : generated;
}
