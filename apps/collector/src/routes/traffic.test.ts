import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { PortCounters, PortTrafficReply, TrafficHotReply } from '@ibwatch/fabric';
import { appOf, ERROR_PORT, SAMPLE_A, seedCounters, testContext } from '../test-support.ts';
import { CounterBaseline, loaded, sweepWith } from '../scans/traffic.test-helper.ts';
import { createTrafficRepo, HOUR_MS } from '../db/traffic-repo.ts';

const ctx = testContext({ IBWATCH_METRICS_PORTS: 'all' });
let app: FastifyInstance;
// A host port (HCA end of a leaf link) with a little traffic and lots of XmitWait.
let HOST: { nodeGuid: string; portNum: number };

beforeAll(async () => {
  await ctx.scans.importIbdiagnet(SAMPLE_A, 'cli');
  const base: PortCounters[] = (await seedCounters())[0];
  HOST = ctx.db
    .prepare(
      `SELECT p.node_guid AS nodeGuid, p.port_num AS portNum FROM ports p JOIN nodes n ON n.guid = p.node_guid
       WHERE n.type = 'ca' AND p.remote_guid IS NOT NULL AND p.width_active IS NOT NULL LIMIT 1`,
    )
    .get() as { nodeGuid: string; portNum: number };
  const b = new CounterBaseline(ctx.db);
  const now = Date.now();
  const at = (k: number) => now - (3 - k) * 60_000;
  // ERROR_PORT (a spine port): 50 % of 4X NDR; HOST: 1 % and 5M XmitWait ticks/s.
  const words = (25_000_000_000n * 60n) / 4n;
  for (let k = 0; k <= 3; k++) {
    const busy = loaded(base, ERROR_PORT, words * BigInt(k), 0n);
    await sweepWith(ctx, b, at(k), loaded(busy, HOST, (words * BigInt(k)) / 50n, 5_000_000n * 60n * BigInt(k)));
  }
  app = await appOf(ctx);
});
afterAll(async () => {
  await app?.close();
  ctx.cleanup();
});

describe('GET /api/traffic/hot', () => {
  it('lists the busiest link first by utilisation and the waiting one first by XmitWait, with both ends', async () => {
    const res = await app.inject({ url: '/api/traffic/hot?hours=1&limit=5' });
    expect(res.statusCode).toBe(200);
    const body = res.json<TrafficHotReply>();
    const top = body.byUtilisation[0]!;
    expect(top).toMatchObject({ guid: ERROR_PORT.nodeGuid, port: ERROR_PORT.portNum, tier: 'spine', linkGbps: 400 });
    expect(top.txAvgPct).toBeGreaterThan(30);
    expect(top.txMaxPct).toBe(50);
    expect(top.remote).not.toBeNull();
    expect(top.rate).toBe('4X NDR');
    const wait = body.byXmitWait[0]!;
    expect(wait).toMatchObject({ guid: HOST.nodeGuid, port: HOST.portNum, tier: 'hca', waitMaxTps: 5_000_000 });
    // An HCA's link goes up to its leaf: an uplink.
    expect(wait.uplink).toBe(true);
    expect(wait.remote?.tier).toBe('leaf');
    expect(body.byXmitWait.some((l) => l.guid === ERROR_PORT.nodeGuid)).toBe(false);
  });

  it('refuses a window beyond a week', async () => {
    expect((await app.inject({ url: '/api/traffic/hot?hours=169' })).statusCode).toBe(400);
  });
});

