import { describe, expect, it } from 'vitest';
import { computeDeltas, deltaOf, deltasFromToolDelta, intervalSeconds, maxOfWidth } from './counters.ts';
import type { PortCounters } from './types.ts';

const G = '0x0000000000000001';
const pc = (counters: Record<string, bigint>, extra: Partial<PortCounters> = {}): PortCounters => ({
  nodeGuid: G,
  portNum: 1,
  counters,
  ...extra,
});
const one = (
  prev: Record<string, bigint>,
  cur: Record<string, bigint>,
  interval = 60,
  extra: Partial<PortCounters> = {},
) => {
  const r = computeDeltas([pc(prev, extra)], [pc(cur, extra)], interval);
  expect(r.ports).toHaveLength(1);
  return r.ports[0]!;
};

describe('computeDeltas()', () => {
  it('gives no rates on the first snapshot, only a baseline', () => {
    const r = computeDeltas(undefined, [pc({ LinkDownedCounter: 3n, SymbolErrorCounter: 500n })], 60);
    expect(r.ports).toEqual([]);
    expect(r.baseline).toEqual([{ nodeGuid: G, portNum: 1 }]);
  });

  it('baselines a port that was not in the previous sweep', () => {
    const other = { ...pc({ SymbolErrorCounter: 1n }), portNum: 2 };
    const r = computeDeltas([other], [pc({ SymbolErrorCounter: 5n })], 60);
    expect(r.ports).toEqual([]);
    expect(r.baseline).toHaveLength(1);
  });

  it('computes increase and rate per second', () => {
    const d = one({ SymbolErrorCounter: 10n }, { SymbolErrorCounter: 70n }, 60).counters.SymbolErrorCounter!;
    expect(d.delta).toBe(60n);
    expect(d.event).toBe('increase');
    expect(d.ratePerSecond).toBe(1);
  });

  it('treats a counter that went down as a reset and uses the new value as the delta', () => {
    const p = one(
      { SymbolErrorCounter: 900n, PortXmitDataExtended: 10_000n },
      { SymbolErrorCounter: 4n, PortXmitDataExtended: 50n },
    );
    expect(p.portReset).toBe(true);
    expect(p.counters.SymbolErrorCounter).toMatchObject({ event: 'reset', delta: 4n });
    expect(p.counters.PortXmitData).toMatchObject({ event: 'reset', delta: 50n, source: 'PortXmitDataExtended' });
  });

  it('handles a reset in the middle of a series without negative deltas', () => {
    const series = [100n, 150n, 3n, 10n];
    const deltas: bigint[] = [];
    for (let i = 1; i < series.length; i++) {
      const d = one({ PortRcvErrors: series[i - 1]! }, { PortRcvErrors: series[i]! }).counters.PortRcvErrors!;
      deltas.push(d.delta!);
    }
    expect(deltas).toEqual([50n, 3n, 7n]);
  });

  it('detects a 32-bit wrap of PortXmitData without an Ext twin', () => {
    const max = maxOfWidth(32);
    const d = one({ PortXmitData: max - 99n }, { PortXmitData: 400n }, 10).counters.PortXmitData!;
    expect(d.event).toBe('wrap');
    expect(d.delta).toBe(500n);
    expect(d.ratePerSecond).toBe(50);
  });

  it('does not call a wrap when the port was cleared (error counters also went down)', () => {
    const max = maxOfWidth(32);
    const p = one({ PortXmitData: max - 99n, PortRcvErrors: 7n }, { PortXmitData: 400n, PortRcvErrors: 0n });
    expect(p.counters.PortXmitData).toMatchObject({ event: 'reset', delta: 400n });
  });

  it('treats a pegged 32-bit counter that went down as a reset, not a wrap', () => {
    const d = one({ PortXmitData: maxOfWidth(32) }, { PortXmitData: 12n }).counters.PortXmitData!;
    expect(d).toMatchObject({ event: 'reset', delta: 12n });
  });

  it('keeps exact 64-bit values beyond 2^53', () => {
    const a = 2n ** 60n + 12345n;
    const b = a + 2n ** 54n + 1n;
    const d = one({ PortXmitDataExtended: a }, { PortXmitDataExtended: b }, 1).counters.PortXmitData!;
    expect(d.delta).toBe(2n ** 54n + 1n);
    expect(d.widthBits).toBe(64);
  });

  it('reports a saturated 16-bit SymbolErrorCounter whose Ext twin reads 0 as rate unknown', () => {
    const d = one(
      { SymbolErrorCounter: 65535n, SymbolErrorCounterExt: 0n },
      { SymbolErrorCounter: 65535n, SymbolErrorCounterExt: 0n },
    ).counters.SymbolErrorCounter!;
    expect(d.event).toBe('saturated');
    expect(d.delta).toBeUndefined();
    expect(d.ratePerSecond).toBeUndefined();
    expect(d.note).toMatch(/rate unknown: .*saturated.*reset/);
  });

  it('reads the classic column when the Ext twin stays below it: symbol errors a twin at 0 would hide', () => {
    // The real shape: every erring CX-7 port of ndr-fat-tree-a reads SymbolErrorCounterExt=0.
    const d = one(
      { SymbolErrorCounter: 44_375n, SymbolErrorCounterExt: 0n },
      { SymbolErrorCounter: 44_975n, SymbolErrorCounterExt: 0n },
      60,
    ).counters.SymbolErrorCounter!;
    expect(d).toMatchObject({ source: 'SymbolErrorCounter', event: 'increase', delta: 600n, ratePerSecond: 10 });
  });

  it('keeps reading a twin that counts, and moves from a twin at 0 to the classic column without a spike', () => {
    const counting = one(
      { SymbolErrorCounter: 100n, SymbolErrorCounterExt: 100n },
      { SymbolErrorCounter: 160n, SymbolErrorCounterExt: 160n },
    ).counters.SymbolErrorCounter!;
    expect(counting).toMatchObject({ source: 'SymbolErrorCounterExt', delta: 60n });
    // Both at 0 (just cleared), then only the classic column moves: the increase, not a reset.
    const first = one(
      { SymbolErrorCounter: 0n, SymbolErrorCounterExt: 0n },
      { SymbolErrorCounter: 14n, SymbolErrorCounterExt: 0n },
    ).counters.SymbolErrorCounter!;
    expect(first).toMatchObject({ source: 'SymbolErrorCounter', delta: 14n, event: 'increase' });
  });

  it('reports a classic counter pegged at its max as saturated with a lower bound', () => {
    const d = one({ SymbolErrorCounter: 65000n }, { SymbolErrorCounter: 65535n }).counters.SymbolErrorCounter!;
    expect(d).toMatchObject({ event: 'saturated', lowerBound: 535n });
    expect(d.delta).toBeUndefined();
  });

  it('knows 4-bit and 8-bit widths', () => {
    const p = one(
      { LocalLinkIntegrityErrors: 3n, LinkDownedCounter: 200n },
      { LocalLinkIntegrityErrors: 15n, LinkDownedCounter: 255n },
    );
    expect(p.counters.LocalLinkIntegrityErrors).toMatchObject({ event: 'saturated', widthBits: 4 });
    expect(p.counters.LinkDownedCounter).toMatchObject({ event: 'saturated', widthBits: 8 });
  });

  it('prefers the 64-bit twin over a saturated 32-bit data counter (real PM_INFO row)', () => {
    // PM_INFO: PortXmitData=4294967295 ... PortXmitDataExtended=299195507523
    const p = one(
      { PortXmitData: 4294967295n, PortXmitDataExtended: 299195507523n },
      { PortXmitData: 4294967295n, PortXmitDataExtended: 299195507523n + 1000n },
    );
    expect(p.counters.PortXmitData).toMatchObject({ event: 'increase', delta: 1000n, source: 'PortXmitDataExtended' });
  });

  it('ignores -1 and 0xfffffffffffffffe sentinels', () => {
    const p = one(
      { PortLoopingErrors: -1n, PortXmitWaitExt: -1n, PortXmitWait: 5n, QP1DroppedExt: 0xfffffffffffffffen },
      { PortLoopingErrors: -1n, PortXmitWaitExt: -1n, PortXmitWait: 9n, QP1DroppedExt: 0xfffffffffffffffen },
    );
    expect(p.counters.PortLoopingErrors).toBeUndefined();
    expect(p.counters.QP1Dropped).toBeUndefined();
    expect(p.counters.PortXmitWait).toMatchObject({ source: 'PortXmitWait', delta: 4n, widthBits: 32 });
  });

  it('treats perfquery -x records as 64-bit under classic names', () => {
    const p = one({ SymbolErrorCounter: 65535n }, { SymbolErrorCounter: 65540n }, 60, { extended: true });
    expect(p.counters.SymbolErrorCounter).toMatchObject({ event: 'increase', delta: 5n, widthBits: 64 });
  });

  it('treats a classic-named value above its width as 64-bit', () => {
    const p = one({ PortXmitData: 36298026860928n }, { PortXmitData: 36298026860928n + 7n });
    expect(p.counters.PortXmitData).toMatchObject({ delta: 7n, widthBits: 64 });
  });

  it('re-baselines a counter whose source column vanished instead of spiking', () => {
    const p = one({ PortRcvData: 100n }, { PortRcvData: 4294967295n, PortRcvDataExtended: 9_000_000_000n });
    expect(p.counters.PortRcvData).toBeUndefined();
  });

  it('never returns negative deltas on random series with resets', () => {
    let v = 0n;
    let prev = 0n;
    for (let i = 0; i < 500; i++) {
      v = i % 37 === 0 ? BigInt(i % 5) : v + BigInt((i * 7919) % 100);
      const d = deltaOf(one({ PortRcvErrorsExt: prev }, { PortRcvErrorsExt: v }), 'PortRcvErrors');
      expect(d! >= 0n).toBe(true);
      prev = v;
    }
  });

  it('lists counters that did not move as unchanged instead of emitting records', () => {
    const p = one({ PortRcvErrors: 4n, LinkDownedCounter: 1n }, { PortRcvErrors: 4n, LinkDownedCounter: 2n });
    expect(p.unchanged).toEqual(['PortRcvErrors']);
    expect(deltaOf(p, 'PortRcvErrors')).toBe(0n);
    expect(deltaOf(p, 'LinkDownedCounter')).toBe(1n);
    expect(deltaOf(p, 'SymbolErrorCounter')).toBeUndefined();
  });

  it('gives no rate for a zero interval', () => {
    expect(one({ PortRcvErrors: 1n }, { PortRcvErrors: 2n }, 0).counters.PortRcvErrors!.ratePerSecond).toBeUndefined();
  });

  it('handles 60k ports', () => {
    const prev: PortCounters[] = [];
    const cur: PortCounters[] = [];
    for (let i = 0; i < 60_000; i++) {
      const g = '0x' + i.toString(16).padStart(16, '0');
      prev.push({ nodeGuid: g, portNum: 1, counters: { SymbolErrorCounter: 0n, PortXmitDataExtended: 10n } });
      cur.push({ nodeGuid: g, portNum: 1, counters: { SymbolErrorCounter: 1n, PortXmitDataExtended: 20n } });
    }
    const r = computeDeltas(prev, cur, 60);
    expect(r.ports).toHaveLength(60_000);
    expect(r.ports[59_999]!.counters.PortXmitData!.delta).toBe(10n);
    // ~0.4 s of CPU, but over vitest's 5 s default on a 2-core box at load average 17.
  }, 60_000);
});

