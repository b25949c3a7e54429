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
    // The old master is gone and nobody is left in STANDBY.
    expect(kinds(r)).toEqual(['sm-failover', 'sm-no-standby', 'sm-not-seen']);
    expect(r.status).toBe('no-standby');
  });

  it('reports a standby that stopped answering, and that no standby is left', () => {
    const r = evaluateSmHa({
      previous: [sm(A, 'MASTER', 15), sm(B, 'STANDBY', 1)],
      current: [sm(A, 'MASTER', 15)],
      now: NOW,
    });
    expect(kinds(r)).toEqual(['sm-no-standby', 'sm-not-seen']);
    expect(r.verdicts.find((v) => v.kind === 'sm-not-seen')).toMatchObject({
      severity: 'major',
      subject: { kind: 'sm', guid: B },
    });
    expect(r.status).toBe('no-standby');
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
      previous: [sm(A, 'MASTER', 15, { activityCount: 100n }), sm(B, 'STANDBY', 1)],
      current: [sm(A, 'MASTER', 15, { activityCount: 100n }), sm(B, 'STANDBY', 1)],
      now: NOW,
    });
    expect(kinds(r)).toEqual(['sm-master-stalled']);
    expect(
      evaluateSmHa({
        previous: [sm(A, 'MASTER', 15, { activityCount: 100n }), sm(B, 'STANDBY', 1)],
        current: [sm(A, 'MASTER', 15, { activityCount: 180n }), sm(B, 'STANDBY', 1)],
        now: NOW,
      }).verdicts,
    ).toEqual([]);
  });

  const C = '0x000000000000000c';
  const ROGUE = '0x00000000000000f1';
  const designation = (...guids: string[]) => ({ isDesignated: (g: string) => guids.includes(g), count: guids.length });

  it('keeps a designated SM that stopped answering reported on every later sweep, with its last state', () => {
    // Sweeps after the loss: `previous` no longer has B, but it is still known.
    const r = evaluateSmHa({
      previous: [sm(A, 'MASTER', 15), sm(C, 'STANDBY', 2)],
      current: [sm(A, 'MASTER', 15), sm(C, 'STANDBY', 2)],
      known: [
        { guid: B, nodeDescription: 'head-02 mlx5_0', portNum: 1, last: { state: 'STANDBY', priority: 1, at: NOW } },
      ],
      designation: designation(A, B, C),
      now: NOW,
    });
    expect(kinds(r)).toEqual(['sm-not-seen']);
    expect(r.verdicts[0]!.title).toBe(
      `Subnet manager head-02 mlx5_0 port 1 (${B}) stopped answering (last seen STANDBY, priority 1)`,
    );
    expect(r.status).toBe('sm-missing');
  });

  it('reports a designated SM that never answered, and ignores a rogue SM that went away', () => {
    const r = evaluateSmHa({
      current: [sm(A, 'MASTER', 15), sm(B, 'STANDBY', 1)],
      known: [{ guid: C }, { guid: ROGUE, last: { state: 'MASTER', priority: 15, at: NOW } }],
      designation: designation(A, B, C),
      now: NOW,
    });
    expect(r.verdicts.map((v) => v.title)).toEqual([`Designated subnet manager ${C} has never answered`]);
  });

  it('flags an SM at a port that is not designated as critical, naming its node and port', () => {
    const rogue = sm(ROGUE, 'STANDBY', 15, { nodeDescription: 'dgx-0003 mlx5_0', portNum: 1 });
    const r = evaluateSmHa({
      current: [sm(A, 'MASTER', 15), sm(B, 'STANDBY', 1), rogue],
      designation: designation(A, B),
      now: NOW,
    });
    expect(kinds(r)).toEqual(['sm-rogue']);
    expect(r.verdicts[0]).toMatchObject({ severity: 'critical', subject: { kind: 'sm', guid: ROGUE } });
    expect(r.verdicts[0]!.title).toContain('dgx-0003 mlx5_0 port 1');
    expect(r.status).toBe('rogue');
  });

  it('reports a rogue master as critical and the takeover as a failover, not as a priority problem', () => {
    const rogue = sm(ROGUE, 'MASTER', 15, { nodeDescription: 'dgx-0003 mlx5_0', portNum: 1 });
    const r = evaluateSmHa({
      previous: [sm(A, 'MASTER', 15), sm(B, 'STANDBY', 1)],
      previousAt: '2025-04-01T11:59:50Z',
      current: [rogue, sm(A, 'STANDBY', 15), sm(B, 'STANDBY', 1)],
      designation: designation(A, B),
      now: NOW,
    });
    expect(kinds(r)).toEqual(['sm-failover', 'sm-rogue']);
    expect(r.verdicts.find((v) => v.kind === 'sm-rogue')!.title).toMatch(/MASTER, priority 15, and is the master/);
    expect(r.failover).toMatchObject({ from: A, to: ROGUE, after: '2025-04-01T11:59:50Z' });
    expect(r.status).toBe('rogue');
  });

  it('judges no standby by designated SMs only, and as minor when only one SM is designated', () => {
    const rogue = sm(ROGUE, 'STANDBY', 1);
    const two = evaluateSmHa({ current: [sm(A, 'MASTER', 15), rogue], designation: designation(A, B), now: NOW });
    expect(two.verdicts.find((v) => v.kind === 'sm-no-standby')?.severity).toBe('major');
    const one = evaluateSmHa({ current: [sm(A, 'MASTER', 15)], designation: designation(A), now: NOW });
    expect(one.verdicts.map((v) => [v.kind, v.severity])).toEqual([['sm-no-standby', 'minor']]);
    expect(one.status).toBe('no-standby');
  });

  it('counts a takeover across sweeps without a master as one failover from the last single master', () => {
    const r = evaluateSmHa({
      previous: [sm(B, 'STANDBY', 1)],
      current: [sm(B, 'MASTER', 1)],
      lastMaster: {
        sm: sm(A, 'MASTER', 15, { nodeDescription: 'head-01 mlx5_0', portNum: 1 }),
        at: '2025-04-01T11:58:00Z',
      },
      known: [{ guid: A, last: { state: 'MASTER', priority: 15, at: '2025-04-01T11:58:00Z' } }],
      designation: designation(A, B),
      now: NOW,
    });
    expect(r.failover).toEqual({ from: A, to: B, after: '2025-04-01T11:58:00Z', before: NOW });
    expect(r.verdicts.find((v) => v.kind === 'sm-failover')!.title).toContain('from head-01 mlx5_0 port 1');
  });

  it('says the worst status when several hold', () => {
    const r = evaluateSmHa({
      current: [sm(ROGUE, 'MASTER', 15), sm(A, 'MASTER', 15)],
      designation: designation(A, B),
      known: [{ guid: B, last: { state: 'STANDBY', priority: 1, at: NOW } }],
      now: NOW,
    });
    expect(r.status).toBe('split-brain');
    expect(evaluateSmHa({ current: [], now: NOW }).status).toBe('no-master');
    expect(evaluateSmHa({ current: [sm(A, 'MASTER', 15), sm(B, 'STANDBY', 1)], now: NOW }).status).toBe('ok');
  });
});
