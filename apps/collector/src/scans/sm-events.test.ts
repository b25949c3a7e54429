import { describe, expect, it } from 'vitest';
import { evaluateSmHa, type SmObservation } from '@ibwatch/fabric';
import { smChanges } from './sm-events.ts';

const A = '0x000000000000000a';
const B = '0x000000000000000b';
const R = '0x00000000000000f1';
const NAMES: Record<string, string> = { [A]: 'head-01 mlx5_0', [B]: 'head-02 mlx5_0', [R]: 'dgx-0003 mlx5_0' };
const sm = (guid: string, state: SmObservation['state'], priority: number): SmObservation => ({
  guid,
  state,
  priority,
  nodeDescription: NAMES[guid],
});

function changes(previous: SmObservation[] | null, current: SmObservation[], seenBefore = [A, B]) {
  return smChanges({
    previous,
    current,
    seenBefore: new Set(seenBefore),
    ha: evaluateSmHa({ current, previous: previous ?? undefined, now: '2025-04-01T12:00:00Z' }),
    lastMasterAt: 1000,
    isDesignated: (g) => g !== R,
    nodeName: (g) => NAMES[g] ?? null,
  });
}

describe('smChanges()', () => {
  it('writes nothing but "no master" for the first observation ever', () => {
    expect(changes(null, [sm(A, 'MASTER', 15), sm(B, 'STANDBY', 1)])).toEqual([]);
    expect(changes(null, [sm(B, 'STANDBY', 1)]).map((c) => c.kind)).toEqual(['no-master']);
  });

  it('leaves out a standby flickering through DISCOVERING while its master changes', () => {
    const before = [sm(R, 'MASTER', 15), sm(A, 'STANDBY', 15), sm(B, 'STANDBY', 1)];
    expect(changes(before, [sm(R, 'MASTER', 15), sm(A, 'STANDBY', 15), sm(B, 'DISCOVERING', 1)])).toEqual([]);
    expect(changes([sm(A, 'MASTER', 15), sm(B, 'DISCOVERING', 1)], [sm(A, 'MASTER', 15), sm(B, 'STANDBY', 1)])).toEqual(
      [],
    );
  });

  it('marks the parts of a failover foldable and words the failover with host names', () => {
    const c = changes([sm(A, 'MASTER', 15), sm(B, 'STANDBY', 1)], [sm(A, 'STANDBY', 15), sm(B, 'MASTER', 1)]);
    expect(c.map((x) => [x.kind, x.foldable ?? false])).toEqual([
      ['state-change', true],
      ['state-change', true],
      ['failover', false],
    ]);
    expect(c.at(-1)).toMatchObject({
      fromGuid: A,
      toGuid: B,
      after: 1000,
      detail: 'master moved from head-01 to head-02; head-01 is now STANDBY',
    });
  });

  it('says when an SM that is not designated appears, and when a known one answers again', () => {
    const base = [sm(A, 'MASTER', 15)];
    expect(changes(base, [...base, sm(R, 'STANDBY', 15)]).map((x) => [x.kind, x.detail])).toEqual([
      ['rogue', 'dgx-0003 appeared as STANDBY (priority 15): not a designated SM'],
    ]);
    expect(changes(base, [...base, sm(B, 'STANDBY', 1)]).map((x) => [x.kind, x.detail])).toEqual([
      ['seen-again', 'head-02 answers again as STANDBY (priority 1)'],
    ]);
  });
});
