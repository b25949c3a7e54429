import { afterAll, describe, expect, it } from 'vitest';
import type { Severity, Verdict } from '@ibwatch/fabric';
import { createFindingsRepo } from '../db/findings-repo.ts';
import { testContext } from '../test-support.ts';
import { PM_KINDS, SM_KINDS, syncFindings } from './findings-sync.ts';

const ctx = testContext();
afterAll(() => ctx.cleanup());
const repo = createFindingsRepo(ctx.db);
const MIN = 60_000;
const HOUR = 60 * MIN;
const T0 = Date.UTC(2026, 11, 6);

let n = 0;
const port = () => ({ nodeGuid: `0x00000000000001${String(++n).padStart(2, '0')}`, portNum: 1 });
const verdict = (kind: string, p: { nodeGuid: string; portNum: number }, severity: Severity = 'major'): Verdict => ({
  kind,
  severity,
  subject: { kind: 'port', port: p },
  title: `${kind} on ${p.nodeGuid}`,
  short: kind,
  evidence: {},
});
const only = (p: { nodeGuid: string }) => {
  const fs = repo.list({ limit: 1000 }).filter((f) => f.subjectKey.includes(p.nodeGuid));
  expect(fs).toHaveLength(1);
  return fs[0]!;
};

describe('event findings in syncFindings()', () => {
  it('keeps a flap current for its window after the sweep that saw it, then ends it (window-ended)', () => {
    const p = port();
    syncFindings(repo, [verdict('link-flapping', p)], PM_KINDS, T0, HOUR);
    // The next sweeps see no new down: a flap count of today is still true.
    for (const t of [35_000, HOUR, 23 * HOUR]) {
      expect(syncFindings(repo, [], PM_KINDS, T0 + t, HOUR).cleared).toBe(0);
      expect(only(p)).toMatchObject({ state: 'open', clearedAt: null });
    }
    expect(syncFindings(repo, [], PM_KINDS, T0 + 24 * HOUR, HOUR).cleared).toBe(1);
    expect(only(p)).toMatchObject({ state: 'open', clearedAt: T0 + 24 * HOUR });
    expect(repo.history(only(p).id).map((e) => e.event)).toEqual(['opened', 'window-ended']);
  });

  it('holds a flap for the configured flap window', () => {
    const p = port();
    syncFindings(repo, [verdict('link-flapping', p)], PM_KINDS, T0, HOUR, { flaps: { windowHours: 2 } });
    expect(syncFindings(repo, [], PM_KINDS, T0 + HOUR, HOUR, { flaps: { windowHours: 2 } }).cleared).toBe(0);
    expect(syncFindings(repo, [], PM_KINDS, T0 + 2 * HOUR, HOUR, { flaps: { windowHours: 2 } }).cleared).toBe(1);
  });

  it('counts the window from the last flap: a new flap keeps the same finding current', () => {
    const p = port();
    syncFindings(repo, [verdict('link-flapping', p, 'minor')], PM_KINDS, T0, HOUR);
    syncFindings(repo, [verdict('link-flapping', p)], PM_KINDS, T0 + 20 * HOUR, HOUR);
    expect(syncFindings(repo, [], PM_KINDS, T0 + 30 * HOUR, HOUR).cleared).toBe(0);
    expect(only(p)).toMatchObject({ clearedAt: null, lastSeen: T0 + 20 * HOUR });
  });

  it('ends a flap at once when a person marks it fixed, and a later flap opens a new finding', () => {
    const p = port();
    syncFindings(repo, [verdict('link-flapping', p)], PM_KINDS, T0, HOUR);
    const id = only(p).id;
    expect(repo.resolve(id, T0 + 10 * MIN, 'ops', 'reseated')).toBe(true);
    expect(repo.get(id)).toMatchObject({ state: 'resolved', clearedAt: T0 + 10 * MIN });
    expect(syncFindings(repo, [], PM_KINDS, T0 + 11 * MIN, HOUR)).toMatchObject({ cleared: 0, opened: 0 });
    expect(syncFindings(repo, [verdict('link-flapping', p)], PM_KINDS, T0 + 2 * HOUR, HOUR).opened).toBe(1);
  });

  it('keeps a failover current for a day (an SM event) and clears a condition at the first scan without it', () => {
    const g = '0x0000000000000abc';
    const failover: Verdict = {
      kind: 'sm-failover',
      severity: 'major',
      subject: { kind: 'sm', guid: g },
      title: 'failover',
      evidence: {},
    };
    const noStandby: Verdict = { ...failover, kind: 'sm-no-standby', subject: { kind: 'sm' }, title: 'no standby' };
    syncFindings(repo, [failover, noStandby], SM_KINDS, T0, 0);
    syncFindings(repo, [noStandby], SM_KINDS, T0 + MIN, 0);
    const kinds = () =>
      repo
        .list({ state: 'current', limit: 1000 })
        .filter((f) => f.kind.startsWith('sm-'))
        .map((f) => f.kind)
        .sort();
    expect(kinds()).toEqual(['sm-failover', 'sm-no-standby']);
    syncFindings(repo, [], SM_KINDS, T0 + 2 * MIN, 0);
    expect(kinds()).toEqual(['sm-failover']);
    syncFindings(repo, [], SM_KINDS, T0 + 24 * HOUR, 0);
    expect(kinds()).toEqual([]);
  });
});

describe('peak severity', () => {
  it('keeps the worst severity a finding had and writes each change to its history', () => {
    const p = port();
    syncFindings(repo, [verdict('symbol-errors', p, 'critical')], PM_KINDS, T0, HOUR);
    syncFindings(repo, [verdict('symbol-errors', p, 'major')], PM_KINDS, T0 + MIN, HOUR);
    syncFindings(repo, [verdict('symbol-errors', p, 'major')], PM_KINDS, T0 + 2 * MIN, HOUR);
    expect(only(p)).toMatchObject({ severity: 'major', peakSeverity: 'critical' });
    expect(repo.history(only(p).id).map((e) => [e.event, e.at, e.note])).toEqual([
      ['opened', T0, null],
      ['severity', T0 + MIN, 'critical → major'],
    ]);
  });

  it('raises the peak when a finding gets worse', () => {
    const p = port();
    syncFindings(repo, [verdict('symbol-errors', p, 'minor')], PM_KINDS, T0, HOUR);
    syncFindings(repo, [verdict('symbol-errors', p, 'critical')], PM_KINDS, T0 + MIN, HOUR);
    expect(only(p)).toMatchObject({ severity: 'critical', peakSeverity: 'critical' });
  });
});
