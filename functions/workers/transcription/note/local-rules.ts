/**
 * The local note writer: no language model. It sorts the transcript's sentences into Subjective,
 * Objective, Assessment and Plan by the words they hold, writes the after-visit summary from the
 * plan, and finds chart changes with rules over the drug and ICD-10 code sets. Every sentence
 * keeps the segment it came from. The note says it was written by these rules.
 */
import type { AiEngine, EvidencedSentence, NoteSection, TranscriptSegment } from '../../../../shared/ai/transcription-schema.js';
import { drugCodes, icd10Codes } from '../../../lib/code-sets/code-sets.js';
import type { Icd10Index } from '../../../lib/code-sets/icd10-index.js';
import type { DrugIndex } from '../../../lib/code-sets/ndc.js';
import { SOAP_HEADINGS, type NoteWriter, type ProposalDraft, type SoapHeading } from './note-model.js';
import { digitsFromSpoken } from './spoken-numbers.js';

export const LOCAL_RULES_ENGINE: AiEngine = { kind: 'local-rules', local: true, label: 'Local rule-based formatter (no language model)' };

const RULES: [Exclude<SoapHeading, 'Subjective'>, RegExp][] = [
  ['Plan', /\b(start|starting|stop|stopping|discontinue\w*|prescrib\w*|continue|follow(?:ing)? up|return|come back|schedule|refer\w*|order\w*|recommend\w*|increase|decrease|take|taking|check again|recheck|plan)\b/],
  ['Objective', /\b(blood pressure|heart rate|pulse|temperature|weigh\w*|oxygen|saturation|respiratory rate|exam\w*|auscultation|lungs?|heart sounds?|tender\w*|swelling|rash|palpat\w*|vitals?|bmi)\b/],
  ['Assessment', /\b(diagnos\w*|assessment|impression|likely|consistent with|suspect\w*|probabl\w*|rule out|differential|suggests?|due to)\b/],
];

export function soapHeadingOf(text: string): SoapHeading {
  const lower = text.toLowerCase();
  for (const [heading, rule] of RULES) if (rule.test(lower)) return heading;
  return 'Subjective';
}

