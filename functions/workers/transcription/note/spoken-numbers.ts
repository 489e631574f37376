/** Spoken numbers (what a recognizer writes) to digits: "one hundred thirty" → 130, "ninety eight point six" → 98.6. */
const UNITS: Record<string, number> = {
  zero: 0,
  oh: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
};
const TENS: Record<string, number> = { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 };
const SCALES: Record<string, number> = { hundred: 100, thousand: 1000 };

const isNumberWord = (w: string) => w in UNITS || w in TENS || w in SCALES || /^\d+(\.\d+)?$/.test(w);

/** One run of number words to its value; undefined when the run is not a number ("oh" alone stays a word). */
function valueOf(words: readonly string[]): number | undefined {
  let total = 0;
  let current = 0;
  let seen = false;
  for (const w of words) {
    if (/^\d+(\.\d+)?$/.test(w)) current += Number(w);
    else if (w in UNITS) current += UNITS[w];
    else if (w in TENS) current += TENS[w];
    else if (w === 'hundred') current = (current || 1) * 100;
    else if (w === 'thousand') {
      total += (current || 1) * 1000;
      current = 0;
    } else return undefined;
    seen = true;
  }
  return seen ? total + current : undefined;
}

/**
 * Replaces each run of number words with digits. A new number starts where place values would
 * repeat ("one twenty" stays two numbers is not attempted: clinicians say "one hundred twenty").
 */
export function digitsFromSpoken(text: string): string {
  // Punctuation after a word ("over eighty.") is set apart while numbers are read, then put back.
  const words = text
    .replace(/([.,;:!?]+)(?=\s|$)/g, ' $1')
    .split(/\s+/)
    .filter(Boolean);
  const out: string[] = [];
  let i = 0;
  while (i < words.length) {
    const lower = words[i].toLowerCase();
    if (!isNumberWord(lower) || lower === 'oh') {
      out.push(words[i]);
      i += 1;
      continue;
    }
    let j = i;
    let lastUnitLike: 'unit' | 'tens' | 'scale' | undefined;
    while (j < words.length) {
      const w = words[j].toLowerCase();
      if (!isNumberWord(w)) break;
      const kind = w in SCALES ? 'scale' : w in TENS ? 'tens' : 'unit';
      // "two three" is two numbers; "twenty three" and "one hundred" are one.
      if (j > i && kind !== 'scale' && lastUnitLike === 'unit') break;
      if (j > i && kind === 'tens' && lastUnitLike === 'tens') break;
      lastUnitLike = kind;
      j += 1;
    }
    let value = valueOf(words.slice(i, j).map((w) => w.toLowerCase()));
    // "ninety eight point six": a decimal part follows "point".
    if (value !== undefined && words[j]?.toLowerCase() === 'point' && words[j + 1] && words[j + 1].toLowerCase() in UNITS) {
      let k = j + 1;
      let decimals = '';
      while (k < words.length && words[k].toLowerCase() in UNITS && UNITS[words[k].toLowerCase()] < 10) {
        decimals += String(UNITS[words[k].toLowerCase()]);
        k += 1;
      }
      value = Number(`${value}.${decimals}`);
      j = k;
    }
    out.push(value === undefined ? words[i] : String(value));
    i = value === undefined ? i + 1 : j;
  }
  return out.join(' ').replace(/ ([.,;:!?]+)(?=\s|$)/g, '$1');
}
