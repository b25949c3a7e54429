/**
 * Topology replies for tests (not imported by the app), as objects (format 1's shape, easy to
 * read and edit); `indexOf` and `layoutOf` turn them into the columns the API sends first.
 * `fatTreeReply` is the fabric generator's tree (@ibwatch/fabric, the one the lab simulates).
 * `syntheticFabric` stays only for shapes the generator cannot make: spines cabled to single
 * leaves out of name order (barycentre test) and the real run's single spine with SHARP
 * Aggregation Nodes and an isolated switch (`ndrWithSharp`).
 */
import {
  generateFatTree,
  type FatTree,
  type LinkHealth,
  type Tier,
  type TopoLink,
  type TopoNode,
  topologyColumns,
  type TopologyObjects,
} from '../index.ts';
import { layoutTopology, type LayoutOptions, type TopoLayout } from './layout.ts';
import { indexTopology, type TopoIndex } from './model.ts';

/** The index the page builds from the reply the collector would send for `t`. */
export const indexOf = (t: TopologyObjects): TopoIndex => indexTopology(topologyColumns(t));

/** The layout the page draws for `t`. */
export const layoutOf = (t: TopologyObjects, opts?: LayoutOptions): TopoLayout => layoutTopology(indexOf(t), opts);

const guid = (prefix: number, i: number) =>
  `0x${prefix.toString(16).padStart(4, '0')}${i.toString(16).padStart(12, '0')}`;

export interface SynthOptions {
  hosts: number;
  rails: number;
  leavesPerRail: number;
  spines: number;
  cores: number;
  /** Total leaf→spine and spine→core links (each). */
  uplinks: number;
  /** Every n-th link gets a non-ok health (0 = all ok). */
  badEvery?: number;
}

export function syntheticFabric(o: SynthOptions): TopologyObjects {
  const nodes: TopoNode[] = [];
  const links: TopoLink[] = [];
  const sw = (tier: 'core' | 'spine' | 'leaf', i: number, prefix: number, rail: number | null): TopoNode => ({
    guid: guid(prefix, i),
    name: `${tier}-${String(i).padStart(3, '0')}`,
    type: 'switch',
    tier,
    rail,
    rack: `R${String(Math.floor(i / 8)).padStart(2, '0')}`,
    lid: prefix * 1000 + i,
    host: null,
  });
  const leaves: TopoNode[] = [];
  for (let r = 0; r < o.rails; r++)
    for (let j = 0; j < o.leavesPerRail; j++) leaves.push(sw('leaf', r * o.leavesPerRail + j, 3, r));
  const spines = Array.from({ length: o.spines }, (_, i) => sw('spine', i, 2, null));
  const cores = Array.from({ length: o.cores }, (_, i) => sw('core', i, 1, null));
  nodes.push(...cores, ...spines, ...leaves);
  const healths: LinkHealth[] = ['degraded', 'errors', 'down'];
  let id = 1;
  const link = (a: TopoNode, ap: number, b: TopoNode, bp: number, tier: TopoLink['tier']) => {
    const bad = o.badEvery ? id % o.badEvery === 0 : false;
    const health = bad ? healths[id % 3] : 'ok';
    links.push({
      id: id++,
      tier,
      health,
      a: { guid: a.guid, name: a.name, port: ap, lid: a.lid, rack: a.rack },
      b: { guid: b.guid, name: b.name, port: bp, lid: b.lid, rack: b.rack },
      widthActive: health === 'degraded' ? '1X' : '4X',
      speedActive: 'NDR',
      reason: bad ? `synthetic ${health}` : null,
    });
  };
  for (let h = 0; h < o.hosts; h++) {
    const host = `dgx-${String(h).padStart(4, '0')}`;
    for (let r = 0; r < o.rails; r++) {
      const hca: TopoNode = {
        guid: guid(4, h * o.rails + r),
        name: `${host} mlx5_${r}`,
        type: 'ca',
        tier: 'hca',
        rail: r,
        rack: `H${String(Math.floor(h / 4)).padStart(3, '0')}`,
        lid: null,
        host,
      };
      nodes.push(hca);
      const leaf = leaves[r * o.leavesPerRail + (h % o.leavesPerRail)];
      link(hca, 1, leaf, 1 + Math.floor(h / o.leavesPerRail), 'hca-leaf');
    }
  }
  for (let k = 0; k < o.uplinks; k++)
    link(
      leaves[k % leaves.length],
      33 + Math.floor(k / leaves.length),
      spines[(k * 7) % spines.length],
      1 + (k % 64),
      'leaf-spine',
    );
  if (cores.length)
    for (let k = 0; k < o.uplinks; k++)
      link(
        spines[k % spines.length],
        33 + Math.floor(k / spines.length),
        cores[(k * 3) % cores.length],
        1 + (k % 64),
        'spine-core',
      );
  return { generatedAt: Date.UTC(2026, 10, 29), nodes, links };
}