describe('deltasFromToolDelta()', () => {
  it('turns ibdiagnet PM_DELTA rows into deltas over the tool interval', () => {
    const [p] = deltasFromToolDelta([pc({ SymbolErrorCounter: 27n, PortLoopingErrors: -1n })], 1);
    expect(p!.counters.SymbolErrorCounter).toMatchObject({ delta: 27n, ratePerSecond: 27 });
    expect(p!.counters.PortLoopingErrors).toBeUndefined();
  });
});

describe('intervalSeconds()', () => {
  it('computes seconds between two ISO times', () => {
    expect(intervalSeconds('2025-03-31T23:43:18Z', '2025-03-31T23:44:18Z')).toBe(60);
    expect(intervalSeconds(undefined, '2025-03-31T23:44:18Z')).toBeUndefined();
    expect(intervalSeconds('garbage', '2025-03-31T23:44:18Z')).toBeUndefined();
  });
});

describe('computeDeltas() with watched counters', () => {
  const watch = new Set(['SymbolErrorCounter', 'PortXmitWait']);
  const sweep = (portNum: number, counters: Record<string, bigint>): PortCounters => ({
    nodeGuid: G,
    portNum,
    counters,
  });

  it('leaves out ports where only unwatched counters moved, and keeps every counter of the others', () => {
    const prev = [
      sweep(1, { SymbolErrorCounter: 0n, PortXmitData: 10n }),
      sweep(2, { SymbolErrorCounter: 0n, PortXmitData: 10n, PortRcvData: 5n }),
    ];
    const cur = [
      sweep(1, { SymbolErrorCounter: 0n, PortXmitData: 99n }),
      sweep(2, { SymbolErrorCounter: 3n, PortXmitData: 50n, PortRcvData: 5n }),
    ];
    const r = computeDeltas(prev, cur, 60, { watch });
    expect(r.quiet).toBe(1);
    expect(r.ports.map((p) => p.portNum)).toEqual([2]);
    expect(r.ports[0]).toEqual(computeDeltas(prev, cur, 60).ports[1]);
  });

  it('keeps a port whose watched counter is pegged though unchanged (saturated) or went down (reset)', () => {
    const pegged = computeDeltas(
      [sweep(1, { SymbolErrorCounter: 65_535n })],
      [sweep(1, { SymbolErrorCounter: 65_535n })],
      60,
      { watch },
    );
    expect(pegged.ports[0]?.counters.SymbolErrorCounter?.event).toBe('saturated');
    const reset = computeDeltas([sweep(1, { PortXmitWait: 900n })], [sweep(1, { PortXmitWait: 4n })], 60, { watch });
    expect(reset.ports).toHaveLength(1);
    expect(reset.quiet).toBe(0);
  });
});
