import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PortCounters, WatchReply } from '@ibwatch/fabric';
import { appOf, ERROR_PORT, pmSweep, SAMPLE_A, seedCounters, testContext, withErrors } from '../test-support.ts';
import { bucketRates, watchList } from './watch.ts';

const H = 3_600_000;

describe('bucketRates', () => {
  it('divides each bucket by the time its sweeps covered and counts sweeps without a delta as zero', () => {
    const sweeps = [0, 1, 2, 3, 4].map((h) => ({ id: h + 1, at: h * H + 1000 }));
    // Scan 3 stored no delta (sparse): its hour is a zero point, not a missing one.
    const deltas = [
      { portId: 9, counter: 'SymbolErrorCounter', scanId: 2, delta: 10 },
      { portId: 9, counter: 'SymbolErrorCounter', scanId: 4, delta: 30 },
      { portId: 9, counter: 'SymbolErrorCounter', scanId: 5, delta: 40 },
    ];
    const s = bucketRates(sweeps, deltas, 0, H).get('9|SymbolErrorCounter')!;
    expect(s.points.map((p) => p.perHour)).toEqual([10, 0, 30, 40]);
    expect(s.points.map((p) => p.at)).toEqual([1.5 * H, 2.5 * H, 3.5 * H, 4.5 * H]);
  });

  it('gives a bucket with two half-hour sweeps the rate per hour of their sum', () => {
    const sweeps = [0, 0.5, 1].map((h, i) => ({ id: i + 1, at: h * H }));
    const deltas = [
      { portId: 1, counter: 'PortRcvErrors', scanId: 2, delta: 5 },
      { portId: 1, counter: 'PortRcvErrors', scanId: 3, delta: 7 },
    ];
    const s = bucketRates(sweeps, deltas, 0, 2 * H).get('1|PortRcvErrors')!;
    expect(s.points).toEqual([{ at: H, perHour: 12 }]);
  });
});

describe('watchList on stored sweeps', () => {
  const ctx = testContext();
  const OTHER = { nodeGuid: ERROR_PORT.nodeGuid, portNum: 4 };
  let base: PortCounters[];
  let t0: number;
  const sweeps: number[] = [];

  beforeAll(async () => {
    const a = await ctx.scans.importIbdiagnet(SAMPLE_A, 'cli');
    if (a.status === 'failed') throw new Error(a.error ?? 'import failed');
    [base] = await seedCounters();
    t0 = Date.now() + H;
    // Hourly sweeps: ERROR_PORT's symbol errors ramp 100, 200, ... 800 an hour (major at NDR 4X
    // is 1440/h); OTHER's stay at a flat 50 an hour.
    let sym = 0n;
    let flat = 0n;
    for (let i = 0; i <= 8; i++) {
      if (i > 0) {
        sym += BigInt(100 * i);
        flat += 50n;
      }
      const c = withErrors(withErrors(base, ERROR_PORT, 'SymbolErrorCounter', sym), OTHER, 'SymbolErrorCounter', flat);
      const at = t0 + i * H;
      await pmSweep(ctx, at, c);
      sweeps.push(at);
    }
  });
  afterAll(() => ctx.cleanup());

  it('lists the ramping port with its slope and projected crossing, and not the flat one', () => {
    const now = sweeps.at(-1)! + 60_000;
    const w = watchList(ctx.db, ctx.config, ctx.names, now);
    const keys = w.entries.map((e) => `${e.portKey} ${e.counter}`);
    expect(keys).toContain(`${ERROR_PORT.nodeGuid}/${ERROR_PORT.portNum} SymbolErrorCounter`);
    expect(keys.filter((k) => k.startsWith(`${OTHER.nodeGuid}/${OTHER.portNum} `))).toEqual([]);
    const e = w.entries.find((x) => x.portKey === `${ERROR_PORT.nodeGuid}/${ERROR_PORT.portNum}`)!;
    expect(e.slopePerHourPerHour).toBeGreaterThan(90);
    expect(e.slopePerHourPerHour).toBeLessThan(110);
    expect(e.rateNowPerHour).toBeCloseTo(800, 0);
    expect(e.thresholdPerHour).toBeCloseTo(1440, 6);
    // About (1440 - ~850) / 100 ≈ 6 h after now.
    expect((e.projectedCrossAt - now) / H).toBeGreaterThan(4);
    expect((e.projectedCrossAt - now) / H).toBeLessThan(8);
    expect(e.remote).not.toBeNull();
    // 800/h is over the minor threshold (14.4/h): the port has a minor finding, and is on watch for major.
    expect(e.finding).toBe('minor');
    expect(e.series.length).toBeGreaterThanOrEqual(8);
  });

  it('drops the port once its rate is over the major threshold (a finding has it then)', async () => {
    const c = withErrors(base, ERROR_PORT, 'SymbolErrorCounter', BigInt(100 * 36 + 5000));
    const at = sweeps.at(-1)! + H;
    await pmSweep(ctx, at, withErrors(c, OTHER, 'SymbolErrorCounter', 400n));
    const w = watchList(ctx.db, ctx.config, ctx.names, at + 60_000);
    expect(w.entries.map((e) => e.portKey)).not.toContain(`${ERROR_PORT.nodeGuid}/${ERROR_PORT.portNum}`);
  });

  it('serves the list at GET /api/watch in the reply schema', async () => {
    const app = await appOf(ctx);
    const r = await app.inject({ method: 'GET', url: '/api/watch' });
    expect(r.statusCode).toBe(200);
    const body = r.json() as WatchReply;
    expect(body.method).toBe('theil-sen');
    expect(body.windowHours).toBe(72);
    expect(Array.isArray(body.entries)).toBe(true);
    await app.close();
  });
});
