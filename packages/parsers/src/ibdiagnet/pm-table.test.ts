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
