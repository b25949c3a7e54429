import { describe, expect, it } from 'vitest';
import { appendRows, computeTableDeltas, matchRows, tableChanges } from './counter-table-deltas.ts';
import { trafficDeltas } from './traffic.ts';
import {
  cellValue,
  CounterTableBuilder,
  tableFromPortCounters,
  tableRow,
  tableToPortCounters,
} from './counter-table.ts';
import { computeDeltas } from './counters.ts';
import { seededRandom } from './random.ts';
import type { PortCounters } from './types.ts';

const big = (v: unknown) => JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? `${x}n` : x));

describe('CounterTableBuilder', () => {
  it('stores decimal digits of any 64-bit value exactly, refusing what does not fit', () => {
    const b = new CounterTableBuilder(2);
    const col = b.column('PortXmitDataExtended');
    const cases = [
      '0',
      '7',
      '65535',
      '4294967295',
      '4294967296',
      '9007199254740993',
      '123456789012345678',
      '18446744073709551614',
      '18446744073709551613',
    ];
    for (const digits of cases) {
      const r = b.addRow('0x0000000000000001', 1);
      expect(b.setDecimal(col, r, ` ${digits}]`, 1, 1 + digits.length)).toBe(true);
    }
    const t = b.build();
    expect(t.rows).toBe(cases.length);
    cases.forEach((d, r) => expect(cellValue(t.columns[0]!, r)).toBe(BigInt(d)));
    const b2 = new CounterTableBuilder();
    const c2 = b2.column('X');
    const r = b2.addRow('0x0000000000000001', 1);
    expect(b2.setDecimal(c2, r, '18446744073709551616', 0, 20)).toBe(false); // 2^64
    expect(b2.setDecimal(c2, r, '12a4', 0, 4)).toBe(false);
    expect(b2.setDecimal(c2, r, '', 0, 0)).toBe(false);
    expect(cellValue(b2.build().columns[0]!, 0)).toBeUndefined();
  });

  it('round-trips records, with columns that appear late reading absent before', () => {
    const list: PortCounters[] = [
      { nodeGuid: '0x0000000000000001', portNum: 1, counters: { SymbolErrorCounter: 3n } },
      {
        nodeGuid: '0x0000000000000002',
        portNum: 7,
        counters: { SymbolErrorCounter: 0n, PortXmitDataExtended: 2n ** 63n + 5n },
        extended: true,
      },
    ];
    const t = tableFromPortCounters(list);
    expect(t.columns.map((c) => c.name)).toEqual(['SymbolErrorCounter', 'PortXmitDataExtended']);
    expect(tableToPortCounters(t)).toEqual(list);
    expect(tableRow(t, 0).counters.PortXmitDataExtended).toBeUndefined();
  });

  it('grows past its initial capacity', () => {
    const b = new CounterTableBuilder(16);
    const c = b.column('A');
    for (let i = 0; i < 1000; i++) b.setNumber(c, b.addRow(`0x${i.toString(16).padStart(16, '0')}`, 1), i * 1e9);
    const t = b.build();
    expect(t.rows).toBe(1000);
    expect(cellValue(t.columns[0]!, 999)).toBe(999_000_000_000n);
  });
});

