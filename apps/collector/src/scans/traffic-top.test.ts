import { describe, expect, it } from 'vitest';
import { topRows } from './traffic-store.ts';

/** The rule as first written: the n-th largest positive score by sorting a copy, then rows at or above it. */
function bySorting(score: Float64Array, n: number): number[] {
  if (n <= 0) return [];
  const positive = score.filter((v) => v > 0).sort();
  if (positive.length === 0) return [];
  const cut = positive[Math.max(0, positive.length - n)]!;
  const out: number[] = [];
  for (let r = 0; r < score.length && out.length < n; r++) if (score[r]! >= cut) out.push(r);
  return out;
}

describe('topRows (the busiest ports kept at sweep resolution)', () => {
  it('picks the rows of the n largest positive scores, in row order, NaN and 0 left out', () => {
    const s = Float64Array.from([3, Number.NaN, 0, 9, -4, 7, 9, 1]);
    expect(topRows(s, 3)).toEqual([3, 5, 6]);
    expect(topRows(s, 10)).toEqual([0, 3, 5, 6, 7]);
    expect(topRows(s, 0)).toEqual([]);
    expect(topRows(Float64Array.from([0, Number.NaN, -1]), 5)).toEqual([]);
  });

  it('agrees with sorting a copy on random scores with ties, NaN, zeros and negatives', () => {
    let seed = 12345;
    const rand = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    for (let trial = 0; trial < 200; trial++) {
      const len = Math.floor(rand() * 400);
      const s = Float64Array.from({ length: len }, () => {
        const k = rand();
        if (k < 0.1) return Number.NaN;
        if (k < 0.2) return 0;
        if (k < 0.25) return -rand();
        return k < 0.5 ? Math.floor(rand() * 8) : rand() * 1000;
      });
      const n = Math.floor(rand() * 60);
      expect(topRows(s, n), `trial ${trial}`).toEqual(bySorting(s, n));
    }
  });
});
