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
import { assertionAt, pertinentNegative, relationOf, statementsOf, wordsOf } from './assertion.js';
import { digitsFromSpoken } from './spoken-numbers.js';

export const LOCAL_RULES_ENGINE: AiEngine = { kind: 'local-rules', local: true, label: 'Local rule-based formatter (no language model)' };

/**
 * Where a clinician writes a statement, tried in this order: what will be done (Plan), what the
 * patient tells (Subjective: reports, denials, history, family), what was measured or examined
 * (Objective), the impression (Assessment), then tests and advice without a "will" (Plan). Anything
 * else is the patient's story (Subjective).
 */
const RULES: [SoapHeading, RegExp][] = [
  [
    'Plan',
    /\b(will|we'll|i'll|let's|going to|plan is|the plan|follow(?:ing)? up|come back|return (?:in|if|to)|call (?:us |back )?if|schedul\w*|refer\w*|prescrib\w*|recommend\w*|advis\w*|start|starting|stop|stopping|discontinu\w*|continue|increase|decrease|order\w*|check again|recheck)\b/,
  ],
  [
    'Subjective',
    /\b(reports?|reported|says|said|states|stated|complains?|complaining|describes|endorses|denies|denied|feels|felt|at home|history|mother|father|mom|dad|brother|sister|grandmother|grandfather|family|has had|has been having|never had|has never|(?:for|since) (?:the past |the last |about )?(?:(?:\d+|a|one|two|three|four|five|six|seven|several|a few|a couple of) (?:days?|weeks?|months?|years?|nights?)|yesterday|last \w+)|years ago|as a child|allergic)\b/,
  ],
  [
    'Objective',
    /\b((?<!high |low )blood pressure|heart rate|pulse|temperature is|temperature of|temperature \d|temp is|respiratory rate|oxygen|saturation|weigh\w*|bmi|vitals?|on exam\w*|exam\w*|auscultation|palpat\w*|came back|results?|is positive|is negative|was positive|was negative|tender\w*|swelling|swollen|wheez\w*|crackles|murmur|rash|exudates?|erythema\w*|(?:throat|pharynx|tonsils?|ears?|eardrums?|tympanic membranes?|lungs?|heart|abdomen|belly|skin|eyes?|nose|neck|lymph nodes?|glands?|chest|extremities|legs?|knees?|back) (?:is|are|looks?|appears?|sounds?)\b)/,
  ],
  [
    'Assessment',
    /\b(diagnos\w*|assessment|concern\w*|impression|likely|consistent with|suspect\w*|probabl\w*|rule out|differential|suggests?|due to|could be|may be|might be|possibl\w*|viral|bacterial|i think|looks like|this is)\b/,
  ],
  ['Plan', /\b(take|test|testing|swab|x ray|x-ray|culture|blood work|labs?|rest|fluids|ice|elevat\w*|counsel\w*|encourag\w*|avoid)\b/],
];

export function soapHeadingOf(text: string): SoapHeading {
  const lower = text.toLowerCase();
  for (const [heading, rule] of RULES) if (rule.test(lower)) return heading;
  return 'Subjective';
}

const written = (text: string) => {
  const capital = text[0].toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
};

/** The segment as a written sentence: digits for spoken numbers, a capital and a full stop. */
export function sentenceOf(segment: TranscriptSegment): string {
  const text = digitsFromSpoken(segment.text.trim()).replace(/\s+/g, ' ');
  return text ? written(text) : '';
}

/** The segment's statements as written sentences ("No fever. Throat is red." is two), each with its heading. */
export function placedStatements(segment: TranscriptSegment): { heading: SoapHeading; text: string }[] {
  const text = digitsFromSpoken(segment.text.trim()).replace(/\s+/g, ' ');
  return statementsOf(text).map((s) => {
    const heading = soapHeadingOf(s.text);
    const plain = s.text.replace(/[.!?;]+$/, '');
    // A denial of a symptom stays in the note as a pertinent negative.
    return { heading, text: written(heading === 'Subjective' ? pertinentNegative(plain) : plain) };
  });
}

export function localSoapNote(transcript: readonly TranscriptSegment[]): NoteSection[] {
  const sections = new Map<SoapHeading, EvidencedSentence[]>(SOAP_HEADINGS.map((h) => [h, []]));
  for (const segment of transcript) {
    for (const { heading, text } of placedStatements(segment)) sections.get(heading)!.push({ text, segmentIds: [segment.id] });
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
const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^a-z0-9.]+/)
    .filter(Boolean);

/** The practice's loaded code sets (the starter sets until an import). */
export interface CodeSets {
  drugs(): Promise<DrugIndex>;
  icd10(): Promise<Icd10Index>;
}
export const LOADED_CODE_SETS: CodeSets = { drugs: async () => (await drugCodes()).value, icd10: async () => (await icd10Codes()).value };

// "Is taking" and "has been taking" tell what the patient already takes: no start.
const START =
  /\b(start|starting|begin|prescrib\w*|put \w+ on|add|adding|(?<!\b(?:is|are|was|been|still|not) )take|(?<!\b(?:is|are|was|been|still|not) )taking)\b/g;
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

const unitOf = (u: string) =>
  u.startsWith('milli') || u === 'mg' ? 'mg' : u.startsWith('micro') || u === 'mcg' ? 'mcg' : u.startsWith('gram') ? 'g' : 'units';

/** One statement of a segment, lower case, with the segment it came from and its words as heard. */
interface Statement {
  segmentId: string;
  lower: string;
  evidence: string;
}

const asserted = (st: Statement, start: number, end: number) => assertionAt(st.lower, start, end);

async function medicationProposals(codes: CodeSets, st: Statement): Promise<ProposalDraft[]> {
  const drugs = await codes.drugs();
  const found: ProposalDraft[] = [];
  const seen = new Set<string>();
  for (const w of wordsOf(st.lower)) {
    const word = w.text;
    if (word.length < 4 || STOPWORDS.has(word) || /^\d/.test(word) || seen.has(word)) continue;
    const hit = drugs
      .search(word, 'NAME', 10)
      .items.find((d) => d.genericName.toLowerCase().split(/[\s,/]+/)[0] === word || d.productName.toLowerCase().split(/\s+/)[0] === word);
    if (!hit) continue;
    seen.add(word);
    const kind = cueBefore(st.lower, w.start);
    // "Do not start", "we could start … if", "used to take": no change is stated.
    if (!kind || asserted(st, w.start, w.end).assertion !== 'affirmed') continue;
    const name = word[0].toUpperCase() + word.slice(1);
    // The dose spoken with this drug: up to the next clause ("stop x and start y 400 mg" gives y the dose).
    const clause = st.lower.slice(w.start).split(/\b(?:and|then|but|stop|start|also)\b/)[0];
    const dose = kind === 'start' ? DOSE.exec(clause) : null;
    const fields: Record<string, string | number> = { productName: name, genericName: hit.genericName };
    if (dose) Object.assign(fields, { strength: dose[1], strengthUOM: unitOf(dose[2]) });
    found.push({
      kind: kind === 'start' ? 'medication-start' : 'medication-stop',
      summary: kind === 'start' ? `Start ${name}${dose ? ` ${dose[1]} ${unitOf(dose[2])}` : ''}` : `Stop ${name}`,
      fields,
      segmentIds: [st.segmentId],
      evidence: st.evidence,
    });
  }
  return found;
}

function allergyProposals(st: Statement): ProposalDraft[] {
  const m = /\b(?:allergic to|allergy to|allergies to|reaction to)\s+([a-z]+(?:\s+[a-z]+)?)/.exec(st.lower);
  if (!m) return [];
  const name = m[1].split(/\s+/).filter((w) => !STOPWORDS.has(w))[0];
  if (!name) return [];
  const at = m.index + m[0].lastIndexOf(name);
  // "Not allergic to penicillin", "her mother is allergic to …", "might be allergic": not the patient's allergy.
  if (asserted(st, at, at + name.length).assertion !== 'affirmed') return [];
  const label = name[0].toUpperCase() + name.slice(1);
  return [{ kind: 'allergy', summary: `Allergy to ${label}`, fields: { name: label }, segmentIds: [st.segmentId], evidence: st.evidence }];
}

/** Description words that do not narrow a diagnosis, so "headache" is "Headache, unspecified". */
const FILLER = new Set(['unspecified', 'essential', 'primary', 'site', 'not', 'elsewhere', 'classified', 'other', 'of', 'and', 'nos']);

/**
 * What patients and clinicians say for a coded condition the code set words differently; a code
 * the loaded set does not hold is not proposed.
 */
const SPOKEN_NAMES: [string, string][] = [
  ['high blood pressure', 'I10'],
  ['high cholesterol', 'E78.5'],
  ['type 2 diabetes', 'E11.9'],
  ['diabetes', 'E11.9'],
  ['asthma', 'J45.909'],
  ['migraines', 'G43.909'],
  ['migraine', 'G43.909'],
  ['ear infection', 'H66.90'],
  ['pneumonia', 'J18.9'],
  ['strep throat', 'J02.0'],
  ['sore throat', 'R07.0'],
  ['acid reflux', 'K21.9'],
  ['reflux', 'K21.9'],
  ['depression', 'F32.9'],
  ['anxiety', 'F41.9'],
  ['dizziness', 'R42'],
  ['dizzy', 'R42'],
  ['cough', 'R05.9'],
  ['vomiting', 'R11.10'],
];

/** A coded condition heard in a statement, as the kind of proposal its assertion allows. */
function conditionDraft(st: Statement, code: { code: string; description: string; ident: string }, start: number, end: number): ProposalDraft | null {
  const { assertion, trigger } = asserted(st, start, end);
  const fields = { name: code.description, code: code.code, icd10CodeId: code.ident, term: st.lower.slice(start, end) };
  const base = { segmentIds: [st.segmentId], evidence: st.evidence };
  switch (assertion) {
    case 'affirmed':
      return { kind: 'diagnosis', summary: `${code.description} (${code.code})`, fields, ...base };
    case 'family': {
      const relation = relationOf(trigger);
      return {
        kind: 'family-history',
        summary: `Family history: ${code.description} (${code.code})`,
        fields: { ...fields, ...(relation ? { relation } : {}) },
        ...base,
      };
    }
    case 'historical':
      return { kind: 'past-history', summary: `Past history: ${code.description} (${code.code})`, fields, ...base };
    default:
      // Negated ("no fever", "denies chest pain") or only possible ("rule out strep"): nothing to chart.
      return null;
  }
}

const rankOf = (description: string) => (/\bunspecified\b/i.test(description) ? 0 : /^other\b/i.test(description) ? 2 : 1);

async function diagnosisProposals(codes: CodeSets, st: Statement): Promise<ProposalDraft[]> {
  const icd10 = await codes.icd10();
  const all = wordsOf(st.lower);
  const tokens = all.filter((w) => !STOPWORDS.has(w.text) && !/^\d/.test(w.text));
  const found: ProposalDraft[] = [];
  const used = new Set<number>();
  const usedWords = new Set<number>();
  for (const [phrase, codeText] of SPOKEN_NAMES) {
    const pw = phrase.split(' ');
    for (let i = 0; i + pw.length <= all.length; i++) {
      if (!pw.every((p, k) => all[i + k].text === p) || pw.some((_p, k) => usedWords.has(i + k))) continue;
      pw.forEach((_p, k) => usedWords.add(i + k));
      const code = icd10.get(codeText);
      if (!code) continue;
      const draft = conditionDraft(st, code, all[i].start, all[i + pw.length - 1].end);
      if (draft) found.push(draft);
    }
  }
  tokens.forEach((t, i) => {
    if (usedWords.has(all.indexOf(t))) used.add(i);
  });
  for (let size = 3; size >= 1; size--) {
    for (let i = 0; i + size <= tokens.length; i++) {
      if ([...Array(size).keys()].some((k) => used.has(i + k))) continue;
      const gram = tokens.slice(i, i + size).map((t) => t.text);
      if (gram.join('').length < 5) continue;
      // "Chest pain" is "Chest pain, unspecified", not "Other chest pain".
      const hit = icd10
        .search(gram.join(' '), 25, 0)
        .items.filter((c) => {
          const core = words(c.description.replace(/[(),]/g, ' ')).filter((w) => !FILLER.has(w));
          return core.length === gram.length && gram.every((g) => core.includes(g));
        })
        .sort((a, b) => rankOf(a.description) - rankOf(b.description))[0];
      if (!hit) continue;
      gram.forEach((_g, k) => used.add(i + k));
      const draft = conditionDraft(st, hit, tokens[i].start, tokens[i + size - 1].end);
      if (draft) found.push(draft);
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

const VITAL_LABELS: Record<string, string> = {
  heartRate: 'heart rate',
  temp: 'temperature',
  weight: 'weight',
  spo2: 'SpO2',
  respiratoryRate: 'respiratory rate',
};

export async function localChartProposals(transcript: readonly TranscriptSegment[], codes: CodeSets = LOADED_CODE_SETS): Promise<ProposalDraft[]> {
  const proposals: ProposalDraft[] = [];
  const vitals: Record<string, number> = {};
  const vitalsEvidence: string[] = [];
  const vitalsStatements: string[] = [];
  for (const segment of transcript) {
    const text = digitsFromSpoken(segment.text.trim()).replace(/\s+/g, ' ');
    for (const statement of statementsOf(text)) {
      const st: Statement = { segmentId: segment.id, lower: statement.text.toLowerCase(), evidence: statement.text };
      proposals.push(...(await medicationProposals(codes, st)), ...allergyProposals(st));
      // What a plan names ("return if the fever comes back") is not a finding.
      if (soapHeadingOf(st.lower) !== 'Plan') proposals.push(...(await diagnosisProposals(codes, st)));
    }
    const spoken = vitalsOf(text.toLowerCase());
    if (Object.keys(spoken).length) {
      Object.assign(vitals, spoken);
      vitalsEvidence.push(segment.id);
      vitalsStatements.push(
        ...statementsOf(text)
          .filter((x) => Object.keys(vitalsOf(x.text.toLowerCase())).length)
          .map((x) => x.text),
      );
    }
  }
  if (vitalsEvidence.length) {
    const parts = [
      ...(vitals.systolic ? [`blood pressure ${vitals.systolic}/${vitals.diastolic}`] : []),
      ...Object.entries(vitals)
        .filter(([k]) => k in VITAL_LABELS)
        .map(([k, v]) => `${VITAL_LABELS[k]} ${v}`),
    ];
    proposals.push({
      kind: 'vitals',
      summary: `Vitals: ${parts.join(', ')}`,
      fields: vitals,
      segmentIds: vitalsEvidence,
      evidence: vitalsStatements.join(' … '),
    });
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
