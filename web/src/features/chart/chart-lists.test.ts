import { describe, expect, it } from 'vitest';
import { isPinned, pinnedWire } from './chart-lists.js';

describe('pinned flag', () => {
  it('reads booleans and 0/1, and is sent as 0/1', () => {
    expect([true, 1, false, 0, undefined].map((pinned) => isPinned({ pinned }))).toEqual([true, true, false, false, false]);
    expect([pinnedWire(true), pinnedWire(false)]).toEqual([1, 0]);
  });
});
