import { describe, expect, it } from 'vitest';
import { evaluateSmHa } from './sm-ha.ts';
import type { SmObservation } from './types.ts';

const A = '0x000000000000000a';
const B = '0x000000000000000b';
const sm = (
  guid: string,
  state: SmObservation['state'],
  priority: number,
  extra: Partial<SmObservation> = {},
): SmObservation => ({ guid, state, priority, ...extra });
const NOW = '2025-04-01T12:00:00Z';
const kinds = (r: ReturnType<typeof evaluateSmHa>) => r.verdicts.map((v) => v.kind).sort();

describe('evaluateSmHa()', () => {
  it('is quiet with one master and a lower-priority standby', () => {
    const r = evaluateSmHa({ current: [sm(A, 'MASTER', 15), sm(B, 'STANDBY', 1)], now: NOW });
    expect(r.verdicts).toEqual([]);
    expect(r.master).toBe(A);
  });

  it('reports no master as critical', () => {
    const r = evaluateSmHa({ current: [sm(B, 'STANDBY', 1)], now: NOW });
    expect(r.verdicts[0]).toMatchObject({ kind: 'sm-no-master', severity: 'critical' });
    expect(r.master).toBeUndefined();
  });

  it('reports two masters as split brain', () => {
    const r = evaluateSmHa({ current: [sm(A, 'MASTER', 15), sm(B, 'MASTER', 1)], now: NOW });
    expect(r.verdicts[0]).toMatchObject({ kind: 'sm-split-brain', severity: 'critical' });
    expect((r.verdicts[0]!.evidence.masters as unknown[]).length).toBe(2);
  });

  it('reports a failover with from/to GUIDs and the time window', () => {
    const r = evaluateSmHa({
      previous: [sm(A, 'MASTER', 15), sm(B, 'STANDBY', 1)],
      current: [sm(B, 'MASTER', 1)],
      now: NOW,
      previousAt: '2025-04-01T11:59:00Z',
    });
    expect(r.failover).toEqual({ from: A, to: B, after: '2025-04-01T11:59:00Z', before: NOW });
    expect(r.verdicts.find((v) => v.kind === 'sm-failover')!.evidence).toMatchObject({ from: A, to: B });
    expect(kinds(r)).toEqual(['sm-failover', 'sm-standby-lost']);
  });

  it('reports a standby that stopped answering', () => {
    const r = evaluateSmHa({
      previous: [sm(A, 'MASTER', 15), sm(B, 'STANDBY', 1)],
      current: [sm(A, 'MASTER', 15)],
      now: NOW,
    });
    expect(r.verdicts).toHaveLength(1);
    expect(r.verdicts[0]).toMatchObject({ kind: 'sm-standby-lost', subject: { kind: 'sm', guid: B } });
  });

  it('flags a standby whose priority is >= the master priority', () => {
    expect(kinds(evaluateSmHa({ current: [sm(A, 'MASTER', 5), sm(B, 'STANDBY', 5)], now: NOW }))).toEqual([
      'sm-priority',
    ]);
    expect(kinds(evaluateSmHa({ current: [sm(A, 'MASTER', 5), sm(B, 'STANDBY', 9)], now: NOW }))).toEqual([
      'sm-priority',
    ]);
    expect(kinds(evaluateSmHa({ current: [sm(A, 'MASTER', 5), sm(B, 'STANDBY', 4)], now: NOW }))).toEqual([]);
  });

  it('flags a master whose ActCount stopped', () => {
    const r = evaluateSmHa({
      previous: [sm(A, 'MASTER', 15, { activityCount: 100n })],
      current: [sm(A, 'MASTER', 15, { activityCount: 100n })],
      now: NOW,
    });
    expect(kinds(r)).toEqual(['sm-master-stalled']);
    expect(
      evaluateSmHa({
        previous: [sm(A, 'MASTER', 15, { activityCount: 100n })],
        current: [sm(A, 'MASTER', 15, { activityCount: 180n })],
        now: NOW,
      }).verdicts,
    ).toEqual([]);
  });
});
