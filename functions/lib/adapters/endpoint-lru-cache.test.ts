import MnemonistLRUCache from 'mnemonist/lru-cache.js';
import { describe, expect, it } from 'vitest';
import LRUCache from './endpoint-lru-cache.js';

type Op = ['get' | 'peek' | 'has', string] | ['set', string, number];

/** The same operations against mnemonist's cache and ours: every answer must match. */
function replay(ops: Op[], capacity: number) {
  const ours = new LRUCache<string, number>(capacity);
  const theirs = new MnemonistLRUCache<string, number>(capacity);
  return ops.map((op) => {
    if (op[0] === 'set') {
      ours.set(op[1], op[2]);
      theirs.set(op[1], op[2]);
      return [ours.size, theirs.size];
    }
    return [ours[op[0]](op[1]), theirs[op[0]](op[1])];
  });
}

describe('the endpoint cache LRU', () => {
  it('evicts the least recently used key, where a read counts as a use and a peek does not, as mnemonist does', () => {
    const ops: Op[] = [
      ['set', 'a', 1],
      ['set', 'b', 2],
      ['get', 'a'],
      ['set', 'c', 3],
      ['has', 'b'],
      ['has', 'a'],
      ['peek', 'a'],
      ['set', 'd', 4],
      ['has', 'a'],
      ['get', 'c'],
      ['set', 'c', 30],
      ['set', 'e', 5],
      ['get', 'c'],
      ['get', 'd'],
      ['has', 'e'],
    ];
    for (const [ours, theirs] of replay(ops, 2)) expect(ours).toEqual(theirs);
    const cache = new LRUCache<string, number>(2);
    cache.set('x', 1).set('y', 2).get('x');
    cache.set('z', 3);
    expect([cache.has('x'), cache.has('y'), cache.has('z')]).toEqual([true, false, true]);
  });

  it('follows mnemonist on a random workload', () => {
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const keys = ['k1', 'k2', 'k3', 'k4', 'k5', 'k6'];
    const ops: Op[] = Array.from({ length: 500 }, (_, i) => {
      const key = keys[Math.floor(rand() * keys.length)]!;
      const r = rand();
      return r < 0.4 ? ['set', key, i] : r < 0.7 ? ['get', key] : r < 0.85 ? ['peek', key] : ['has', key];
    });
    for (const [ours, theirs] of replay(ops, 3)) expect(ours).toEqual(theirs);
  });
});
