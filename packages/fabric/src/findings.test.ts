import { describe, expect, it } from 'vitest';
import { findingKey, linkKey, mergeFindings, unobservedStep, type Finding, type Verdict } from './findings.ts';

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
  firstSeen: T(0),
  lastSeen: T(0),
  state: 'open',
  ...extra,
});
/** Minute m of a day, as the ISO times sweeps carry. */
const T = (m: number) => new Date(Date.UTC(2024, 0, 1, 0, m)).toISOString();
const MIN = 60_000;

describe('mergeFindings()', () => {
  it('inserts new verdicts as open findings', () => {
    const r = mergeFindings([], [v('link-downed')], { now: T(1) });
    expect(r.insert).toEqual([
      expect.objectContaining({
        key: 'link-downed|port:0x0000000000000001/1',
        state: 'open',
        firstSeen: T(1),
        lastSeen: T(1),
      }),
    ]);
    expect(r.insert[0]).not.toHaveProperty('clearedAt');
  });

  it(
    'updates a finding seen again, keeping firstSeen and the acknowledged state, and makes a cleared ' + 'one current',
    () => {
      const r = mergeFindings(
        [asFinding(v('x', 'minor'), { state: 'acknowledged', clearedAt: T(1) })],
        [v('x', 'critical')],
        { now: T(2) },
      );
      expect(r.update[0]).toMatchObject({
        firstSeen: T(0),
        lastSeen: T(2),
        state: 'acknowledged',
        severity: 'critical',
      });
      expect(r.update[0]).not.toHaveProperty('clearedAt');
      expect(r.insert).toEqual([]);
    },
  );

  it(
    'clears a finding at the first sweep without it and resolves it after the clean period, however ' + 'many sweeps',
    () => {
      const cleared = mergeFindings([asFinding(v('x'))], [], { now: T(1), resolveAfterMs: 30 * MIN });
      expect(cleared.update).toEqual([expect.objectContaining({ state: 'open', clearedAt: T(1) })]);
      expect(cleared.resolve).toEqual([]);
      // Sweeps every minute or one sweep 29 minutes later: still only cleared, cleared at T(1).
      const waiting = mergeFindings(cleared.update, [], { now: T(30), resolveAfterMs: 30 * MIN });
      expect(waiting).toEqual({ insert: [], update: [], resolve: [] });
      const r = mergeFindings(cleared.update, [], { now: T(31), resolveAfterMs: 30 * MIN });
      expect(r.resolve[0]).toMatchObject({ state: 'resolved', resolvedAt: T(31), clearedAt: T(1) });
    },
  );

  it('does not count a sweep that did not evaluate the finding as clean', () => {
    const r = mergeFindings([asFinding(v('sm-no-master'))], [], {
      now: T(1),
      resolveAfterMs: 0,
      evaluated: (f) => !f.kind.startsWith('sm-'),
    });
    expect(r).toEqual({ insert: [], update: [], resolve: [] });
  });

  it('keeps the worst of duplicate verdicts', () => {
    const r = mergeFindings([], [v('x', 'minor'), v('x', 'critical'), v('x', 'info')], { now: T(0) });
    expect(r.insert).toHaveLength(1);
    expect(r.insert[0]!.severity).toBe('critical');
  });
});

describe('unobservedStep()', () => {
  it('clears first, waits out the clean period, then resolves; with no period it resolves at once', () => {
    expect(unobservedStep(null, 1000, 60_000)).toBe('clear');
    expect(unobservedStep(1000, 60_999, 60_000)).toBe('wait');
    expect(unobservedStep(1000, 61_000, 60_000)).toBe('resolve');
    expect(unobservedStep(null, 1000, 0)).toBe('resolve');
  });
});

describe('linkKey()', () => {
  it('is the same whichever end comes first', () => {
    const b = { nodeGuid: '0x0000000000000002', portNum: 7 };
    expect(linkKey(P, b)).toBe(linkKey(b, P));
  });
});
