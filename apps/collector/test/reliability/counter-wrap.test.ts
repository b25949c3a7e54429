// Counter resets and 32-bit wraps mid-series, stored through the real pipeline (runPipeline +
// storePm + CounterBaseline) and read back through /api/ports/:guid/:port/counters: no
// negative delta, no 2^32 spike. The arithmetic itself is unit-tested in packages/fabric.
import { afterAll, describe, expect, it } from 'vitest';
import { fatTreeSnapshot, generateFatTree, type PortCounters } from '@ibwatch/fabric';
import { buildApp } from '../../src/app.ts';
import { createContext } from '../../src/context.ts';
import { runPipeline } from '../../src/scans/pipeline.ts';
import { storeTopology } from '../../src/scans/topology-store.ts';
import { storePm } from '../../src/scans/pm-store.ts';
import { CounterBaseline } from '../../src/scans/counter-baseline.ts';
import { cleanupTemp, tempDir, testConfig } from './support.ts';

afterAll(cleanupTemp);

const W32 = 2n ** 32n;
// Sweeps one minute apart: [SymbolErrorCounter, PortXmitWait, PortXmitData].
const SERIES: [bigint, bigint, bigint][] = [
  [0n, W32 - 7295n, W32 - 9000n],
  [10n, W32 - 295n, W32 - 1000n], // +10, +7000
  [20n, 200n, 300n], // +10, 32-bit wrap of PortXmitWait: +495 (294 to the top, 1 to wrap, 200)
  [5n, 900n, 900n], // the port was cleared (perfquery -R): +5 since the reset, +700
  [15n, 1000n, 1000n], // +10, +100
];

describe('counter resets and wraps through the collector', () => {
  it('store no negative delta and no spike; the API shows the real increases', async () => {
    const ctx = createContext(testConfig(tempDir('wrap')));
    const { db, config, names } = ctx;
    const t = fatTreeSnapshot(generateFatTree({ gpus: 8, tiers: 2 }));
    await runPipeline(
      db,
      'topology',
      'cli',
      async () => ({ data: t, raw: [], toolVersions: {}, warnings: [] }),
      (id, at, c) => storeTopology(db, config, names, id, at, c.data),
    );
    const port = t.links[0]!.a;
    const baseline = new CounterBaseline(db);
    const t0 = Date.now() - SERIES.length * 60_000;
    for (const [k, [sec, wait, data]] of SERIES.entries()) {
      const at = t0 + k * 60_000;
      const sweep: PortCounters[] = [
        {
          ...port,
          counters: { SymbolErrorCounter: sec, PortXmitWait: wait, PortXmitData: data, LinkDownedCounter: 0n },
        },
      ];
      const row = await runPipeline(
        db,
        'pm',
        'schedule',
        async () => ({ data: sweep, raw: [], toolVersions: {}, warnings: [] }),
        (id, when, c) => storePm(db, config, names, baseline, id, when, c.data),
        () => at,
      );
      expect(row.status).toBe('ok');
      baseline.commit();
    }
    expect(db.prepare('SELECT COUNT(*) FROM counter_deltas WHERE delta <= 0').pluck().get()).toBe(0);

    const app = await buildApp(ctx);
    const res = await app.inject(`/api/ports/${port.nodeGuid}/${port.portNum}/counters?range=1h`);
    expect(res.statusCode).toBe(200);
    const points = (res.json() as { points: { counter: string; delta: number; rate: number }[] }).points;
    const of = (c: string) => points.filter((p) => p.counter === c).map((p) => p.delta);
    expect(of('SymbolErrorCounter')).toEqual([10, 10, 5, 10]);
    expect(of('PortXmitWait')).toEqual([7000, 495, 700, 100]);
    // Traffic counters are not stored per sweep, so a data-counter wrap cannot show up as a spike.
    expect(of('PortXmitData')).toEqual([]);
    for (const p of points) {
      expect(p.delta).toBeGreaterThan(0);
      expect(p.rate).toBeLessThan(200);
    }
    await app.close();
  });
});
