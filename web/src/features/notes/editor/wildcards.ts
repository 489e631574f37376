import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { WILDCARD } from '../../../../../shared/notes/note-constants.js';

/** Document positions where a `***` wildcard starts, in reading order. */
export function wildcardPositions(doc: ProseMirrorNode): number[] {
  const positions: number[] = [];
  doc.descendants((node, pos) => {
    if (!node.isText || !node.text) return;
    for (let i = node.text.indexOf(WILDCARD); i !== -1; i = node.text.indexOf(WILDCARD, i + WILDCARD.length)) positions.push(pos + i);
  });
  return positions;
}

/**
 * F2 selects the first wildcard after the selection, Shift+F2 the last one before it; both wrap
 * around so the user can cycle through the template's blanks.
 */
export function pickWildcard(positions: readonly number[], selection: { from: number; to: number }, backwards: boolean): number | null {
  if (positions.length === 0) return null;
  if (backwards) {
    const before = positions.filter((p) => p < selection.from);
    return before.length ? before[before.length - 1]! : positions[positions.length - 1]!;
  }
  return positions.find((p) => p >= selection.to) ?? positions[0]!;
}
