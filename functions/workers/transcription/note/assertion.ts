/**
 * Whether a sentence asserts a finding of the patient, in the manner of NegEx (Chapman et al.,
 * J Biomed Inform 2001) and its extension ConText (Harkema et al., J Biomed Inform 2009): trigger
 * phrases of a category (negated, possible/hypothetical, experienced by a family member, historical)
 * reach forward or backward over the words of their sentence until a termination term, a trigger
 * of another category, the sentence's end or a window of words; pseudo-triggers ("no change",
 * "not only") look like triggers and reach nothing. Speech arrives without punctuation, so the
 * window keeps a trigger from reaching into the next statement ("no fever throat is red").
 */

export type Assertion = 'affirmed' | 'negated' | 'possible' | 'family' | 'historical';
type Category = Exclude<Assertion, 'affirmed'>;
type Direction = 'forward' | 'backward' | 'both';

interface Trigger {
  words: string[];
  category: Category | 'pseudo' | 'terminate';
  direction: Direction;
}

/** Words a trigger reaches at most: NegEx's window was five, ConText's the sentence; spoken lists run longer. */
export const SCOPE_WORDS = 8;

const t = (category: Trigger['category'], direction: Direction, phrases: string[]): Trigger[] =>
  phrases.map((p) => ({ words: p.split(' '), category, direction }));

const TRIGGERS: Trigger[] = [
  // Pseudo-triggers first: at a position they win over a shorter trigger inside them.
  ...t('pseudo', 'forward', [
    'no increase',
    'no change',
    'no changes',
    'not only',
    'no further',
    'not necessarily',
    'not certain whether',
    'without difficulty',
    'gram negative',
    'no doubt',
    'not cause',
    'not drain',
    'not extend',
    'history and physical',
    'social history',
    'family history and',
    'lives with',
    'no longer taking',
    'no problem with',
  ]),
  ...t('negated', 'forward', [
    'no',
    'not',
    'denies',
    'denied',
    'deny',
    'denying',
    'without',
    'negative for',
    'free of',
    'absence of',
    'no evidence of',
    'no sign of',
    'no signs of',
    'never',
    'never had',
    "doesn't have",
    'does not have',
    "didn't have",
    'did not have',
    "hasn't had",
    'has not had',
    "isn't",
    "aren't",
    "wasn't",
    "don't",
    'nor',
    'ruled out',
    'rules out',
    'not have',
    'resolution of',
    'no longer',
    'no more',
    'none',
    'fails to reveal',
    'not demonstrate',
    'no complaints of',
  ]),
  ...t('negated', 'backward', [
    'is unlikely',
    'was unlikely',
    'is ruled out',
    'was ruled out',
    'been ruled out',
    'unlikely',
    'is negative',
    'was negative',
    'are negative',
    'came back negative',
    'is absent',
    'are absent',
    'not seen',
    'is gone',
    'has gone away',
    'went away',
    'free',
  ]),
  ...t('possible', 'forward', [
    'possible',
    'possibly',
    'could be',
    'could have',
    'may be',
    'may have',
    'might be',
    'might have',
    'maybe',
    'rule out',
    'to rule out',
    'r o',
    'question of',
    'questionable',
    'concern for',
    'concerned about',
    'concerning for',
    'worried about',
    'suspicious for',
    'suspect',
    'suspected',
    'suspicion of',
    'consider',
    'considering',
    'evaluate for',
    'evaluation for',
    'test for',
    'check for',
    'screen for',
    'differential',
    'differential includes',
    'versus',
    'vs',
    'cannot rule out',
    'cannot exclude',
    'not rule out',
    'could',
    'might',
    'may',
    'whether',
    'if',
    'in case',
    'should',
    'unless',
    'watch for',
    'look for',
    'return if',
    'call if',
    'come back if',
    'not sure',
    'not certain',
  ]),
  ...t('possible', 'backward', [
    'is possible',
    'is not excluded',
    'not excluded',
    'not ruled out',
    'is a possibility',
    'is suspected',
    'is in the differential',
    'or not',
  ]),
  ...t('family', 'both', [
    'family history of',
    'family history',
    'mother',
    'father',
    'mom',
    'dad',
    'brother',
    'sister',
    'sibling',
    'siblings',
    'parents',
    'grandmother',
    'grandfather',
    'grandparent',
    'grandparents',
    'aunt',
    'uncle',
    'cousin',
    'son',
    'daughter',
    'runs in the family',
    'runs in her family',
    'runs in his family',
  ]),
  ...t('historical', 'forward', [
    'history of',
    'past history of',
    'past medical history of',
    'previous',
    'previously',
    'prior',
    'status post',
    'used to have',
    'used to',
    'had a history of',
    'in the past had',
  ]),
  ...t('historical', 'backward', [
    'years ago',
    'year ago',
    'last year',
    'as a child',
    'in the past',
    'in childhood',
    'when she was young',
    'when he was young',
    'which resolved',
    'has resolved',
    'resolved',
    'in college',
    'in high school',
  ]),
  ...t('terminate', 'both', [
    'but',
    'however',
    'although',
    'though',
    'except',
    'aside from',
    'apart from',
    'yet',
    'which',
    'who',
    'because',
    'since',
    'secondary to',
    'due to',
    'and she',
    'and he',
    'and the',
    'still',
    'presents with',
    'complains of',
    'now has',
    'now with',
  ]),
  // Speech has no full stops: a new subject or verb after a denial starts the next statement
  // ("no fever throat is red"). They end only a forward reach ("asthma was diagnosed years ago").
  ...t('terminate', 'forward', ['the patient', 'patient', 'she', 'he', 'is', 'are', 'was', 'were', 'reports', 'says']),
];

