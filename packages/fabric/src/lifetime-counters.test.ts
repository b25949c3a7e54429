import { describe, expect, it } from 'vitest';
import { tableFromPortCounters, tableRow } from './counter-table.ts';
import { computeTableDeltas } from './counter-table-deltas.ts';
import {
  clearCountersHow,
  evaluateLifetimeCounters,
  LIFETIME_KIND,
  rowsWithCounts,
  saturationSeverity,
} from './lifetime-counters.ts';
import type { PortCounters } from './types.ts';

const G = '0xc470bd0300100612';
const rec = (c: Record<string, bigint>, portNum = 1): PortCounters => ({ nodeGuid: G, portNum, counters: c });

describe('evaluateLifetimeCounters()', () => {
  it('makes a saturated SymbolErrorCounter (16-bit 0xFFFF, twin not counting) major, with how to clear', () => {
    const v = evaluateLifetimeCounters([rec({ SymbolErrorCounter: 0xffffn, SymbolErrorCounterExt: 0n })], {
      lidOf: () => 42,
    });
    expect(v).toHaveLength(1);
    expect(v[0]).toMatchObject({
      kind: 'counter-saturated:SymbolErrorCounter',
      severity: 'major',
      subject: { kind: 'port', port: { nodeGuid: G, portNum: 1 } },
      short: 'SymbolErrorCounter saturated: clear counters and measure again',
      evidence: { current: '65535', widthBits: 16, firstSnapshot: true },
    });
    expect(v[0]!.title).toContain('`perfquery -R 42 1`');
    expect(v[0]!.title).toContain('ibdiagnet --pc');
  });

  it('uses the 8-bit width for LinkErrorRecoveryCounter and LinkDownedCounter (0xFF is saturated)', () => {
    const v = evaluateLifetimeCounters([rec({ LinkErrorRecoveryCounter: 0xffn, LinkDownedCounter: 0xffn })]);
    expect(v.map((x) => [x.kind, x.severity])).toEqual([
      ['counter-saturated:LinkErrorRecoveryCounter', 'major'],
      ['counter-saturated:LinkDownedCounter', 'major'],
    ]);
    // 254 is a count, not saturation.
    const [c] = evaluateLifetimeCounters([rec({ LinkErrorRecoveryCounter: 0xfen })]);
    expect(c).toMatchObject({ kind: LIFETIME_KIND, evidence: { counters: { LinkErrorRecoveryCounter: '254' } } });
  });

  it('is not fooled by a 64-bit twin that reads more than the classic: it counts, no saturation', () => {
    // Real NDR run: PortRcvErrors=65535, PortRcvErrorsExt=1436771.
    const [v] = evaluateLifetimeCounters([rec({ PortRcvErrors: 65535n, PortRcvErrorsExt: 1_436_771n })]);
    expect(v).toMatchObject({ kind: LIFETIME_KIND, evidence: { counters: { PortRcvErrors: '1436771' } } });
  });

  it('ignores a twin of 2^63 or more (not a count) and judges the classic column', () => {
    // Real NDR run: PortRcvErrors=65535, PortRcvErrorsExt=18446744073709551576.
    const [v] = evaluateLifetimeCounters([rec({ PortRcvErrors: 65535n, PortRcvErrorsExt: 18446744073709551576n })]);
    expect(v).toMatchObject({ kind: 'counter-saturated:PortRcvErrors', severity: 'major' });
  });

  it('lists non-zero link error counts since the last clear as minor, saying they are no rate', () => {
    const [v] = evaluateLifetimeCounters(
      [rec({ SymbolErrorCounter: 67n, SymbolErrorCounterExt: 0n, LinkDownedCounter: 12n })],
      {
        portName: () => 'dgx-01 mlx5_0 port 1',
      },
    );
    expect(v).toMatchObject({
      kind: LIFETIME_KIND,
      severity: 'minor',
      title:
        'Errors since the last clear on dgx-01 mlx5_0 port 1: SymbolErrorCounter 67, LinkDownedCounter 12 ' +
        '(no rate yet: one snapshot)',
      evidence: { counters: { SymbolErrorCounter: '67', LinkDownedCounter: '12' }, firstSnapshot: true },
    });
    expect(v!.evidence.note).toMatch(/not a rate.*cannot say whether the errors are still happening/);
  });

  it('makes no finding of link downs or discards alone (reboots and congestion add to them)', () => {
    expect(evaluateLifetimeCounters([rec({ LinkDownedCounter: 37n, PortXmitDiscards: 43n })])).toEqual([]);
  });

  it('says nothing about a port with all counters at zero', () => {
    expect(evaluateLifetimeCounters([rec({ SymbolErrorCounter: 0n, LinkDownedCounter: 0n })])).toEqual([]);
  });

  it('treats an extended record (perfquery -x) as 64-bit: 65535 there is a count', () => {
    const [v] = evaluateLifetimeCounters([{ ...rec({ SymbolErrorCounter: 65535n }), extended: true }]);
    expect(v!.kind).toBe(LIFETIME_KIND);
  });
});

describe('saturationSeverity() and clearCountersHow()', () => {
  it('is major for link-layer counters, minor for discards and remote errors', () => {
    expect(['SymbolErrorCounter', 'PortXmitDiscards', 'PortRcvRemotePhysicalErrors'].map(saturationSeverity)).toEqual([
      'major',
      'minor',
      'minor',
    ]);
  });

  it('names a placeholder LID when the LID is unknown', () => {
    expect(clearCountersHow(undefined, 3)).toContain('`perfquery -R <LID> 3`');
    expect(clearCountersHow(0, 3)).toContain('`perfquery -R <LID> 3`');
  });
});

describe('rowsWithCounts()', () => {
  it('picks only rows with a link error count (classic or twin) or a pegged link-down/discard counter', () => {
    const t = tableFromPortCounters([
      rec({ SymbolErrorCounter: 0n, PortXmitData: 99n }, 1),
      rec({ SymbolErrorCounter: 0n, SymbolErrorCounterExt: 5n }, 2),
      rec({ LinkDownedCounter: 3n }, 3),
      rec({ VL15Dropped: 9n }, 4),
      rec({ LinkDownedCounter: 255n }, 5),
      rec({ PortXmitDiscards: 65535n }, 6),
    ]);
    expect(rowsWithCounts(t, [0, 1, 2, 3, 4, 5])).toEqual([1, 4, 5]);
    expect(rowsWithCounts(t, [0, 2, 3])).toEqual([]);
    // What the rules make of the rows left out: nothing.
    const left = [0, 2, 3].map((r) => tableRow(t, r));
    expect(evaluateLifetimeCounters(left)).toEqual([]);
  });
});

describe('computeTableDeltas() baselineRows', () => {
  it('lists every row on a first snapshot and only new ports later', () => {
    const first = tableFromPortCounters([rec({ SymbolErrorCounter: 1n }, 1), rec({ SymbolErrorCounter: 1n }, 2)]);
    const watch = new Set(['SymbolErrorCounter']);
    expect(computeTableDeltas(undefined, first, 0, { watch }).baselineRows).toEqual([0, 1]);
    const second = tableFromPortCounters([
      rec({ SymbolErrorCounter: 1n }, 1),
      rec({ SymbolErrorCounter: 1n }, 2),
      rec({ SymbolErrorCounter: 4n }, 3),
    ]);
    expect(computeTableDeltas(first, second, 60, { watch }).baselineRows).toEqual([2]);
  });
});
