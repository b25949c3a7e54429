import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type {
  CounterHistoryReply,
  FabricLink,
  FabricNode,
  FabricPort,
  PortDetailReply,
  PortsReply,
} from '@ibwatch/fabric';
import { appOf, testContext } from '../test-support.ts';
import { runPipeline } from '../scans/pipeline.ts';
import { storeTopology, type TopologyInput } from '../scans/topology-store.ts';

// A leaf with two cabled hosts and two spare ports, scanned twice: in the second scan the cable
// of host H2 went dark, so ibnetdiscover no longer reaches H2 at all (what `Unlink` in the lab,
// or a pulled cable, does): the leaf's port 2 is Down/Polling and H2's port is simply absent.
const LEAF = '0xfc6a1c0301000001';
const H1 = '0xb83fd20300000100';
const H2 = '0xb83fd20300000200';
const T0 = Date.now() - 3_600_000;
const T1 = Date.now() - 60_000;

const node = (guid: string, type: FabricNode['type'], description: string, numPorts: number): FabricNode => ({
  guid,
  type,
  description,
  numPorts,
});
const up = (nodeGuid: string, portNum: number): FabricPort => ({
  nodeGuid,
  portNum,
  state: 'Active',
  physState: 'LinkUp',
  widthActive: '4X',
  speedActive: 'HDR',
});
const dark = (nodeGuid: string, portNum: number): FabricPort => ({
  nodeGuid,
  portNum,
  state: 'Down',
  physState: 'Polling',
});
const link = (a: string, ap: number, b: string, bp: number): FabricLink => ({
  a: { nodeGuid: a, portNum: ap },
  b: { nodeGuid: b, portNum: bp },
});

const before: TopologyInput = {
  nodes: [
    node(LEAF, 'switch', 'leaf-r0-01', 4),
    node(H1, 'ca', 'dgx-0001 mlx5_0', 1),
    node(H2, 'ca', 'dgx-0002 mlx5_0', 1),
  ],
  ports: [up(LEAF, 1), up(LEAF, 2), dark(LEAF, 3), dark(LEAF, 4), up(H1, 1), up(H2, 1)],
  links: [link(H1, 1, LEAF, 1), link(H2, 1, LEAF, 2)],
};
const after: TopologyInput = {
  nodes: before.nodes.slice(0, 2),
  ports: [up(LEAF, 1), dark(LEAF, 2), dark(LEAF, 3), dark(LEAF, 4), up(H1, 1)],
  links: [link(H1, 1, LEAF, 1)],
};

const ctx = testContext();
let app: FastifyInstance;
const topologyScan = (at: number, input: TopologyInput) =>
  runPipeline(
    ctx.db,
    'topology',
    'cli',
    async () => ({ data: input, raw: [], toolVersions: {}, warnings: [] }),
    (id, t, c) => storeTopology(ctx.db, ctx.config, ctx.names, id, t, c.data),
    () => at,
  );

beforeAll(async () => {
  expect((await topologyScan(T0, before)).status).toBe('ok');
  expect((await topologyScan(T1, after)).status).toBe('ok');
  app = await appOf(ctx);
});
afterAll(async () => {
  await app.close();
  ctx.cleanup();
});

const get = async <T>(url: string) => {
  const r = await app.inject(url);
  expect(r.statusCode, r.body).toBe(200);
  return r.json<T>();
};
const keys = (r: PortsReply) => r.items.map((p) => `${p.name}/${p.port}`);

describe('ports of a link that went dark', () => {
  it('marks the unreachable HCA port stale: its Active is as of the scan that last saw it', async () => {
    const { port } = await get<PortDetailReply>(`/api/ports/${H2}/1`);
    expect(port).toMatchObject({ state: 'Active', stale: true, lastSeen: T0, unused: false });
    const { port: seen } = await get<PortDetailReply>(`/api/ports/${H1}/1`);
    expect(seen).toMatchObject({ state: 'Active', stale: false, lastSeen: T1 });
  });

  it('keeps the last known remote end of the switch port whose cable went dark', async () => {
    const { port } = await get<PortDetailReply>(`/api/ports/${LEAF}/2`);
    expect(port).toMatchObject({ state: 'Down', physState: 'Polling', remote: null, stale: false, unused: false });
    expect(port.lastRemote).toMatchObject({ guid: H2, name: 'dgx-0002 mlx5_0', port: 1, lastSeen: T0 });
    const { port: cabled } = await get<PortDetailReply>(`/api/ports/${LEAF}/1`);
    expect(cabled.remote).toMatchObject({ guid: H1, port: 1 });
    expect(cabled.lastRemote).toBeNull();
  });

  it('tells a link that went Down from a port never cabled (Unused)', async () => {
    expect(keys(await get<PortsReply>('/api/ports?state=Down'))).toEqual(['leaf-r0-01/2']);
    const unused = await get<PortsReply>('/api/ports?state=Unused');
    expect(keys(unused)).toEqual(['leaf-r0-01/3', 'leaf-r0-01/4']);
    expect(unused.items.every((p) => p.unused && p.state === 'Down' && p.lastRemote === null)).toBe(true);
    const all = await get<PortsReply>('/api/ports?limit=100');
    expect(all.items.filter((p) => p.unused).map((p) => `${p.name}/${p.port}`)).toEqual(keys(unused));
  });

  it('starts the counter history at the port’s first observation, not at the range start', async () => {
    const h = await get<CounterHistoryReply>(`/api/ports/${H1}/1/counters?range=24h`);
    expect(h.observedFrom).toBe(T0);
    const hour = await get<CounterHistoryReply>(`/api/ports/${H1}/1/counters?range=1h`);
    // The port is older than the hour: the range start it is (give or take the request's clock).
    expect(hour.observedFrom).toBeGreaterThan(T0);
    expect(hour.observedFrom).toBeGreaterThanOrEqual(Date.now() - 3_600_000 - 5_000);
  });
});

describe('sorting ports', () => {
  it('sorts ascending by a key and descending by -key, last seen included', async () => {
    const asc = (await get<PortsReply>('/api/ports?sort=lastSeen')).items.map((p) => p.lastSeen);
    const desc = (await get<PortsReply>('/api/ports?sort=-lastSeen')).items.map((p) => p.lastSeen);
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
    expect(desc).toEqual([...asc].sort((a, b) => b - a));
    expect(asc[0]).toBe(T0);
  });
});
