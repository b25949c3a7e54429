import { CounterTableBuilder, tableToPortCounters } from '@ibwatch/fabric';
import { describe, expect, it } from 'vitest';
import { PmTableWriter } from './pm-table.ts';

describe('PmTableWriter', () => {
  it('matches CounterTableBuilder across growth, added columns and refused rows', () => {
    const w = new PmTableWriter(16);
    const b = new CounterTableBuilder(16);
    let cols = w.columns(['A', 'B', 'A']);
    const bcols = ['A', 'B', 'A'].map((n) => b.column(n));
    expect(Array.from(cols)).toEqual([0, 1, 0]);
    for (let r = 0; r < 70; r++) {
      if (r === 20) {
        // A column appearing later reads absent in the earlier rows.
        cols = w.columns(['A', 'B', 'C']);
        bcols[2] = b.column('C');
      }
      w.reserve();
      const row = w.rows;
      w.setNumber(cols[0]!, row, r * 2 ** 33 + r);
      w.setHalves(cols[1]!, row, r, 7);
      if (r >= 20) w.setBigint(cols[2]!, row, BigInt(r) << 40n);
      if (r % 9 === 4) continue; // refused: written, never committed, overwritten by the next row
      w.commit(`0x${r.toString(16).padStart(16, '0')}`, r);
      const br = b.addRow(`0x${r.toString(16).padStart(16, '0')}`, r);
      b.setNumber(bcols[0]!, br, r * 2 ** 33 + r);
      b.setHalves(bcols[1]!, br, r, 7);
      if (r >= 20) b.setBigint(bcols[2]!, br, BigInt(r) << 40n);
    }
    const t = w.build();
    expect(t.rows).toBe(b.rows);
    expect(t.columns.map((c) => c.hi.length)).toEqual([t.rows, t.rows, t.rows]);
    expect(tableToPortCounters(t)).toEqual(tableToPortCounters(b.build()));
  });
});

describe('PmTableWriter high halves', () => {
  it('are made for a column at its first value of 2^32 or more, and a refused row leaves none behind', () => {
    const w = new PmTableWriter(4);
    const [small, big] = Array.from(w.columns(['Small', 'Big']));
    for (let r = 0; r < 10; r++) {
      w.reserve();
      w.setNumber(small!, w.rows, r);
      // Row 3 is refused after writing 2^40 into Big (its first high half); row 7 commits one.
      if (r === 3 || r === 7) w.setNumber(big!, w.rows, 2 ** 40 + r);
      if (r === 3) continue;
      w.commit('0x0000000000000001', r);
    }
    const t = w.build();
    expect(t.rows).toBe(9);
    const bigHi = Array.from(t.columns[1]!.hi);
    expect(bigHi).toEqual([0, 0, 0, 0, 0, 0, 256, 0, 0]);
    expect(Array.from(t.columns[1]!.lo)).toEqual([0, 0, 0, 0, 0, 0, 7, 0, 0]);
    expect(Array.from(t.columns[0]!.hi)).toEqual(new Array(9).fill(0));
  });
});

describe('PmTableWriter columns that are 0 in every row', () => {
  it('read 0 from one shared array; a value set any way (or only in a refused row) keeps its own', () => {
    const w = new PmTableWriter(4);
    const names = ['Never', 'Number', 'Halves', 'Direct', 'Refused', 'HighOnly', 'Zeros'];
    const c = Array.from(w.columns(names));
    for (let r = 0; r < 9; r++) {
      w.reserve();
      const row = w.rows;
      if (r === 5) w.setNumber(c[1]!, row, 12);
      if (r === 2) w.setHalves(c[2]!, row, 0, 3);
      // A reader that stores into `lo` itself (db-csv-pm.ts) and says so.
      if (r === 7) {
        w.lo[c[3]! * w.cap + row] = 9;
        w.written(c[3]!);
      }
      w.setHalves(c[5]!, row, r === 1 ? 2 : 0, 0);
      w.setNumber(c[6]!, row, 0);
      if (r === 4) {
        w.setNumber(c[4]!, row, 77);
        continue; // refused
      }
      w.commit('0x0000000000000001', r);
    }
    const t = w.build();
    const lo = (k: number) => Array.from(t.columns[k]!.lo);
    const zero = new Array(8).fill(0);
    expect(lo(0)).toEqual(zero);
    expect(lo(1)).toEqual([0, 0, 0, 0, 12, 0, 0, 0]);
    expect(lo(2)).toEqual([0, 0, 3, 0, 0, 0, 0, 0]);
    expect(lo(3)).toEqual([0, 0, 0, 0, 0, 0, 9, 0]);
    expect(lo(4)).toEqual(zero);
    expect(lo(5)).toEqual(zero);
    expect(Array.from(t.columns[5]!.hi)).toEqual([0, 2, 0, 0, 0, 0, 0, 0]);
    expect(lo(6)).toEqual(zero);
    // Never valued: the shared zeros, not views of the table's own array.
    const never = [0, 5, 6].map((k) => t.columns[k]!.lo);
    expect(never[1]).toBe(never[0]);
    expect(never[2]).toBe(never[0]);
    expect(never[0]!.buffer).not.toBe(w.lo.buffer);
    expect(t.columns[1]!.lo.buffer).toBe(w.lo.buffer);
  });
});