/** The segment as a written sentence: digits for spoken numbers, a capital and a full stop. */
export function sentenceOf(segment: TranscriptSegment): string {
  const text = digitsFromSpoken(segment.text.trim()).replace(/\s+/g, ' ');
  if (!text) return '';
  const capital = text[0].toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

export function localSoapNote(transcript: readonly TranscriptSegment[]): NoteSection[] {
  const sections = new Map<SoapHeading, EvidencedSentence[]>(SOAP_HEADINGS.map((h) => [h, []]));
  for (const segment of transcript) {
    const text = sentenceOf(segment);
    if (text) sections.get(soapHeadingOf(segment.text))!.push({ text, segmentIds: [segment.id] });
  }
  return SOAP_HEADINGS.map((heading) => ({
    heading,
    // An empty section says so, without evidence, so the clinician sees it was not heard.
    sentences: sections.get(heading)!.length ? sections.get(heading)! : [{ text: 'Nothing was said for this section.', segmentIds: [] }],
  }));
}

/** The patient's copy: the plan's sentences, addressed to the patient where the wording allows. */
export function localAfterVisitSummary(note: readonly NoteSection[]): EvidencedSentence[] {
  const plan = note.find((s) => s.heading === 'Plan')?.sentences.filter((s) => s.segmentIds.length) ?? [];
  if (!plan.length) return [{ text: 'No changes to your care were stated at this visit.', segmentIds: [] }];
  return plan.map((s) => ({ text: s.text, segmentIds: s.segmentIds }));
}

const STOPWORDS = new Set(
  'the a an and or of to in on for with is was are were be been it this that his her their your you he she they we i me my our at by as from has have had not no yes over under per day days week weeks month months year years start stop take patient reports about also then some'.split(
    ' ',
  ),
);
const words = (text: string) => text.toLowerCase().split(/[^a-z0-9.]+/).filter(Boolean);

/** The practice's loaded code sets (the starter sets until an import). */
export interface CodeSets {
  drugs(): Promise<DrugIndex>;
  icd10(): Promise<Icd10Index>;
}
export const LOADED_CODE_SETS: CodeSets = { drugs: async () => (await drugCodes()).value, icd10: async () => (await icd10Codes()).value };

const START = /\b(start|starting|begin|prescrib\w*|put \w+ on|add|adding|take|taking)\b/g;
const STOP = /\b(stop|stopping|discontinue\w*|quit|hold|holding)\b/g;
const DOSE = /\b(\d+(?:\.\d+)?) ?(milligrams?|mg|micrograms?|mcg|grams?|units?)\b/;

/** The last start/stop cue before `position` in the sentence decides what happens to a drug named there. */
function cueBefore(lower: string, position: number): 'start' | 'stop' | undefined {
  let best: { at: number; kind: 'start' | 'stop' } | undefined;
  for (const [rule, kind] of [
    [START, 'start'],
    [STOP, 'stop'],
  ] as const) {
    for (const m of lower.matchAll(rule)) if (m.index! < position && (!best || m.index! > best.at)) best = { at: m.index!, kind };
  }
  return best?.kind;
}

const unitOf = (u: string) => (u.startsWith('milli') || u === 'mg' ? 'mg' : u.startsWith('micro') || u === 'mcg' ? 'mcg' : u.startsWith('gram') ? 'g' : 'units');

async function medicationProposals(codes: CodeSets, segment: TranscriptSegment, lower: string): Promise<ProposalDraft[]> {
  const drugs = await codes.drugs();
  const found: ProposalDraft[] = [];
  const seen = new Set<string>();
  for (const word of new Set(words(lower))) {
    if (word.length < 4 || STOPWORDS.has(word) || /^\d/.test(word) || seen.has(word)) continue;
    const hit = drugs.search(word, 'NAME', 10).items.find((d) => d.genericName.toLowerCase().split(/[\s,/]+/)[0] === word || d.productName.toLowerCase().split(/\s+/)[0] === word);
    if (!hit) continue;
    seen.add(word);
    const kind = cueBefore(lower, lower.indexOf(word));
    if (!kind) continue;
    const name = word[0].toUpperCase() + word.slice(1);
    // The dose spoken with this drug: up to the next clause ("stop x and start y 400 mg" gives y the dose).
    const clause = lower.slice(lower.indexOf(word)).split(/\b(?:and|then|but|stop|start|also)\b/)[0];
    const dose = kind === 'start' ? DOSE.exec(clause) : null;
    const fields: Record<string, string | number> = { productName: name, genericName: hit.genericName };
    if (dose) Object.assign(fields, { strength: dose[1], strengthUOM: unitOf(dose[2]) });
    found.push({
      kind: kind === 'start' ? 'medication-start' : 'medication-stop',
      summary: kind === 'start' ? `Start ${name}${dose ? ` ${dose[1]} ${unitOf(dose[2])}` : ''}` : `Stop ${name}`,
      fields,
      segmentIds: [segment.id],
    });
  }
  return found;
}

function allergyProposals(segment: TranscriptSegment, lower: string): ProposalDraft[] {
  const m = /\b(?:allergic to|allergy to|allergies to|reaction to)\s+([a-z]+(?:\s+[a-z]+)?)/.exec(lower);
  if (!m) return [];
  const name = m[1].split(/\s+/).filter((w) => !STOPWORDS.has(w))[0];
  if (!name) return [];
  const label = name[0].toUpperCase() + name.slice(1);
  return [{ kind: 'allergy', summary: `Allergy to ${label}`, fields: { name: label }, segmentIds: [segment.id] }];
}

/** Description words that do not narrow a diagnosis, so "headache" is "Headache, unspecified". */
const FILLER = new Set(['unspecified', 'essential', 'primary', 'site', 'not', 'elsewhere', 'classified', 'other', 'of', 'and', 'nos']);

async function diagnosisProposals(codes: CodeSets, segment: TranscriptSegment, lower: string): Promise<ProposalDraft[]> {
  const icd10 = await codes.icd10();
  const tokens = words(lower).filter((w) => !STOPWORDS.has(w) && !/^\d/.test(w));
  const found: ProposalDraft[] = [];
  const used = new Set<number>();
  for (let size = 3; size >= 1; size--) {
    for (let i = 0; i + size <= tokens.length; i++) {
      if ([...Array(size).keys()].some((k) => used.has(i + k))) continue;
      const gram = tokens.slice(i, i + size);
      if (gram.join('').length < 5) continue;
      const hit = icd10
        .search(gram.join(' '), 25, 0)
        .items.find((c) => {
          const core = words(c.description.replace(/[(),]/g, ' ')).filter((w) => !FILLER.has(w));
          return core.length === gram.length && gram.every((g) => core.includes(g));
        });
      if (!hit) continue;
      gram.forEach((_g, k) => used.add(i + k));
      found.push({ kind: 'diagnosis', summary: `${hit.description} (${hit.code})`, fields: { name: hit.description, code: hit.code, icd10CodeId: hit.ident }, segmentIds: [segment.id] });
    }
  }
  return found;
}

const VITALS: [string, RegExp][] = [
  ['heartRate', /\b(?:heart rate|pulse)(?: is| of| was| rate)? (\d{2,3})\b/],
  ['temp', /\btemperature(?: is| of| was)? (\d{2,3}(?:\.\d)?)\b/],
  ['weight', /\b(?:weight(?: is| of| was)?|weighs) (\d{2,3}(?:\.\d)?) ?(?:pounds|lbs?)?\b/],
  ['spo2', /\b(?:oxygen saturation|saturation|o2 sat\w*)(?: is| of| was)? (\d{2,3})\b/],
  ['respiratoryRate', /\brespiratory rate(?: is| of| was)? (\d{1,2})\b/],
];

function vitalsOf(lower: string): Record<string, number> {
  const found: Record<string, number> = {};
  const bp = /\bblood pressure(?: is| of| was)? (\d{2,3}) (?:over|\/) (\d{2,3})\b/.exec(lower);
  if (bp) Object.assign(found, { systolic: Number(bp[1]), diastolic: Number(bp[2]) });
  for (const [key, rule] of VITALS) {
    const m = rule.exec(lower);
    if (m) found[key] = Number(m[1]);
  }
  return found;
}

const VITAL_LABELS: Record<string, string> = { heartRate: 'heart rate', temp: 'temperature', weight: 'weight', spo2: 'SpO2', respiratoryRate: 'respiratory rate' };

export async function localChartProposals(transcript: readonly TranscriptSegment[], codes: CodeSets = LOADED_CODE_SETS): Promise<ProposalDraft[]> {
  const proposals: ProposalDraft[] = [];
  const vitals: Record<string, number> = {};
  const vitalsEvidence: string[] = [];
  for (const segment of transcript) {
    const lower = digitsFromSpoken(segment.text.toLowerCase());
    proposals.push(...(await medicationProposals(codes, segment, lower)), ...allergyProposals(segment, lower));
    if (soapHeadingOf(segment.text) !== 'Plan') proposals.push(...(await diagnosisProposals(codes, segment, lower)));
    const spoken = vitalsOf(lower);
    if (Object.keys(spoken).length) {
      Object.assign(vitals, spoken);
      vitalsEvidence.push(segment.id);
    }
  }
  if (vitalsEvidence.length) {
    const parts = [
      ...(vitals.systolic ? [`blood pressure ${vitals.systolic}/${vitals.diastolic}`] : []),
      ...Object.entries(vitals)
        .filter(([k]) => k in VITAL_LABELS)
        .map(([k, v]) => `${VITAL_LABELS[k]} ${v}`),
    ];
    proposals.push({ kind: 'vitals', summary: `Vitals: ${parts.join(', ')}`, fields: vitals, segmentIds: vitalsEvidence });
  }
  // One proposal per drug, allergy and code: the first mention carries the evidence, later ones add to it.
  const merged = new Map<string, ProposalDraft>();
  for (const p of proposals) {
    const key = `${p.kind}:${String(p.fields.code ?? p.fields.productName ?? p.fields.name ?? 'vitals').toLowerCase()}`;
    const prior = merged.get(key);
    if (prior) prior.segmentIds = [...new Set([...prior.segmentIds, ...p.segmentIds])];
    else merged.set(key, { ...p, segmentIds: [...p.segmentIds] });
  }
  return [...merged.values()];
}

export class LocalRulesNoteWriter implements NoteWriter {
  readonly engine = LOCAL_RULES_ENGINE;
  constructor(private readonly codes: CodeSets = LOADED_CODE_SETS) {}
  async soapNote(transcript: readonly TranscriptSegment[]) {
    return localSoapNote(transcript);
  }
  async afterVisitSummary(_transcript: readonly TranscriptSegment[], note: readonly NoteSection[]) {
    return localAfterVisitSummary(note);
  }
  async chartProposals(transcript: readonly TranscriptSegment[]) {
    return localChartProposals(transcript, this.codes);
  }
}
