import { describe, expect, it } from 'vitest';
import type { CounterHistoryReply, PortDetailReply, PortsReply } from '@ibwatch/fabric';
import { ERROR_PORT, useSeededApp } from '../test-support.ts';

const fx = useSeededApp();
const get = async <T>(url: string) => {
  const r = await fx.app.inject(url);
  expect(r.statusCode, r.body).toBe(200);
  return r.json<T>();
};
const SPINE = ERROR_PORT.nodeGuid;

describe('GET /api/ports', () => {
  it('paginates: total counts every port, items hold one page', async () => {
    const all = await get<PortsReply>('/api/ports?limit=1000');
    const page = await get<PortsReply>('/api/ports?limit=10&offset=10');
    expect(all.total).toBe(fx.ctx.db.prepare('SELECT COUNT(*) FROM ports WHERE port_num > 0').pluck().get());
    expect(page.total).toBe(all.total);
    expect(page.items).toHaveLength(10);
    expect(page.items.map((p) => `${p.guid}/${p.port}`)).toEqual(
      all.items.slice(10, 20).map((p) => `${p.guid}/${p.port}`),
    );
  });

  it('filters by state and by a name fragment', async () => {
    const active = await get<PortsReply>('/api/ports?state=Active&limit=1000');
    expect(active.items.every((p) => p.state === 'Active')).toBe(true);
    const spine = await get<PortsReply>('/api/ports?q=sequoia&limit=1000');
    expect(spine.total).toBeGreaterThan(0);
    expect(spine.items.every((p) => p.name.includes('sequoia'))).toBe(true);
  });

  it('finds an HCA port by its LID, and the ports of a switch by the switch LID (kept on port 0)', async () => {
    const hca = await get<PortsReply>('/api/ports?q=181');
    expect(hca.items.map((p) => [p.guid, p.lid])).toEqual([['0x5c257303009ab1c0', 181]]);
    const sw = await get<PortsReply>('/api/ports?q=180&limit=1000');
    const spinePorts = fx.ctx.db
      .prepare('SELECT COUNT(*) FROM ports WHERE node_guid = ? AND port_num > 0')
      .pluck()
      .get(SPINE);
    // "180" also matches GUIDs and descriptions containing it; every spine port must be among them.
    expect(sw.items.filter((p) => p.guid === SPINE)).toHaveLength(spinePorts as number);
  });

  it('sorts by LID', async () => {
    const lids = (await get<PortsReply>('/api/ports?sort=lid&state=Active&limit=200')).items.map((p) => p.lid ?? -1);
    expect(lids).toEqual([...lids].sort((a, b) => a - b));
  });

  it('counts open findings per port and sorts the ports with findings first on -findings', async () => {
    const r = await get<PortsReply>('/api/ports?sort=-findings&limit=20');
    const errorPort = r.items.find((p) => p.guid === SPINE && p.port === ERROR_PORT.portNum);
    expect(errorPort?.openFindings).toBe(2);
    const counts = r.items.map((p) => p.openFindings);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    expect(counts[0]).toBeGreaterThan(0);
    // `findings` without the minus is ascending, like every other key (the list's ▲ said so
    // while the API sorted the most findings first).
    const asc = (await get<PortsReply>('/api/ports?sort=findings&limit=20')).items.map((p) => p.openFindings);
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
    expect(asc[0]).toBe(0);
    // Port 3 must not inherit the findings of ports 30-36 or the other way round.
    const p30 = (await get<PortsReply>(`/api/ports?q=${SPINE}&limit=1000`)).items.find((p) => p.port === 30);
    expect(p30?.openFindings ?? 0).toBe(0);
  });

  it.each(['limit=0', 'limit=5000', 'offset=-1', 'sort=guid', 'state=Up'])('refuses ?%s with 400', async (q) => {
    const r = await fx.app.inject(`/api/ports?${q}`);
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ statusCode: 400, message: expect.any(String) });
  });
});

describe('GET /api/ports/:guid/:port', () => {
  it('returns the port with its remote end, rates and findings', async () => {
    const r = await get<PortDetailReply>(`/api/ports/${SPINE}/${ERROR_PORT.portNum}`);
    expect(r.port).toMatchObject({ guid: SPINE, port: ERROR_PORT.portNum, state: 'Active', openFindings: 2 });
    expect(r.port.remote).not.toBeNull();
    expect(r.expected).toEqual({ width: '4X', speed: 'NDR' });
    expect(r.findings.map((f) => f.kind).sort()).toEqual(['link-error-recovery', 'symbol-errors']);
  });

  it('canonicalises the GUID (upper case, no leading zeros)', async () => {
    const r = await get<PortDetailReply>(`/api/ports/0x${SPINE.slice(2).toUpperCase()}/${ERROR_PORT.portNum}`);
    expect(r.port.guid).toBe(SPINE);
  });

  it('does not list findings of port 30-39 on port 3', async () => {
    const r = await get<PortDetailReply>(`/api/ports/${SPINE}/5`);
    expect(r.findings.every((f) => f.subjectKey.includes(`${SPINE}/5`))).toBe(true);
    const r3 = await get<PortDetailReply>(`/api/ports/${SPINE}/${ERROR_PORT.portNum}`);
    expect(r3.findings.every((f) => !f.subjectKey.includes(`${SPINE}/5`))).toBe(true);
  });

  it('answers 404 for an unknown port and 400 for a malformed GUID', async () => {
    const r = await fx.app.inject('/api/ports/0x0000000000000001/1');
    expect(r.statusCode).toBe(404);
    expect(r.json().message).toBe('no port 0x0000000000000001 1');
    expect((await fx.app.inject('/api/ports/not-a-guid/1')).statusCode).toBe(400);
    expect((await fx.app.inject(`/api/ports/${SPINE}/256`)).statusCode).toBe(400);
  });
});

describe('GET /api/ports/:guid/:port/counters', () => {
  it('returns the per-sweep error deltas of the last 24 h with thresholds', async () => {
    const r = await get<CounterHistoryReply>(`/api/ports/${SPINE}/${ERROR_PORT.portNum}/counters`);
    expect(r).toMatchObject({ range: '24h', resolution: 'sweep' });
    const sym = r.points.find((p) => p.counter === 'SymbolErrorCounter');
    expect(sym).toMatchObject({ delta: 500 });
    expect(sym!.rate).toBeCloseTo(500 / 60, 1);
    expect(r.thresholds.SymbolErrorCounter).toBeGreaterThan(0);
  });

  it('returns hourly rollups for 7 days', async () => {
    const r = await get<CounterHistoryReply>(`/api/ports/${SPINE}/${ERROR_PORT.portNum}/counters?range=7d`);
    expect(r.resolution).toBe('hour');
    expect(r.points.some((p) => p.counter === 'SymbolErrorCounter' && p.delta === 500)).toBe(true);
  });

  it('refuses an unknown range with 400 and an unknown port with 404', async () => {
    expect((await fx.app.inject(`/api/ports/${SPINE}/3/counters?range=2h`)).statusCode).toBe(400);
    expect((await fx.app.inject('/api/ports/0x0000000000000001/1/counters')).statusCode).toBe(404);
  });
});
