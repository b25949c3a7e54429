import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trafficDeltas, type CounterTable, type PortCounters } from '@ibwatch/fabric';
import { createFindingsRepo } from '../db/findings-repo.ts';
import { createTrafficRepo } from '../db/traffic-repo.ts';
import { latestSweep, latestTraffic } from '../metrics/registry.ts';
import { ERROR_PORT, SAMPLE_A, seedCounters, testContext } from '../test-support.ts';
import { CounterBaseline, loaded, sweepWith } from './traffic.test-helper.ts';

const ctx = testContext({ IBWATCH_XMIT_WAIT_SWEEPS: '3', IBWATCH_TRAFFIC_RECENT_PORTS: '10' });
afterAll(() => ctx.cleanup());

const HOUR = 3_600_000;
// Mid-hour, so that the sweeps below share one hour.
const T0 = Math.floor(Date.now() / HOUR) * HOUR - 2 * HOUR + 60_000;
const portId = () =>
  ctx.db
    .prepare('SELECT id FROM ports WHERE node_guid = ? AND port_num = ?')
    .pluck()
    .get(ERROR_PORT.nodeGuid, ERROR_PORT.portNum) as number;

const sweep = (baseline: CounterBaseline, at: number, counters: PortCounters[]) =>
  sweepWith(ctx, baseline, at, counters);

const waitFindings = () =>
  createFindingsRepo(ctx.db)
    .active()
    .filter((f) => f.kind === 'port-xmit-wait' && f.clearedAt === null);

describe('storePm: traffic and XmitWait', () => {
  let base: PortCounters[];
  const baseline = () => shared;
  let shared: CounterBaseline;
  // 50 % of 4X NDR (50e9 B/s) for 60 s in 4-byte words; 2M XmitWait ticks/s (minor, not major).
  const words = (25_000_000_000n * 60n) / 4n;
  const ticks = 2_000_000n * 60n;

  beforeAll(async () => {
    const a = await ctx.scans.importIbdiagnet(SAMPLE_A, 'cli');
    expect(a.status).not.toBe('failed');
    base = (await seedCounters())[0];
    shared = new CounterBaseline(ctx.db);
  });

  it('opens the finding only after XmitWait stayed high for 3 sweeps, not on one spike', async () => {
    await sweep(baseline(), T0, base);
    for (let k = 1n; k <= 2n; k++) {
      await sweep(baseline(), T0 + Number(k) * 60_000, loaded(base, ERROR_PORT, words * k, ticks * k));
      expect(waitFindings()).toHaveLength(0);
    }
    const s = await sweep(baseline(), T0 + 180_000, loaded(base, ERROR_PORT, words * 3n, ticks * 3n));
    expect(s.summary).toMatchObject({ xmitWaitOpened: 1 });
    const f = waitFindings();
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ severity: 'minor', subjectKey: `port:${ERROR_PORT.nodeGuid}/${ERROR_PORT.portNum}` });
    expect(f[0]!.evidence).toMatchObject({ ticksPerSecond: 2_000_000, sweeps: 3 });
  });

  it('stores the hour: average and maximum utilisation in 0.01 % and XmitWait ticks/s', () => {
    const hours = createTrafficRepo(ctx.db).portHours(portId(), T0, T0 + 180_000);
    expect(hours).toHaveLength(1);
    // Three sweeps with traffic, the first without a previous one (not counted).
    expect(hours[0]).toMatchObject({ n: 3, txAvg: 5000, txMax: 5000, rxAvg: 2500, waitAvg: 2_000_000 });
  });

  it('keeps sweep resolution for the busy port only: no rows for ports without traffic', () => {
    const rows = ctx.db.prepare('SELECT DISTINCT port_id FROM traffic_recent').pluck().all();
    expect(rows).toEqual([portId()]);
    const recent = createTrafficRepo(ctx.db).recent(portId(), T0, T0 + 180_000);
    expect(recent.map((r) => r.txBps)).toEqual([25e9, 25e9, 25e9]);
  });

  it('continues the hour after a restart and clears the finding when the wait stops', async () => {
    // A new process: the hour's sums come back from the stored averages; the data counters' baseline
    // is not stored, so this sweep has no traffic, only XmitWait (still high: the finding stays).
    shared = new CounterBaseline(ctx.db);
    await sweep(baseline(), T0 + 240_000, loaded(base, ERROR_PORT, words * 4n, ticks * 4n));
    expect(waitFindings()).toHaveLength(1);
    await sweep(baseline(), T0 + 300_000, loaded(base, ERROR_PORT, words * 5n, ticks * 4n));
    expect(waitFindings()).toHaveLength(0);
    const [h] = createTrafficRepo(ctx.db).portHours(portId(), T0, T0);
    expect(h).toMatchObject({ n: 5, txMax: 5000 });
    // 4 sweeps at 50 % out of 5.
    expect(h!.txAvg).toBe(4000);
  });
});

describe('storeTraffic: arrays kept across sweeps', () => {
  it('gives /metrics what new arrays would, and leaves the last sweep’s rates as they were', async () => {
    // Another hour than the tests above, with a baseline of its own.
    const t1 = T0 - HOUR;
    const baseline = new CounterBaseline(ctx.db);
    const base = (await seedCounters())[0];
    const words = 1_000_000_000n;
    const other = base.find((p) => p.nodeGuid !== ERROR_PORT.nodeGuid || p.portNum !== ERROR_PORT.portNum)!;
    // Changed input every sweep: traffic grows, then a port is not read (fewer rows), then it is back.
    const sweeps = [
      base,
      loaded(base, ERROR_PORT, words, 1000n),
      loaded(base, ERROR_PORT, 3n * words, 1000n),
      loaded(base, ERROR_PORT, 4n * words, 5000n).filter((p) => p !== other),
      loaded(base, ERROR_PORT, 6n * words, 9000n),
    ];
    let prev: CounterTable | undefined;
    let held: { tx: Float64Array; copy: number[] } | undefined;
    for (let i = 0; i < sweeps.length; i++) {
      const at = t1 + i * 60_000;
      expect((await sweepWith(ctx, baseline, at, sweeps[i]!)).status).toBe('ok');
      const cur = latestSweep(ctx.db)!.table;
      if (held) expect(Array.from(held.tx)).toEqual(held.copy);
      if (prev) {
        // The full computation into new arrays: rates from the two sweeps' deltas over 60 s.
        const d = trafficDeltas(prev, cur);
        const t = latestTraffic(ctx.db)!;
        expect(t.table).toBe(cur);
        expect(t.txBps).toEqual(d.xmitWords.map((w) => (w * 4) / 60));
        expect(t.rxBps).toEqual(d.rcvWords.map((w) => (w * 4) / 60));
        expect(t.waitTps).toEqual(d.waitTicks.map((w) => w / 60));
        held = { tx: t.txBps, copy: Array.from(t.txBps) };
      }
      prev = baseline.load().table;
    }
    expect(held!.copy.some((v) => v > 0)).toBe(true);
  });
});