/** Longest phrases first, so "no evidence of" is one trigger and "not rule out" is not "not". */
const ORDERED = [...TRIGGERS].sort((a, b) => b.words.length - a.words.length || (a.category === 'pseudo' ? -1 : 0));

export interface Word {
  text: string;
  start: number;
  end: number;
}

/** The words of a text with their character positions (apostrophes stay inside a word). */
export function wordsOf(text: string): Word[] {
  return [...text.toLowerCase().matchAll(/[a-z0-9]+(?:['’][a-z]+)?(?:\.\d+)?/g)].map((m) => ({
    text: m[0].replace('’', "'"),
    start: m.index,
    end: m.index + m[0].length,
  }));
}

/** The statements of a text: a new one after . ! ? ; (a decimal point stays inside). */
export function statementsOf(text: string): { text: string; start: number }[] {
  const out: { text: string; start: number }[] = [];
  const rule = /[^.!?;]+(?:\.\d[^.!?;]*)*[.!?;]*/g;
  for (const m of text.matchAll(rule)) {
    const trimmed = m[0].trim();
    if (trimmed) out.push({ text: trimmed, start: m.index + m[0].indexOf(trimmed) });
  }
  return out;
}

interface Found {
  category: Trigger['category'];
  direction: Direction;
  from: number;
  to: number;
  phrase: string;
}

function triggersIn(words: readonly Word[]): Found[] {
  const found: Found[] = [];
  let i = 0;
  while (i < words.length) {
    const hit = ORDERED.find((tr) => tr.words.every((w, k) => words[i + k]?.text === w));
    if (hit) {
      found.push({ category: hit.category, direction: hit.direction, from: i, to: i + hit.words.length, phrase: hit.words.join(' ') });
      i += hit.words.length;
    } else i += 1;
  }
  return found;
}

export interface AssertionResult {
  assertion: Assertion;
  /** The trigger that decided it ("no", "mother", "history of"). */
  trigger?: string;
}

/** Precedence when two categories reach a word: a denial wins over a doubt, a doubt over another person's or a past illness. */
const PRECEDENCE: Category[] = ['negated', 'possible', 'family', 'historical'];

/**
 * The assertion of the words [from, to) of one statement's word list: the categories whose
 * triggers reach them. A trigger's reach stops at a termination term or a trigger of another
 * category (ConText), at the statement's end and after SCOPE_WORDS words.
 */
export function assertionOfWords(words: readonly Word[], from: number, to: number): AssertionResult {
  const triggers = triggersIn(words);
  const hits: { category: Category; phrase: string }[] = [];
  for (const [n, tr] of triggers.entries()) {
    if (tr.category === 'pseudo' || tr.category === 'terminate') continue;
    const category = tr.category;
    const stops = (other: Found, reach: 'forward' | 'backward') =>
      other.category === 'terminate' ? other.direction === 'both' || other.direction === reach : other.category !== 'pseudo' && other.category !== category;
    if ((tr.direction === 'forward' || tr.direction === 'both') && tr.to <= from) {
      let end = Math.min(words.length, tr.to + SCOPE_WORDS);
      for (const other of triggers.slice(n + 1)) if (stops(other, 'forward') && other.from < end) end = other.from;
      if (to <= end) hits.push({ category, phrase: tr.phrase });
    }
    if ((tr.direction === 'backward' || tr.direction === 'both') && tr.from >= to) {
      let begin = Math.max(0, tr.from - SCOPE_WORDS);
      for (const other of triggers.slice(0, n)) if (stops(other, 'backward') && other.to > begin) begin = other.to;
      if (from >= begin) hits.push({ category, phrase: tr.phrase });
    }
  }
  for (const category of PRECEDENCE) {
    const hit = hits.find((h) => h.category === category);
    if (hit) return { assertion: category, trigger: hit.phrase };
  }
  return { assertion: 'affirmed' };
}

/** The assertion of the characters [start, end) of a text: judged within the statement that holds them. */
export function assertionAt(text: string, start: number, end: number): AssertionResult & { statement: string } {
  const statement = statementsOf(text)
    .filter((s) => s.start <= start)
    .at(-1) ?? { text, start: 0 };
  const words = wordsOf(statement.text);
  const relStart = start - statement.start;
  const relEnd = end - statement.start;
  const from = words.findIndex((w) => w.end > relStart);
  let to = words.findIndex((w) => w.start >= relEnd);
  if (to < 0) to = words.length;
  if (from < 0) return { assertion: 'affirmed', statement: statement.text };
  return { ...assertionOfWords(words, from, Math.max(from + 1, to)), statement: statement.text };
}

/**
 * The assertion of a term named in a text (a model's diagnosis name, an allergen): every mention
 * is judged, and the term is affirmed when any mention is. A term the text does not hold word for
 * word (a model's paraphrase) is judged by its statements: affirmed only when no statement holds a
 * trigger at all, so a paraphrase cannot slip a negated finding through.
 */
export function assertionOfTerm(text: string, term: string): AssertionResult & { statement?: string } {
  const termWords = wordsOf(term).map((w) => w.text);
  const results: (AssertionResult & { statement: string })[] = [];
  if (termWords.length) {
    const all = wordsOf(text);
    for (let i = 0; i + termWords.length <= all.length; i++) {
      if (termWords.every((w, k) => all[i + k].text === w)) results.push(assertionAt(text, all[i].start, all[i + termWords.length - 1].end));
    }
  }
  if (results.length) return results.find((r) => r.assertion === 'affirmed') ?? results[0];
  for (const s of statementsOf(text)) {
    const found = triggersIn(wordsOf(s.text)).find((tr) => tr.category !== 'pseudo' && tr.category !== 'terminate');
    if (found) return { assertion: found.category as Category, trigger: found.phrase, statement: s.text };
  }
  return { assertion: 'affirmed' };
}

/** Family relation codes of the chart's family history (shared/chart/constants FAMILY_RELATIONS). */
export function relationOf(trigger: string | undefined): string | undefined {
  switch (trigger) {
    case 'mother':
    case 'mom':
      return 'MTH';
    case 'father':
    case 'dad':
      return 'FTH';
    case 'brother':
      return 'BRO';
    case 'sister':
      return 'SIS';
    case 'grandmother':
    case 'grandfather':
    case 'grandparent':
    case 'grandparents':
      return 'GRPRN';
    default:
      return undefined;
  }
}

/** "No fever." as a pertinent negative: "Denies fever." (a statement opening with a bare "no"). */
export function pertinentNegative(sentence: string): string {
  const m = /^no\s+(?!known\b|change|further|longer|more\b)(.+)$/i.exec(sentence.trim());
  return m ? `Denies ${m[1]}` : sentence;
}
