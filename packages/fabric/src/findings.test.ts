import { describe, expect, it } from 'vitest';
import { findingKey, linkKey, mergeFindings, type Finding, type Verdict } from './findings.ts';

const P = { nodeGuid: '0x0000000000000001', portNum: 1 };
const v = (kind: string, severity: Verdict['severity'] = 'major'): Verdict => ({
  kind,
  severity,
  subject: { kind: 'port', port: P },
  title: kind,
  evidence: {},
});
const asFinding = (x: Verdict, extra: Partial<Finding> = {}): Finding => ({
  ...x,
  key: findingKey(x),
  firstSeen: 't0',
  lastSeen: 't0',
  state: 'open',
  cleanSweeps: 0,
  ...extra,
});

describe('mergeFindings()', () => {
  it('inserts new verdicts as open findings', () => {
    const r = mergeFindings([], [v('link-downed')], { now: 't1' });
    expect(r.insert).toEqual([
      expect.objectContaining({
        key: 'link-downed|port:0x0000000000000001/1',
        state: 'open',
        firstSeen: 't1',
        lastSeen: 't1',
      }),
    ]);
  });

  it('updates a finding seen again, keeping firstSeen and the acknowledged state', () => {
    const r = mergeFindings(
      [asFinding(v('x', 'minor'), { state: 'acknowledged', cleanSweeps: 2 })],
      [v('x', 'critical')],
      { now: 't2' },
    );
    expect(r.update[0]).toMatchObject({
      firstSeen: 't0',
      lastSeen: 't2',
      state: 'acknowledged',
      severity: 'critical',
      cleanSweeps: 0,
    });
    expect(r.insert).toEqual([]);
  });

  it('auto-resolves after N clean sweeps', () => {
    let open = [asFinding(v('x'))];
    for (let i = 1; i <= 2; i++) {
      const r = mergeFindings(open, [], { now: `t${i}`, resolveAfterCleanSweeps: 3 });
      expect(r.resolve).toEqual([]);
      open = r.update;
    }
    const r = mergeFindings(open, [], { now: 't3', resolveAfterCleanSweeps: 3 });
    expect(r.resolve[0]).toMatchObject({ state: 'resolved', resolvedAt: 't3' });
  });

  it('does not count a sweep that did not evaluate the finding as clean', () => {
    const r = mergeFindings([asFinding(v('sm-no-master'))], [], {
      now: 't1',
      resolveAfterCleanSweeps: 1,
      evaluated: (f) => !f.kind.startsWith('sm-'),
    });
    expect(r).toEqual({ insert: [], update: [], resolve: [] });
  });

  it('keeps the worst of duplicate verdicts', () => {
    const r = mergeFindings([], [v('x', 'minor'), v('x', 'critical'), v('x', 'info')], { now: 't' });
    expect(r.insert).toHaveLength(1);
    expect(r.insert[0]!.severity).toBe('critical');
  });
});

describe('linkKey()', () => {
  it('is the same whichever end comes first', () => {
    const b = { nodeGuid: '0x0000000000000002', portNum: 7 };
    expect(linkKey(P, b)).toBe(linkKey(b, P));
  });
});