/**
 * The generator's smallest tree, for readable assertions: 2 hosts of 2 GPUs (radix 4, so 2 hosts
 * per SU) on 2 rail leaves, the management leaf with the 2 head nodes, 2 spines, no core.
 */
export function tinyFabric(): TopologyObjects {
  return fatTreeReply(generateFatTree({ gpus: 4, gpusPerNode: 2, radix: 4, tiers: 2 }));
}

/**
 * The shape of the real ndr-fat-tree-a run (packages/parsers/fixtures/ibdiagnet2-runs): one
 * spine, eight leaves, seven of them with their SHARP Aggregation Node on port 65 (tier
 * `aggregation`), 4 HCAs per leaf here instead of 32; plus an isolated switch (tier `unknown`).
 */
export function ndrWithSharp(): TopologyObjects {
  const reply = syntheticFabric({ hosts: 4, rails: 8, leavesPerRail: 1, spines: 1, cores: 0, uplinks: 8 });
  const leaves = reply.nodes.filter((n) => n.tier === 'leaf');
  let id = 10_000;
  leaves.slice(0, 7).forEach((leaf, i) => {
    const an: TopoNode = {
      guid: guid(5, i),
      name: 'Mellanox Technologies Aggregation Node',
      type: 'ca',
      tier: 'aggregation',
      rail: null,
      rack: null,
      lid: null,
      host: null,
    };
    reply.nodes.push(an);
    reply.links.push({
      id: id++,
      tier: 'other',
      health: 'ok',
      a: { guid: leaf.guid, name: leaf.name, port: 65, lid: leaf.lid, rack: leaf.rack },
      b: { guid: an.guid, name: an.name, port: 1, lid: null, rack: null },
      widthActive: '4X',
      speedActive: 'NDR',
      reason: null,
    });
  });
  reply.nodes.push({
    guid: guid(6, 0),
    name: 'spare-switch',
    type: 'switch',
    tier: 'unknown',
    rail: null,
    rack: null,
    lid: null,
    host: null,
  });
  return reply;
}

/**
 * The reply the collector would give for a generated fat-tree (`generateFatTree`): tiers from the
 * generator's roles, LIDs in ibsim order (switches first), every `badEvery`-th link not ok.
 */
export function fatTreeReply(t: FatTree, badEvery = 0): TopologyObjects {
  const tierOf: Record<FatTree['nodes'][number]['role'], Tier> = {
    leaf: 'leaf',
    spine: 'spine',
    core: 'core',
    'gpu-hca': 'hca',
    'head-hca': 'hca',
  };
  const nodes: TopoNode[] = t.nodes.map((n, i) => ({
    guid: n.guid,
    name: n.name,
    type: n.type === 'switch' ? 'switch' : 'ca',
    tier: tierOf[n.role],
    rail: n.rail ?? null,
    rack: n.rack,
    lid: i + 1,
    host: n.host ?? null,
  }));
  const byName = new Map(nodes.map((n) => [n.name, n]));
  const linkTier = (a: Tier, b: Tier): TopoLink['tier'] =>
    a === 'hca' ? 'hca-leaf' : a === 'leaf' && b === 'spine' ? 'leaf-spine' : a === 'spine' ? 'spine-core' : 'other';
  const healths: LinkHealth[] = ['degraded', 'errors', 'down'];
  const links: TopoLink[] = t.links.map((l, i) => {
    const a = byName.get(l.a.node)!;
    const b = byName.get(l.b.node)!;
    const id = i + 1;
    const health = badEvery && id % badEvery === 0 ? healths[id % 3] : 'ok';
    return {
      id,
      tier: linkTier(a.tier, b.tier),
      health,
      a: { guid: a.guid, name: a.name, port: l.a.port, lid: a.lid, rack: a.rack },
      b: { guid: b.guid, name: b.name, port: l.b.port, lid: b.lid, rack: b.rack },
      widthActive: health === 'degraded' ? '1X' : (l.width ?? t.width),
      speedActive: l.speed ?? t.speed,
      reason: health === 'ok' ? null : `generated ${health}`,
    };
  });
  return { generatedAt: Date.UTC(2026, 10, 29), nodes, links };
}
