// Issue 14, defect 10: a counter of 2^64 - 1 equalled the table's "absent" marker and vanished
// (no value, no warning, no saturation finding). Absent is a mask now; all ones is a value.
import { describe, expect, it } from 'vitest';
import { appendRows, computeTableDeltas } from './counter-table-deltas.ts';
import { cellValue, CounterTableBuilder, isAbsent, tableFromPortCounters, tableRow } from './counter-table.ts';
import { computeDeltas, deltasFromToolDelta } from './counters.ts';
import type { PortCounters } from './types.ts';

const MAX64 = 2n ** 64n - 1n;
const G = '0x0000000000000001';
const port = (portNum: number, counters: Record<string, bigint>): PortCounters => ({ nodeGuid: G, portNum, counters });
const watch = new Set(['SymbolErrorCounter', 'PortRcvErrors']);

describe('CounterTable cells: absent is not a value', () => {
  it('keeps 2^64 - 1 as a value, and a cell never set (or set absent) as absent', () => {
    const b = new CounterTableBuilder(2);
    const ext = b.column('SymbolErrorCounterExt');
    const other = b.column('PortRcvErrors');
    const r0 = b.addRow(G, 1);
    b.setHalves(ext, r0, 0xffff_ffff, 0xffff_ffff);
    const r1 = b.addRow(G, 2);
    b.setNumber(other, r1, 0);
    b.setAbsent(other, r1);
    const r2 = b.addRow(G, 3);
    b.setBigint(ext, r2, MAX64 - 1n);
    const t = b.build();
    const [e, o] = t.columns;
    expect([cellValue(e!, 0), cellValue(e!, 1), cellValue(e!, 2)]).toEqual([MAX64, undefined, MAX64 - 1n]);
    expect([isAbsent(o!, 0), isAbsent(o!, 1), isAbsent(o!, 2)]).toEqual([true, true, true]);
    expect(tableRow(t, 0).counters).toEqual({ SymbolErrorCounterExt: MAX64 });
  });

  it('needs no mask when every cell has a value', () => {
    const t = tableFromPortCounters([port(1, { X: MAX64 }), port(2, { X: 0n })]);
    expect(t.columns[0]!.absent).toBeUndefined();
    expect(cellValue(t.columns[0]!, 0)).toBe(MAX64);
  });

  it('appendRows keeps values and absent cells of both tables apart', () => {
    const base = tableFromPortCounters([port(1, { A: MAX64 })]);
    const from = tableFromPortCounters([port(2, { B: 5n }), port(3, { A: 0n })]);
    const t = appendRows(base, from, [0, 1]);
    expect([1, 2, 3].map((p, r) => tableRow(t, r).counters)).toEqual([{ A: MAX64 }, { B: 5n }, { A: 0n }]);
  });
});

describe('a 64-bit counter at 2^64 - 1 is saturated', () => {
  it('is reported saturated (rate unknown, with a lower bound) when it gets there, and while it stays', () => {
    const got = computeDeltas(
      [port(1, { SymbolErrorCounterExt: 100n })],
      [port(1, { SymbolErrorCounterExt: MAX64 })],
      60,
    );
    expect(got.ports[0]!.counters.SymbolErrorCounter).toMatchObject({
      event: 'saturated',
      source: 'SymbolErrorCounterExt',
      widthBits: 64,
      lowerBound: MAX64 - 100n,
      note: 'rate unknown: SymbolErrorCounterExt saturated at 18446744073709551615; reset the counters',
    });
    const stays = computeDeltas(
      [port(1, { SymbolErrorCounterExt: MAX64 })],
      [port(1, { SymbolErrorCounterExt: MAX64 })],
      60,
      { watch },
    );
    expect(stays.quiet).toBe(0);
    expect(stays.ports[0]!.counters.SymbolErrorCounter?.event).toBe('saturated');
  });

  it('the table comparison picks the pegged 64-bit row out of quiet ones, as the record rules do', () => {
    const prev = tableFromPortCounters([
      port(1, { SymbolErrorCounterExt: MAX64 }),
      port(2, { SymbolErrorCounterExt: 7n }),
    ]);
    const cur = tableFromPortCounters([
      port(1, { SymbolErrorCounterExt: MAX64 }),
      port(2, { SymbolErrorCounterExt: 7n }),
    ]);
    const r = computeTableDeltas(prev, cur, 60, { watch });
    expect(r.quiet).toBe(1);
    expect(r.ports.map((p) => [p.portNum, p.counters.SymbolErrorCounter?.event])).toEqual([[1, 'saturated']]);
  });

  it('an absent cell against a 0 is a change (a baseline), not "unchanged"', () => {
    const b = new CounterTableBuilder();
    const c = b.column('SymbolErrorCounter');
    b.addRow(G, 1); // absent
    const prev = b.build();
    const cur = tableFromPortCounters([port(1, { SymbolErrorCounter: 0n })]);
    expect(computeTableDeltas(prev, cur, 60, { watch }).changedRows).toEqual([0]);
    expect(c).toBe(0);
  });

  it("ibdiagnet's PM_DELTA difference of 2^63 or more (a clear between its samples) is no increase", () => {
    const [d] = deltasFromToolDelta([port(1, { SymbolErrorCounterExt: MAX64, PortRcvErrors: 3n })], 1);
    expect(d!.counters.SymbolErrorCounter).toBeUndefined();
    expect(d!.counters.PortRcvErrors?.delta).toBe(3n);
  });
});
