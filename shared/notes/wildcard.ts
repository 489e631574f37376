import { WILDCARD } from './note-constants.js';

export function hasWildcard(text: string | undefined | null): boolean {
  return !!text && text.includes(WILDCARD);
}

/** Start offsets of every wildcard, in order; the editor's F2 / Shift+F2 walk this list. */
export function wildcardOffsets(text: string): number[] {
  const out: number[] = [];
  for (let i = text.indexOf(WILDCARD); i !== -1; i = text.indexOf(WILDCARD, i + WILDCARD.length)) out.push(i);
  return out;
}

/** The next wildcard after `from` (wrapping), or the previous one before it when `backwards` (Shift+F2). */
export function nextWildcardOffset(text: string, from: number, backwards = false): number | null {
  const all = wildcardOffsets(text);
  if (all.length === 0) return null;
  if (backwards) {
    const before = all.filter((o) => o < from);
    return before.length ? before[before.length - 1]! : all[all.length - 1]!;
  }
  return all.find((o) => o > from) ?? all[0]!;
}
