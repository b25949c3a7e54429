import { describe, expect, it } from 'vitest';
import { blastRadius, impactIndex, type ImpactLink, type ImpactNode } from './blast-radius.ts';
import { generateFatTree } from './fat-tree/generate.ts';
import type { FatTree, FatTreeRole } from './fat-tree/model.ts';
import type { FatTreeOptions } from './fat-tree/generate.ts';
import { inferTopology, type FabricTier } from './topology.ts';
import type { PortRef } from './types.ts';

const TIER: Record<FatTreeRole, FabricTier> = {
  'gpu-hca': 'hca',
  'head-hca': 'hca',
  leaf: 'leaf',
  spine: 'spine',
  core: 'core',
};

/** A generated fat-tree as the collector stores it; `rates` overrides a link's rate by its A end. */
function lab(opts: FatTreeOptions, rates: Record<string, number> = {}) {
  const topo: FatTree = generateFatTree(opts);
  const guid = new Map(topo.nodes.map((n) => [n.name, n.guid]));
  const nodes: ImpactNode[] = topo.nodes.map((n) => ({
    guid: n.guid,
    type: n.type,
    description: n.name,
    tier: TIER[n.role],
  }));
  const links: ImpactLink[] = topo.links.map((l) => ({
    a: { nodeGuid: guid.get(l.a.node)!, portNum: l.a.port },
    b: { nodeGuid: guid.get(l.b.node)!, portNum: l.b.port },
    rateGbps: rates[`${l.a.node}/${l.a.port}`] ?? 200,
  }));
  const ref = (name: string, port: number): PortRef => ({ nodeGuid: guid.get(name)!, portNum: port });
  /** Both ends of the link on `name`'s port. */
  const cable = (name: string, port: number): PortRef[] => {
    const l = links.find((x) => [x.a, x.b].some((e) => e.nodeGuid === guid.get(name) && e.portNum === port))!;
    return [l.a, l.b];
  };
  return { topo, nodes, links, ref, cable };
}

describe('blastRadius() on the lab 256-GPU 2-tier fat-tree', () => {
  it('an HCA link: that host, one GPU, its rail', () => {
    const { nodes, links, cable, ref } = lab({ gpus: 256 });
    const index = impactIndex({ nodes, links }, { expectedGbps: 200 });
    const r = blastRadius(index, cable('dgx-0003 mlx5_2', 1));
    expect(r).toEqual({ kind: 'hca-link', hosts: ['dgx-0003'], gpus: 1, rails: [2], uplink: null, pods: [] });
    // A port finding whose peer is unknown (the HCA port is down) still names its host.
    expect(blastRadius(index, [ref('dgx-0017 mlx5_7', 1)])).toMatchObject({ hosts: ['dgx-0017'], rails: [7] });
  });

  it('GPUs per host is a setting: 4 GPUs on 8 HCAs is half a GPU, rounded', () => {
    const { nodes, links, cable } = lab({ gpus: 256 });
    const index = impactIndex({ nodes, links }, { expectedGbps: 200, gpusPerHost: 16 });
    expect(blastRadius(index, cable('dgx-0003 mlx5_2', 1)).gpus).toBe(2);
  });

  it('a leaf uplink down: 1/32 of the rail-2 leaf uplinks lost, the 32 hosts under it', () => {
    const { nodes, links, cable } = lab({ gpus: 256 }, { 'leaf-r2-01/33': 0 });
    const r = blastRadius(impactIndex({ nodes, links }, { expectedGbps: 200 }), cable('leaf-r2-01', 33));
    expect(r.kind).toBe('leaf-uplink');
    expect(r.hosts).toHaveLength(32);
    expect(r.hosts[0]).toBe('dgx-0001');
    expect(r.gpus).toBe(32);
    expect(r.rails).toEqual([2]);
    expect(r.uplink).toMatchObject({ switchName: 'leaf-r2-01', uplinks: 32, totalGbps: 6400, lostGbps: 200 });
    expect(r.uplink!.share).toBeCloseTo(1 / 32);
  });

  it('a leaf uplink at 2X: half its rate lost; the leaf share counts its other bad uplinks too', () => {
    const { nodes, links, cable } = lab({ gpus: 256 }, { 'leaf-r2-01/33': 100, 'leaf-r2-01/34': 0 });
    const r = blastRadius(impactIndex({ nodes, links }, { expectedGbps: 200 }), cable('leaf-r2-01', 33));
    expect(r.uplink!.lostGbps).toBe(100);
    expect(r.uplink!.share).toBeCloseTo(100 / 6400);
    expect(r.uplink!.switchShare).toBeCloseTo(300 / 6400);
  });

  it('a healthy-rate uplink with errors loses no bandwidth, but still names the hosts under the leaf', () => {
    const { nodes, links, cable } = lab({ gpus: 256 });
    const r = blastRadius(impactIndex({ nodes, links }), cable('leaf-mgmt-01', 33));
    expect(r.uplink!.lostGbps).toBe(0);
    expect(r.hosts).toEqual(['head-01', 'head-02']);
  });

  it('unknown nodes give an empty radius, never a throw', () => {
    const { nodes, links } = lab({ gpus: 256 });
    const r = blastRadius(impactIndex({ nodes, links }), [{ nodeGuid: '0xdead', portNum: 1 }]);
    expect(r).toMatchObject({ kind: 'unknown', hosts: [], gpus: 0 });
  });
});

