import { CounterTableBuilder, isAbsent, tableRow, type CounterTable, type PortCounters } from '@ibwatch/fabric';
import { describe, expect, it } from 'vitest';
import { STORED_COLUMNS } from './counter-baseline.ts';
import { movedRows } from './ibdiagnet-store.ts';

/** The rule as first written, cell by cell: a row moved when a stored column holds a present non-zero value. */
function movedRowsReference(t: CounterTable): PortCounters[] {
  const out: PortCounters[] = [];
  for (let r = 0; r < t.rows; r++) {
    const moved = t.columns.some(
      (c) => STORED_COLUMNS.has(c.name) && (c.hi[r] !== 0 || c.lo[r] !== 0) && !isAbsent(c, r),
    );
    if (moved) out.push(tableRow(t, r));
  }
  return out;
}

/** A small deterministic generator (no Math.random: a failure must replay). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0);
}

/** A PM_DELTA-like table: kept, twin and traffic columns, cells mostly 0, some absent, some only in one half. */
function table(seed: number, rows: number): CounterTable {
  const next = lcg(seed);
  const b = new CounterTableBuilder(4);
  const names = ['SymbolErrorCounter', 'SymbolErrorCounterExt', 'PortXmitWait', 'PortXmitData', 'LinkDownedCounter'];
  for (let r = 0; r < rows; r++) {
    const row = b.addRow(`0x${(0x1000 + r).toString(16).padStart(16, '0')}`, 1 + (r % 40));
    for (const name of names) {
      const pick = next() % 10;
      if (pick === 0) continue; // absent
      const col = b.column(name);
      if (pick < 7) b.setHalves(col, row, 0, 0);
      else if (pick === 7) b.setHalves(col, row, 0, next());
      else if (pick === 8) b.setHalves(col, row, next() | 1, 0);
      else b.setHalves(col, row, 0x8000_0000, 1);
    }
  }
  return b.build();
}

describe('movedRows()', () => {
  it('gives the rows the cell-by-cell rule gives, on tables with absent and one-half values', () => {
    let compared = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const t = table(seed, 1 + (seed % 7) * 23);
      const want = movedRowsReference(t);
      expect(movedRows(t)).toEqual(want);
      compared += want.length;
    }
    // Not a comparison of empty lists.
    expect(compared).toBeGreaterThan(500);
  });

  it('ignores a non-zero traffic counter and an absent cell whose halves were set', () => {
    const b = new CounterTableBuilder();
    const data = b.column('PortXmitData');
    const sym = b.column('SymbolErrorCounter');
    b.setHalves(data, b.addRow('0x01', 1), 0, 5);
    const r = b.addRow('0x01', 2);
    b.setHalves(sym, r, 0, 3);
    const t = b.build();
    expect(movedRows(t).map((p) => p.portNum)).toEqual([2]);
    // The same cell marked absent: its value is not read.
    t.columns.find((c) => c.name === 'SymbolErrorCounter')!.absent = Uint8Array.from([1, 1]);
    expect(movedRows(t)).toEqual([]);
  });
});
