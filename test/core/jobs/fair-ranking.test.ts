/** The runner's fair ranking of queued requests and the order it claims them in. */

import { describe, expect, it } from 'vitest';
import { claimOrder, rankFairly, startable } from '../../../electron/core/jobs/fair-ranking';

const row = (id: string, key_id: string, seq: number) => ({ id, key_id, seq });

describe('rankFairly', () => {
  it('leaves zero or one candidate as it is', () => {
    const one = [row('a', 'k1', 1)];
    expect(rankFairly([], [], new Map())).toEqual([]);
    expect(rankFairly(one, ['k1', 'k1'], new Map([['k1', 5]]))).toBe(one);
  });

  it('puts the key with the fewest renders in flight first', () => {
    const ranked = rankFairly(
      [row('a', 'busy', 1), row('b', 'idle', 2), row('c', 'one', 3)],
      ['busy', 'busy', 'one'],
      new Map(),
    );
    expect(ranked.map((r) => r.id)).toEqual(['b', 'c', 'a']);
  });

  it('among keys as busy, serves the one served least recently (never served first)', () => {
    const ranked = rankFairly(
      [row('a', 'recent', 1), row('b', 'earlier', 2), row('c', 'never', 3)],
      [],
      new Map([
        ['recent', 7],
        ['earlier', 2],
      ]),
    );
    expect(ranked.map((r) => r.id)).toEqual(['c', 'b', 'a']);
  });

  it('otherwise keeps the queue order', () => {
    const ranked = rankFairly([row('b', 'k2', 9), row('a', 'k1', 4)], [], new Map());
    expect(ranked.map((r) => r.id)).toEqual(['a', 'b']);
  });

  it('ranks renders in flight before recency', () => {
    const ranked = rankFairly(
      [row('a', 'k1', 1), row('b', 'k2', 2)],
      ['k1'],
      new Map([
        ['k1', 0],
        ['k2', 10],
      ]),
    );
    expect(ranked.map((r) => r.id)).toEqual(['b', 'a']);
  });
});

describe('claimOrder', () => {
  it('puts the preferred requests that are queued first, then all ranked ones', () => {
    const ranked = [row('a', 'k1', 1), row('b', 'k2', 2), row('c', 'k3', 3)];
    expect(claimOrder(ranked, new Set(['c', 'gone']))).toEqual(['c', 'a', 'b', 'c']);
    expect(claimOrder(ranked, [])).toEqual(['a', 'b', 'c']);
  });
});

describe('startable', () => {
  const ranked = [row('b1', 'b', 9), row('a7', 'a', 7), row('c1', 'c', 10)];

  it('lets every candidate start while a shared slot is free', () => {
    expect(startable(ranked, ['a'], 2, 2)).toBe(ranked);
  });

  it('with every shared slot taken, starts only the first render of a key holding none', () => {
    expect(startable(ranked, ['a', 'a'], 2, 2).map((r) => r.id)).toEqual(['b1', 'c1']);
    // One such start per key: a key holding a spare render waits for a shared slot.
    expect(startable(ranked, ['a', 'a', 'b'], 2, 2).map((r) => r.id)).toEqual(['c1']);
  });

  it('starts nothing once the spare renders are taken too', () => {
    expect(startable(ranked, ['a', 'a', 'd', 'e'], 2, 2)).toEqual([]);
  });
});
