import { getSchema } from '@tiptap/core';
import StarterKit from '@tiptap/starter-kit';
import { describe, expect, it } from 'vitest';
import { pickWildcard, wildcardPositions } from './wildcards.js';

const schema = getSchema([StarterKit]);
const doc = schema.node('doc', null, [
  schema.node('paragraph', null, [schema.text('BP *** mmHg')]),
  schema.node('paragraph', null, [schema.text('Plan: ***')]),
]);

describe('wildcards in a note', () => {
  it('finds every *** with its document position', () => {
    const positions = wildcardPositions(doc);
    expect(positions).toHaveLength(2);
    expect(positions.map((p) => doc.textBetween(p, p + 3))).toEqual(['***', '***']);
  });

  it('F2 moves forward and wraps; Shift+F2 moves back and wraps', () => {
    const [first, second] = wildcardPositions(doc) as [number, number];
    expect(pickWildcard([first, second], { from: 0, to: 0 }, false)).toBe(first);
    expect(pickWildcard([first, second], { from: first, to: first + 3 }, false)).toBe(second);
    expect(pickWildcard([first, second], { from: second, to: second + 3 }, false)).toBe(first);
    expect(pickWildcard([first, second], { from: second, to: second + 3 }, true)).toBe(first);
    expect(pickWildcard([first, second], { from: first, to: first + 3 }, true)).toBe(second);
    expect(pickWildcard([], { from: 0, to: 0 }, false)).toBeNull();
  });
});
