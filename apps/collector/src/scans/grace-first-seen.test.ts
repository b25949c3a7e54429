import { afterEach, describe, expect, it } from 'vitest';
import { ERROR_PORT, pmSweep, SAMPLE_A, seedCounters, testContext, withErrors } from '../test-support.ts';

/**
 * Issue 33: the grace period (info for a freshly cabled link) is only for links first seen in
 * this very scan, i.e. after the previous counter snapshot. With grace on (30 min, the default).
 */
let ctx: ReturnType<typeof testContext>;
afterEach(() => ctx.cleanup());

async function twoSweeps(between?: (importedAt: number) => void) {
  ctx = testContext({ IBWATCH_GRACE_PERIOD_MIN: '30' });
  const imported = await ctx.scans.importIbdiagnet(SAMPLE_A, 'cli');
  const t = imported.finishedAt!;
  const [counters] = await seedCounters();
  await pmSweep(ctx, t + 60_000, counters);
  between?.(t);
  await pmSweep(ctx, t + 120_000, withErrors(counters, ERROR_PORT, 'SymbolErrorCounter', 500n));
  return ctx.db
    .prepare("SELECT severity, title, evidence FROM findings WHERE kind = 'symbol-errors' AND subject_key = ?")
    .get(`port:${ERROR_PORT.nodeGuid}/${ERROR_PORT.portNum}`) as { severity: string; title: string; evidence: string };
}

describe('grace period in a PM sweep', () => {
  it('grades a burst normally on a link there at the previous snapshot, 2 min after it was first seen', async () => {
    const f = await twoSweeps();
    expect(f.severity).not.toBe('info');
    expect(f.title).not.toContain('grace');
    expect(JSON.parse(f.evidence).gracePeriod).toBeUndefined();
  });

  it('grants grace to a link first seen between the previous snapshot and this one', async () => {
    const f = await twoSweeps((t) => {
      // What a topology scan at t + 90 s writes for a link it sees for the first time.
      ctx.db
        .prepare(
          'UPDATE links SET first_seen = ? WHERE ' +
            'a_port_id IN (SELECT id FROM ports WHERE node_guid = ? AND port_num = ?) ' +
            'OR b_port_id IN (SELECT id FROM ports WHERE node_guid = ? AND port_num = ?)',
        )
        .run(t + 90_000, ERROR_PORT.nodeGuid, ERROR_PORT.portNum, ERROR_PORT.nodeGuid, ERROR_PORT.portNum);
    });
    expect(f.severity).toBe('info');
    expect(f.title).toContain('(new link, in grace period)');
    expect(JSON.parse(f.evidence)).toMatchObject({ gracePeriod: true });
  });
});
