import { describe, expect, it } from 'vitest';
import { hasWildcard, nextWildcardOffset, wildcardOffsets } from './wildcard.js';

describe('wildcards', () => {
  it('finds every *** and walks forwards and backwards with wrap', () => {
    const t = 'a *** b *** c';
    expect(hasWildcard(t)).toBe(true);
    expect(wildcardOffsets(t)).toEqual([2, 8]);
    expect(nextWildcardOffset(t, 0)).toBe(2);
    expect(nextWildcardOffset(t, 2)).toBe(8);
    expect(nextWildcardOffset(t, 9)).toBe(2);
    expect(nextWildcardOffset(t, 8, true)).toBe(2);
    expect(nextWildcardOffset(t, 0, true)).toBe(8);
    expect(nextWildcardOffset('none', 0)).toBeNull();
  });
});
