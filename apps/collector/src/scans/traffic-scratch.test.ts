import { describe, expect, it } from 'vitest';
import { TrafficScratch } from './traffic-scratch.ts';

const all = (a: ArrayLike<number>, v: number) => Array.from(a).every((x) => Object.is(x, v));

describe('TrafficScratch: storeTraffic arrays kept across sweeps', () => {
  it('hands out arrays of exactly the sweep’s rows, set as new arrays would be', () => {
    const s = new TrafficScratch();
    for (const rows of [4, 4, 2, 6, 6]) {
      const a = s.sweep(rows);
      for (const x of [a.ids, a.linkBps, a.util, a.txBps, a.rxBps, a.waitTps, ...Object.values(a.deltas)])
        expect(x.length).toBe(rows);
      expect(all(a.ids, -1)).toBe(true);
      expect(all(a.waitTps, Number.NaN)).toBe(true);
      for (const x of [a.linkBps, a.util, a.txBps, a.rxBps]) expect(all(x, 0)).toBe(true);
      // What a sweep leaves behind must not reach the next one.
      for (const x of [a.ids, a.linkBps, a.util, a.txBps, a.rxBps, a.waitTps]) x.fill(7);
    }
  });

  it('never writes the rates the last sweep handed to /metrics', () => {
    const s = new TrafficScratch();
    const first = s.sweep(3);
    first.txBps.set([1, 2, 3]);
    const second = s.sweep(3);
    expect(second.txBps.buffer).not.toBe(first.txBps.buffer);
    expect(Array.from(first.txBps)).toEqual([1, 2, 3]);
    // Two sweeps on, the first set is free again: reused, not new memory.
    const third = s.sweep(3);
    expect(third.txBps.buffer).toBe(first.txBps.buffer);
    expect(third.ids.buffer).toBe(second.ids.buffer);
  });
});
