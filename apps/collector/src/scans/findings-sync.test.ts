import { afterAll, describe, expect, it } from 'vitest';
import type { Verdict } from '@ibwatch/fabric';
import { createFindingsRepo } from '../db/findings-repo.ts';
import { testContext } from '../test-support.ts';
import { refreshLinkHealth } from './link-health-store.ts';
import { PM_KINDS, syncFindings, TOPOLOGY_KINDS } from './findings-sync.ts';

const ctx = testContext();
afterAll(() => ctx.cleanup());
const repo = createFindingsRepo(ctx.db);
const MIN = 60_000;
const HOUR = 60 * MIN;
const T0 = Date.UTC(2024, 0, 1);

let n = 0;
/** A fresh port subject per test, so the tests share one database without seeing each other. */
const port = () => ({ nodeGuid: `0x00000000000000${String(++n).padStart(2, '0')}`, portNum: 1 });
const verdict = (kind: string, p: { nodeGuid: string; portNum: number }): Verdict => ({
  kind,
  severity: 'major',
  subject: { kind: 'port', port: p },
  title: `${kind} on ${p.nodeGuid}`,
  short: kind,
  evidence: {},
});
const ofPort = (p: { nodeGuid: string }) =>
  repo
    .active()
    .concat(repo.list({ state: 'resolved', limit: 1000 }))
    .filter((f) => f.subjectKey.includes(p.nodeGuid));

describe('syncFindings()', () => {
  it(
    'clears a finding at the first scan that no longer sees it and resolves it after the clean period, by ' + 'time',
    () => {
      const p = port();
      syncFindings(repo, [verdict('symbol-errors', p)], PM_KINDS, T0, HOUR);
      const cleared = syncFindings(repo, [], PM_KINDS, T0 + MIN, HOUR);
      expect(cleared).toMatchObject({ cleared: 1, resolved: 0 });
      expect(ofPort(p)).toEqual([expect.objectContaining({ state: 'open', clearedAt: T0 + MIN, resolvedAt: null })]);
      // Sixty sweeps a minute apart, or one sweep: what counts is the hour since it cleared.
      for (let m = 2; m <= 60; m++) expect(syncFindings(repo, [], PM_KINDS, T0 + m * MIN, HOUR).resolved).toBe(0);
      expect(syncFindings(repo, [], PM_KINDS, T0 + 61 * MIN, HOUR)).toMatchObject({ resolved: 1, cleared: 0 });
      expect(ofPort(p)).toEqual([
        expect.objectContaining({ state: 'resolved', clearedAt: T0 + MIN, resolvedAt: T0 + 61 * MIN }),
      ]);
    },
  );

  it('never resolves a condition every scan still observes, however long', () => {
    const p = port();
    for (let h = 0; h <= 48; h++)
      syncFindings(repo, [verdict('link-degraded-width', p)], TOPOLOGY_KINDS, T0 + h * HOUR, 0);
    expect(ofPort(p)).toEqual([expect.objectContaining({ state: 'open', clearedAt: null, lastSeen: T0 + 48 * HOUR })]);
  });

  it('makes a cleared finding current again when its condition comes back, keeping the finding', () => {
    const p = port();
    syncFindings(repo, [verdict('symbol-errors', p)], PM_KINDS, T0, HOUR);
    syncFindings(repo, [], PM_KINDS, T0 + MIN, HOUR);
    const again = syncFindings(repo, [verdict('symbol-errors', p)], PM_KINDS, T0 + 2 * MIN, HOUR);
    expect(again).toMatchObject({ opened: 0, updated: 1 });
    expect(ofPort(p)).toEqual([expect.objectContaining({ state: 'open', clearedAt: null, firstSeen: T0 })]);
  });

  it('leaves findings of kinds the scan did not evaluate alone: no data is not a clean observation', () => {
    const p = port();
    syncFindings(repo, [verdict('link-down', p)], TOPOLOGY_KINDS, T0, 0);
    syncFindings(repo, [], PM_KINDS, T0 + HOUR, 0);
    expect(ofPort(p)).toEqual([expect.objectContaining({ state: 'open', clearedAt: null })]);
  });

  it('keeps a finding marked fixed while still observed current until the next scan of its kind', () => {
    const still = port();
    const gone = port();
    syncFindings(
      repo,
      [verdict('link-degraded-width', still), verdict('link-degraded-width', gone)],
      TOPOLOGY_KINDS,
      T0,
      HOUR,
    );
    for (const f of [...ofPort(still), ...ofPort(gone)]) repo.resolve(f.id, T0 + MIN);
    expect(
      repo.list({ state: 'current', limit: 1000 }).filter((f) => f.kind === 'link-degraded-width').length,
    ).toBeGreaterThanOrEqual(2);
    refreshLinkHealth(ctx.db);
    // The next topology scan still sees `still` (a new finding opens) and no longer sees `gone`.
    const r = syncFindings(repo, [verdict('link-degraded-width', still)], TOPOLOGY_KINDS, T0 + 10 * MIN, HOUR);
    expect(r).toMatchObject({ opened: 1 });
    expect(ofPort(still).map((f) => [f.state, f.clearedAt])).toEqual(
      expect.arrayContaining([
        ['resolved', T0 + 10 * MIN],
        ['open', null],
      ]),
    );
    expect(ofPort(gone).map((f) => [f.state, f.clearedAt])).toEqual([['resolved', T0 + 10 * MIN]]);
    expect(r.changedSubjects).toEqual(expect.arrayContaining([`port:${gone.nodeGuid}/1`]));
  });
});
