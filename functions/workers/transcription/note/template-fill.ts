/**
 * A custom Copilot template (copilot_custom_templates: an active template with wild cards) laid
 * out with the visit: each {{wild card}} receives the generated section its label names (the text
 * before it on its line, or the line above: 'History of present illness:' → Subjective, 'Exam' →
 * Objective, 'Impression' → Assessment, 'Plan' → Plan, 'Patient instructions' → the after-visit
 * summary). Wild cards whose label names none share the sections no other wild card took, so no
 * wild card is left (a note cannot be saved with one, spec notes §4) and no sentence is lost.
 */
import type { AiEngine, EvidencedSentence, NoteSection } from '../../../../shared/ai/transcription-schema.js';
import { htmlToText, normalizeToken, textToHtml } from '../../../../shared/templates/placeholders.js';
import { AFTER_VISIT_SUMMARY_HEADING } from './note-model.js';
import { engineLine, UNEVIDENCED_MARK } from './note-text.js';

const LABELS: [string, RegExp][] = [
  [AFTER_VISIT_SUMMARY_HEADING, /\b(after[- ]visit|summary|patient instructions|instructions for)\b/i],
  ['Plan', /\b(plan|treatment|follow[- ]?up|recommendation|orders?)\b/i],
  ['Assessment', /\b(assessment|impression|diagnos[ie]s|problem)\b/i],
  ['Objective', /\b(objective|exam|examination|vitals?|findings?|physical)\b/i],
  ['Subjective', /\b(subjective|history|hpi|complaint|reason for visit|symptoms?|interval)\b/i],
];

const TOKEN = /\{\{\s*([^{}]+?)\s*\}\}/g;
const isWildcard = (raw: string) => normalizeToken(raw) === 'wild card';

function sectionText(section: NoteSection): string {
  return section.sentences.map((s) => (s.segmentIds.length ? s.text : `${s.text} ${UNEVIDENCED_MARK}`)).join(' ');
}

function labelOf(lines: readonly string[], lineIndex: number, before: string): string | undefined {
  const own = before.replace(TOKEN, '').trim();
  const label =
    own ||
    [...lines.slice(0, lineIndex)]
      .reverse()
      .find((l) => l.replace(TOKEN, '').trim())
      ?.replace(TOKEN, '')
      .trim() ||
    '';
  return LABELS.find(([, rule]) => rule.test(label))?.[0];
}

export function fillTemplate(
  body: string,
  sections: readonly NoteSection[],
  afterVisitSummary: readonly EvidencedSentence[],
  engines: { speech: AiEngine; text: AiEngine },
) {
  const all = new Map<string, NoteSection>(sections.map((s) => [s.heading, s]));
  all.set(AFTER_VISIT_SUMMARY_HEADING, { heading: AFTER_VISIT_SUMMARY_HEADING, sentences: [...afterVisitSummary] });
  const text = /<\/?[a-z][^>]*>/i.test(body) ? htmlToText(body) : body;
  const lines = text.split('\n');
  const wildcards: { line: number; label?: string }[] = [];
  lines.forEach((line, i) => {
    for (const m of line.matchAll(TOKEN)) if (isWildcard(m[1]!)) wildcards.push({ line: i, label: labelOf(lines, i, line.slice(0, m.index)) });
  });
  const taken = new Set(wildcards.map((w) => w.label).filter(Boolean));
  const rest = [...all.values()].filter((s) => !taken.has(s.heading) && s.sentences.length);
  const restText = rest.map((s) => `${s.heading}: ${sectionText(s)}`).join('\n');
  let unlabelled = 0;
  const filled = lines.map((line) =>
    line.replace(TOKEN, (whole, raw: string) => {
      if (!isWildcard(raw)) return whole;
      const w = wildcards.shift()!;
      if (w.label) return sectionText(all.get(w.label) ?? { heading: w.label, sentences: [] });
      // The sections nobody named go to the first unlabelled wild card; later ones are left empty.
      return unlabelled++ === 0 ? restText : '';
    }),
  );
  const label = engineLine(engines.speech, engines.text);
  const out = [label, '', ...filled].join('\n').trimEnd();
  return { text: out, formattedText: textToHtml(out) };
}
