import { afterEach, describe, expect, it } from 'vitest';
import type { SmSummary } from '@ibwatch/fabric';
import { createScansRepo } from '../db/scans-repo.ts';
import { testContext } from '../test-support.ts';
import { fabricStatusReport } from './fabric-status.ts';

const MIN = 60_000;
const NOW = Date.UTC(2024, 5, 1, 12, 0);
const unknownSm: SmSummary = {
  status: 'unknown',
  masterGuid: null,
  masterName: null,
  masterCount: 0,
  standbyCount: 0,
  failoversLast24h: 0,
  lastChangeAt: null,
  missingCount: 0,
  rogueCount: 0,
  observedAt: null,
};
// A diags collector with the default schedules: PM every minute, SM every minute, topology every 10 min.
let ctx = testContext({ IBWATCH_SOURCE: 'diags', IBWATCH_JITTER_MS: '0' });
afterEach(() => {
  ctx.cleanup();
  ctx = testContext({ IBWATCH_SOURCE: 'diags', IBWATCH_JITTER_MS: '0' });
});

function scan(kind: 'pm' | 'sm' | 'topology', at: number, status: 'ok' | 'failed' | 'running', error?: string) {
  const scans = createScansRepo(ctx.db);
  const id = scans.start(kind, 'schedule', at);
  if (status !== 'running') scans.finish(id, at + 1000, { status, error: error ?? null });
}
const report = (upSince: number | null = null) =>
  fabricStatusReport(ctx.db, ctx.names, ctx.config, unknownSm, NOW, upSince);
const states = (r: ReturnType<typeof report>) => Object.fromEntries(r.freshness.map((f) => [f.kind, f.state]));

describe('fabricStatusReport(): scan freshness', () => {
  it('is fresh within three intervals of each kind, whatever the kind', () => {
    scan('topology', NOW - 25 * MIN, 'ok');
    scan('pm', NOW - 2 * MIN, 'ok');
    scan('sm', NOW - 2 * MIN, 'ok');
    const r = report();
    expect(states(r)).toEqual({ topology: 'fresh', pm: 'fresh', sm: 'fresh' });
    expect(r.brokenNow).toEqual([]);
  });

  it('goes stale when a kind has not succeeded for three intervals: a tool hanging leaves a scan running', () => {
    scan('topology', NOW - 5 * MIN, 'ok');
    scan('sm', NOW - 30_000, 'ok');
    scan('pm', NOW - 4 * MIN, 'ok');
    scan('pm', NOW - 3 * MIN, 'running');
    const r = report();
    expect(states(r)).toEqual({ topology: 'fresh', pm: 'stale', sm: 'fresh' });
    expect(r.brokenNow).toEqual([
      expect.objectContaining({ kind: 'scan', key: 'pm', reasons: ['last success 4 min ago (every 60 s)'] }),
    ]);
    // No fabric data at all (no topology stored) is STALE in itself; here the pm kind says why.
    expect(r.fabricStatus.word).toBe('STALE');
    expect(r.fabricStatus.reasons).toContain('stale data: pm scans');
  });

  it('goes stale after three failures in a row, with the last error, and fresh again at the next success', () => {
    scan('pm', NOW - 50_000, 'ok');
    for (const s of [40, 30, 20]) scan('pm', NOW - s * 1000, 'failed', 'ibqueryerrors: exit 255');
    expect(report().freshness.find((f) => f.kind === 'pm')).toMatchObject({
      state: 'stale',
      failuresInRow: 3,
      reason: 'failed 3 times in a row: ibqueryerrors: exit 255',
    });
    scan('pm', NOW - 10_000, 'ok');
    expect(report().freshness.find((f) => f.kind === 'pm')).toMatchObject({ state: 'fresh', failuresInRow: 0 });
  });

  it('waits for the first scans of a collector that just started, and calls them stale when nothing is known', () => {
    expect(states(report(NOW - 30_000))).toEqual({ topology: 'pending', pm: 'pending', sm: 'pending' });
    expect(states(report(null))).toEqual({ topology: 'stale', pm: 'stale', sm: 'stale' });
    expect(report(NOW - 30_000).fabricStatus).toMatchObject({
      word: 'STALE',
      reasons: ['no fabric data yet: no topology scan or import has completed'],
    });
  });
});