describe('blastRadius() on a 3-tier fat-tree (radix 16, 5 pods)', () => {
  it('a spine–core link: the pods it joins, the hosts of the spine pod, the spine uplink share lost', () => {
    const { nodes, links, topo, cable } = lab({ gpus: 256, tiers: 3, radix: 16 }, { 'spine-p1-01/9': 0 });
    const core = topo.links.find((l) => l.a.node === 'spine-p1-01' && l.a.port === 9)!.b.node;
    const r = blastRadius(impactIndex({ nodes, links }, { expectedGbps: 200 }), cable('spine-p1-01', 9));
    expect(core).toMatch(/^core-/);
    expect(r.kind).toBe('spine-core');
    expect(r.pods).toEqual(['leaf-r0-01', 'leaf-mgmt-01', 'leaf-r0-02', 'leaf-r0-03', 'leaf-r0-04']);
    expect(r.hosts).toEqual([
      'dgx-0001',
      'dgx-0002',
      'dgx-0003',
      'dgx-0004',
      'dgx-0005',
      'dgx-0006',
      'dgx-0007',
      'dgx-0008',
    ]);
    expect(r.gpus).toBe(64);
    expect(r.rails).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(r.uplink).toMatchObject({ switchName: 'spine-p1-01', uplinks: 8, lostGbps: 200, share: 0.125 });
  });

  it('a leaf uplink in pod 2 names only that SU', () => {
    const { nodes, links, cable } = lab({ gpus: 256, tiers: 3, radix: 16 });
    const r = blastRadius(impactIndex({ nodes, links }), cable('leaf-r5-02', 9));
    expect(r.hosts).toEqual([
      'dgx-0009',
      'dgx-0010',
      'dgx-0011',
      'dgx-0012',
      'dgx-0013',
      'dgx-0014',
      'dgx-0015',
      'dgx-0016',
    ]);
    expect(r.rails).toEqual([5]);
  });

  it('a custom rail pattern reads rails from other descriptions', () => {
    const nodes: ImpactNode[] = [
      { guid: '0x1', type: 'ca', description: 'gpu07 HCA-3', tier: 'hca' },
      { guid: '0x2', type: 'switch', description: 'leaf', tier: 'leaf' },
    ];
    const links: ImpactLink[] = [
      { a: { nodeGuid: '0x1', portNum: 1 }, b: { nodeGuid: '0x2', portNum: 1 }, rateGbps: 400 },
    ];
    const index = impactIndex({ nodes, links }, { railPattern: /HCA-(\d+)$/ });
    expect(blastRadius(index, [links[0]!.a, links[0]!.b])).toMatchObject({ hosts: ['gpu07'], rails: [3], gpus: 8 });
  });
});

describe('blastRadius() with tiers inferred from the graph, as the collector stores them', () => {
  it('gives the same radius as the generator roles on the 3-tier tree', () => {
    const { topo, nodes, links, cable } = lab({ gpus: 256, tiers: 3, radix: 16 }, { 'spine-p2-03/10': 0 });
    const { tiers } = inferTopology({
      nodes: topo.nodes.map((n) => ({ guid: n.guid, type: n.type, description: n.name, numPorts: n.numPorts })),
      links,
    });
    const inferred = nodes.map((n) => ({ ...n, tier: tiers.get(n.guid) ?? null }));
    expect(inferred.filter((n) => n.tier !== nodes.find((x) => x.guid === n.guid)!.tier)).toEqual([]);
    const r = blastRadius(impactIndex({ nodes: inferred, links }, { expectedGbps: 200 }), cable('spine-p2-03', 10));
    expect(r).toMatchObject({ kind: 'spine-core', gpus: 64, uplink: { switchName: 'spine-p2-03', share: 0.125 } });
    expect(r.hosts[0]).toBe('dgx-0009');
    expect(r.pods[0]).toBe('leaf-r0-02');
  });
});
