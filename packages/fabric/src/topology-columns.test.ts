import { describe, expect, it } from 'vitest';
import type { TopoLink, TopoNode } from './api/topology.ts';
import { topoLink, topologyColumns, topologyObjects, topoNodeOrder } from './topology-columns.ts';

const node = (guid: string, name: string, tier: TopoNode['tier'], host: string | null = null): TopoNode => ({
  guid,
  name,
  type: tier === 'hca' || tier === 'aggregation' ? 'ca' : 'switch',
  tier,
  rail: tier === 'hca' ? 0 : null,
  rack: tier === 'hca' ? null : 'R1',
  lid: guid === '0xc' ? null : parseInt(guid.slice(2), 16),
  host,
});
const end = (n: TopoNode, port: number, lid = n.lid): TopoLink['a'] => ({
  guid: n.guid,
  name: n.name,
  port,
  lid,
  rack: n.rack,
});

const leaf10 = node('0x1', 'leaf-10', 'leaf');
const leaf2 = node('0x2', 'leaf-2', 'leaf');
const spine = node('0x3', 'spine-1', 'spine');
const hcaB = node('0xa', 'dgx-2 mlx5_0', 'hca', 'dgx-2');
const hcaA = node('0xb', 'dgx-10 mlx5_0', 'hca', 'dgx-10');
const hcaC = node('0xc', 'dgx-2 mlx5_1', 'hca', 'dgx-2');
const nodes = [hcaA, leaf10, hcaC, spine, hcaB, leaf2];
const link = (id: number, a: TopoLink['a'], b: TopoLink['b'], health: TopoLink['health'] = 'ok'): TopoLink => ({
  id,
  a,
  b,
  tier: a.guid === spine.guid || b.guid === spine.guid ? 'leaf-spine' : 'hca-leaf',
  health,
  widthActive: health === 'down' ? null : '4X',
  speedActive: health === 'down' ? null : 'NDR',
  reason: health === 'ok' ? null : `${health} "really"`,
});
// As the tools report them: a switch's external ports say LID 0, an HCA port has its own LID.
const links = [
  link(5, end(hcaA, 1, 41), end(leaf10, 3, 0)),
  link(7, end(hcaB, 1, 99), end(leaf2, 1, 0), 'errors'),
  link(9, end(leaf2, 40, 0), end(spine, 1, 0), 'down'),
  link(11, end(hcaC, 1), end(leaf2, 2, 0)),
  link(12, end(hcaA, 2, 42), end(leaf10, 4, 0)),
];

describe('topology columns (GET /api/topology, format 2)', () => {
  it('orders nodes by tier, then HCAs by host, then by name, naturally', () => {
    expect(topoNodeOrder(nodes).map((i) => nodes[i].name)).toEqual([
      'spine-1',
      'leaf-2',
      'leaf-10',
      'dgx-2 mlx5_0',
      'dgx-2 mlx5_1',
      'dgx-10 mlx5_0',
    ]);
  });

  it('gives back the same nodes and links as objects', () => {
    const reply = topologyColumns({ generatedAt: 7, nodes, links });
    expect(reply.format).toBe(2);
    const back = topologyObjects(reply);
    expect(back.generatedAt).toBe(7);
    expect(back.links).toEqual(links);
    expect(back.nodes).toEqual(topoNodeOrder(nodes).map((i) => nodes[i]));
    expect(topoLink(reply, 1)).toEqual(links[1]);
  });

  it('lists every link that is not ok in problems, and only LIDs that are not their node’s', () => {
    const reply = topologyColumns({ generatedAt: 0, nodes, links });
    expect(reply.problems).toEqual([
      [1, 'errors', 'errors "really"'],
      [2, 'down', 'down "really"'],
    ]);
    // Each node's end LID is the one most of its ends have; only the others are listed.
    expect(reply.nodes.endLid).toEqual([0, 0, 0, 99, null, 41]);
    expect(reply.endLids).toEqual([[4, 0, 42]]);
    // A link end is a node index: ends name their node once.
    expect(reply.links.a.map((i) => reply.nodes.name[i])).toEqual([
      'dgx-10 mlx5_0',
      'dgx-2 mlx5_0',
      'leaf-2',
      'dgx-2 mlx5_1',
      'dgx-10 mlx5_0',
    ]);
  });

  it('leaves out a link whose end is not a node (it has no index to send)', () => {
    const stray = link(13, end(hcaA, 2), { ...end(leaf2, 9), guid: '0xdead' });
    const reply = topologyColumns({ generatedAt: 0, nodes, links: [...links, stray] });
    expect(reply.links.id).toEqual([5, 7, 9, 11, 12]);
  });
});