/** A deterministic generator of awkward sweeps: resets, wraps, pegged counters, stale twins. */
function sweeps(seed: number, ports: number): [PortCounters[], PortCounters[]] {
  const rand = seededRandom(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!;
  const prev: PortCounters[] = [];
  const cur: PortCounters[] = [];
  for (let i = 0; i < ports; i++) {
    const g = `0x${(0x1000 + Math.floor(i / 4)).toString(16).padStart(16, '0')}`;
    const a: Record<string, bigint> = {};
    const b: Record<string, bigint> = {};
    for (const name of [
      'SymbolErrorCounter',
      'LinkDownedCounter',
      'PortRcvErrors',
      'PortXmitWait',
      'PortXmitData',
      'SymbolErrorCounterExt',
      'PortXmitDataExtended',
    ]) {
      if (rand() < 0.15) continue; // column missing for this port
      const v = pick([0n, 0n, 0n, 5n, 255n, 65535n, 4294967295n, 2n ** 40n]);
      a[name] = v;
      const move = rand();
      b[name] =
        move < 0.7 ? v : move < 0.8 ? v + BigInt(Math.floor(rand() * 100)) : move < 0.9 ? 0n : pick([65535n, 255n, 3n]);
      if (rand() < 0.05) delete b[name];
    }
    const ext = rand() < 0.1;
    prev.push({ nodeGuid: g, portNum: 1 + (i % 4), counters: a, ...(ext ? { extended: true } : {}) });
    if (rand() < 0.03) continue; // port not read this sweep
    cur.push({ nodeGuid: g, portNum: 1 + (i % 4), counters: b, ...(ext ? { extended: true } : {}) });
  }
  for (let i = 0; i < 5; i++)
    cur.push({
      nodeGuid: `0x${(0xf000 + i).toString(16).padStart(16, '0')}`,
      portNum: 1,
      counters: { SymbolErrorCounter: 9n },
    });
  // Some shuffling: position matching must fall back to look-ups.
  for (let i = 0; i < cur.length / 10; i++) {
    const x = Math.floor(rand() * cur.length);
    const y = Math.floor(rand() * cur.length);
    [cur[x], cur[y]] = [cur[y]!, cur[x]!];
  }
  return [prev, cur];
}

describe('computeTableDeltas', () => {
  const watch = new Set(['SymbolErrorCounter', 'LinkDownedCounter', 'PortRcvErrors', 'PortXmitWait']);

  it('reads symbol errors from the classic column of a port whose Ext twin stays at 0 (the production path)', () => {
    const port = (sym: bigint) => ({
      nodeGuid: '0x5c25730300c09c50',
      portNum: 1,
      counters: { SymbolErrorCounter: sym, SymbolErrorCounterExt: 0n, LinkDownedCounter: 1n },
    });
    const got = computeTableDeltas(tableFromPortCounters([port(23_817n)]), tableFromPortCounters([port(24_417n)]), 60, {
      watch,
    });
    expect(got.quiet).toBe(0);
    expect(got.ports[0]!.counters.SymbolErrorCounter).toMatchObject({ source: 'SymbolErrorCounter', delta: 600n });
  });

  for (const seed of [1, 2, 3, 42, 2024]) {
    it(`judges the same ports with the same deltas as computeDeltas (seed ${seed})`, () => {
      const [prev, cur] = sweeps(seed, 2000);
      const want = computeDeltas(prev, cur, 60, { watch });
      const got = computeTableDeltas(tableFromPortCounters(prev), tableFromPortCounters(cur), 60, { watch });
      expect(want.ports.length).toBeGreaterThan(100);
      expect(want.quiet).toBeGreaterThan(100);
      expect(big(got.ports)).toBe(big(want.ports));
      expect(got.quiet).toBe(want.quiet);
      expect(got.baseline).toEqual(want.baseline);
    });
  }

  for (const seed of [5, 77]) {
    it(`gives the same result with the changes computed ahead, ignored for other tables (seed ${seed})`, () => {
      const [p0, c0] = sweeps(seed, 1500);
      const [, c1] = sweeps(seed + 1000, 1500);
      const prev = tableFromPortCounters(p0);
      const cur = tableFromPortCounters(c0);
      const other = tableFromPortCounters(c1);
      const full = computeTableDeltas(prev, cur, 60, { watch });
      expect(full.ports.length).toBeGreaterThan(50);
      const ahead = tableChanges(prev, cur, watch);
      expect(ahead.prevRow).toEqual(matchRows(prev, cur));
      expect(big(computeTableDeltas(prev, cur, 60, { watch, changes: ahead }))).toBe(big(full));
      // Changes of another sweep (or another watch set) are not used: the result is that sweep's own.
      const stale = tableChanges(prev, other, watch);
      expect(big(computeTableDeltas(prev, cur, 60, { watch, changes: stale }))).toBe(big(full));
      const otherFull = computeTableDeltas(prev, other, 60, { watch });
      expect(big(computeTableDeltas(prev, other, 60, { watch, changes: ahead }))).toBe(big(otherFull));
      expect(big(otherFull)).not.toBe(big(full));
      const narrower = new Set(['SymbolErrorCounter']);
      expect(big(computeTableDeltas(prev, cur, 60, { watch: narrower, changes: ahead }))).toBe(
        big(computeTableDeltas(prev, cur, 60, { watch: narrower })),
      );
      // trafficDeltas with the same rows' match equals its own match.
      expect(trafficDeltas(prev, cur, undefined, ahead.prevRow)).toEqual(trafficDeltas(prev, cur));
    });
  }

  it('lists changed and new rows, and the previous rows not read again', () => {
    const prev: PortCounters[] = [
      { nodeGuid: '0x0000000000000001', portNum: 1, counters: { SymbolErrorCounter: 0n, PortXmitData: 10n } },
      { nodeGuid: '0x0000000000000001', portNum: 2, counters: { SymbolErrorCounter: 4n, PortXmitData: 10n } },
      { nodeGuid: '0x0000000000000002', portNum: 1, counters: { SymbolErrorCounter: 0n } },
    ];
    const cur: PortCounters[] = [
      // data only: unchanged
      { nodeGuid: '0x0000000000000001', portNum: 1, counters: { SymbolErrorCounter: 0n, PortXmitData: 99n } },
      { nodeGuid: '0x0000000000000001', portNum: 2, counters: { SymbolErrorCounter: 6n, PortXmitData: 10n } },
      { nodeGuid: '0x0000000000000003', portNum: 1, counters: { SymbolErrorCounter: 0n } },
    ];
    const r = computeTableDeltas(tableFromPortCounters(prev), tableFromPortCounters(cur), 60, { watch });
    expect(r.changedRows).toEqual([1, 2]);
    expect(r.unmatchedPrevious).toEqual([2]);
    expect(r.ports.map((p) => [p.portNum, p.counters.SymbolErrorCounter?.delta])).toEqual([[2, 2n]]);
    expect(r.baseline).toEqual([{ nodeGuid: '0x0000000000000003', portNum: 1 }]);
    const next = appendRows(tableFromPortCounters(cur), tableFromPortCounters(prev), r.unmatchedPrevious);
    expect(tableToPortCounters(next).map((p) => `${p.nodeGuid}/${p.portNum}`)).toEqual([
      '0x0000000000000001/1',
      '0x0000000000000001/2',
      '0x0000000000000003/1',
      '0x0000000000000002/1',
    ]);
    expect(tableRow(next, 3).counters).toEqual({ SymbolErrorCounter: 0n });
  });

  it('judges a pegged counter that did not move (saturated) like the record code', () => {
    const prev: PortCounters[] = [
      {
        nodeGuid: '0x0000000000000001',
        portNum: 1,
        counters: { SymbolErrorCounter: 65535n, SymbolErrorCounterExt: 0n },
      },
    ];
    const r = computeTableDeltas(tableFromPortCounters(prev), tableFromPortCounters(prev), 60, { watch });
    expect(r.changedRows).toEqual([]);
    expect(r.ports[0]?.counters.SymbolErrorCounter?.event).toBe('saturated');
  });
});
