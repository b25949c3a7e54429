/**
 * Integration: traffic and congestion on a live 256-GPU, 3-tier lab. A leaf->spine uplink gets
 * 150 Gb/s (of 4X HDR's 200) and 20M PortXmitWait ticks/s through the lab's traffic fault before
 * each PM sweep; the real sweeps (ibqueryerrors on ibsim) must put it on top of /api/traffic/hot,
 * flagged as an uplink, chart it on its port's traffic endpoint, and open the sustained
 * XmitWait finding after IBWATCH_XMIT_WAIT_SWEEPS sweeps (3), not before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FindingRow, PortTrafficReply, TrafficHotReply } from '@ibwatch/fabric';
import { addTraffic } from '@ibwatch/lab';
import { startHarness, type Harness, type Port } from './lab-harness.ts';

let h: Harness;
let up: Port;

beforeAll(async () => {
  h = await startHarness();
}, 60_000);

afterAll(async () => {
  await h?.close();
}, 30_000);

const waitFindings = async () =>
  (await h.get<FindingRow[]>('/api/findings?state=current&limit=10000')).filter(
    (f) => f.kind === 'port-xmit-wait' && f.clearedAt === null,
  );

describe('traffic on a live lab', () => {
  it('puts a loaded, waiting uplink on top of the hot links and opens the congestion finding', async () => {
    expect((await h.scan('topology')).status).not.toBe('failed');
    // A sweep's rates are over the time between the sweeps' starts: traffic is added for that long.
    let last = Date.now();
    expect((await h.scan('pm')).status).not.toBe('failed');
    up = h.port('leaf-r0-01', 33);
    expect(h.peer(up).node).toMatch(/^spine/);
    for (let k = 1; k <= 3; k++) {
      // Writing the counters takes a second or two of the interval too: measured after them.
      await addTraffic(h.lab, up, { gbps: 150, waitTps: 20_000_000, seconds: (Date.now() - last) / 1000 + 2 });
      last = Date.now();
      const row = await h.scan('pm');
      expect(row.status, row.error ?? '').not.toBe('failed');
      if (k < 3) expect(await waitFindings()).toEqual([]);
    }
    const hot = await h.get<TrafficHotReply>('/api/traffic/hot?hours=1&limit=5');
    const top = hot.byUtilisation[0]!;
    expect(`${top.guid}/${top.port}`).toBe(up.key);
    expect(top).toMatchObject({ tier: 'leaf', uplink: true, rate: '4X HDR' });
    expect(top.remote?.tier).toBe('spine');
    expect(top.txMaxPct).toBeGreaterThan(40);
    expect(`${hot.byXmitWait[0]!.guid}/${hot.byXmitWait[0]!.port}`).toBe(up.key);

    const [guid, port] = up.key.split('/');
    const series = await h.get<PortTrafficReply>(`/api/ports/${guid}/${port}/traffic?range=1h`);
    expect(series.resolution).toBe('sweep');
    expect(series.points.length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...series.points.map((p) => p.waitTps))).toBeGreaterThan(1_000_000);

    const f = await waitFindings();
    expect(f.map((x) => x.subjectKey)).toEqual([`port:${up.key}`]);
  }, 180_000);

  it('clears the finding once the port stops waiting', async () => {
    await addTraffic(h.lab, up, { gbps: 10, waitTps: 0, seconds: 5 });
    const row = await h.scan('pm');
    expect(row.status).not.toBe('failed');
    expect(await waitFindings()).toEqual([]);
  }, 60_000);
});