describe('GET /api/ports/:guid/:port/traffic', () => {
  it('gives sweep points for a busy port over the last hour, bytes/s and % of 400 Gb/s', async () => {
    const res = await app.inject({ url: `/api/ports/${ERROR_PORT.nodeGuid}/${ERROR_PORT.portNum}/traffic?range=1h` });
    expect(res.statusCode).toBe(200);
    const body = res.json<PortTrafficReply>();
    expect(body).toMatchObject({ range: '1h', resolution: 'sweep', linkGbps: 400 });
    expect(body.points.map((p) => p.txBps)).toEqual([25e9, 25e9, 25e9]);
    expect(body.points[0]).toMatchObject({ txPct: 50, rxPct: 25, waitTps: 0 });
  });

  it('gives hourly average and maximum beyond the sweep-resolution hours', async () => {
    const body = (
      await app.inject({ url: `/api/ports/${HOST.nodeGuid}/${HOST.portNum}/traffic?range=7d` })
    ).json<PortTrafficReply>();
    expect(body.resolution).toBe('hour');
    expect(body.points.length).toBeGreaterThanOrEqual(1);
    const last = body.points.at(-1)!;
    expect(last.waitMaxTps).toBe(5_000_000);
  });

  it('answers 404 for an unknown port', async () => {
    expect((await app.inject({ url: '/api/ports/0x1234/1/traffic' })).statusCode).toBe(404);
  });
});

describe('/metrics with IBWATCH_METRICS_PORTS=all', () => {
  it("exports the last sweep's traffic rates per port beside the raw counters", async () => {
    const body = (await app.inject({ url: '/metrics' })).body;
    const tx = body
      .split('\n')
      .find(
        (l) =>
          l.startsWith('ibwatch_port_transmit_bytes_per_second{') &&
          l.includes(`guid="${ERROR_PORT.nodeGuid}"`) &&
          l.includes(`port="${ERROR_PORT.portNum}"`),
      );
    expect(Number(tx?.split(' ').pop())).toBe(25e9);
    const wait = body
      .split('\n')
      .find(
        (l) =>
          l.startsWith('ibwatch_port_transmit_wait_ticks_per_second{') &&
          l.includes(`guid="${HOST.nodeGuid}"`) &&
          l.includes(`port="${HOST.portNum}"`),
      );
    expect(Number(wait?.split(' ').pop())).toBe(5_000_000);
  });
});

describe('a closed hour, packed (migration 0019)', () => {
  it('answers the same from a packed hour as from the plain one', async () => {
    const repo = createTrafficRepo(ctx.db);
    // The sweeps' hour, stored again as an hour three hours ago: a closed hour with real slots.
    const now = Date.now();
    const closed = (Math.floor(now / HOUR_MS) - 3) * HOUR_MS;
    const stored = [...repo.chunks(now - HOUR_MS, now)];
    const last = Math.max(...stored.map((c) => c.hour));
    const latest = stored.filter((c) => c.hour === last);
    expect(latest.length).toBeGreaterThan(0);
    repo.putChunks(closed, latest);
    const get = async (url: string) => (await app.inject({ url })).json<Record<string, unknown>>();
    const port = `/api/ports/${HOST.nodeGuid}/${HOST.portNum}/traffic?range=7d`;
    const busy = `/api/ports/${ERROR_PORT.nodeGuid}/${ERROR_PORT.portNum}/traffic?range=30d`;
    const hot = '/api/traffic/hot?hours=6&limit=50';
    const lists = (r: Record<string, unknown>) => [r.byUtilisation, r.byXmitWait];
    const plain = { port: await get(port), busy: await get(busy), hot: lists(await get(hot)) };
    expect((plain.port.points as { at: number }[]).some((p) => p.at === closed)).toBe(true);
    expect(repo.packClosed(Date.now(), 10)).toBeGreaterThanOrEqual(1);
    const count = (sql: string) =>
      ctx.db
        .prepare(sql)
        .pluck()
        .get(closed / HOUR_MS) as number;
    expect(count('SELECT COUNT(*) FROM traffic_hourly WHERE id >> 20 = ?')).toBe(0);
    expect(count('SELECT COUNT(*) FROM traffic_packed WHERE id >> 16 = ?')).toBeGreaterThan(0);
    expect({ port: await get(port), busy: await get(busy), hot: lists(await get(hot)) }).toEqual(plain);
  });
});
