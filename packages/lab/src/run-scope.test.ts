// The nccl run scope (packages/fabric nccl-scope.ts) on the lab's generated fat-trees: what an
// nccl-tests run on some of its hosts touches, with tiers inferred from the graph as the
// collector stores them.
import { describe, expect, it } from 'vitest';
import { inferTopology, runFabricScope, type ScopeGraph } from '@ibwatch/fabric';
import { generateTopology } from './generator.ts';
import type { Topology } from './topology.ts';

function scopeGraph(t: Topology): ScopeGraph {
  const guid = new Map(t.nodes.map((n) => [n.name, n.guid]));
  const nodes = t.nodes.map((n) => ({ guid: n.guid, type: n.type, description: n.name, numPorts: n.numPorts }));
  const links = t.links.map((l) => ({
    a: { nodeGuid: guid.get(l.a.node)!, portNum: l.a.port },
    b: { nodeGuid: guid.get(l.b.node)!, portNum: l.b.port },
  }));
  const { tiers } = inferTopology({ nodes, links });
  return { nodes: nodes.map((n) => ({ ...n, tier: tiers.get(n.guid) ?? null })), links };
}

/** Host -> pod of its HCAs' leaves (every rail of a lab host sits in one pod when it has several SUs). */
function leafPods(t: Topology): Map<string, number | undefined> {
  const byName = new Map(t.nodes.map((n) => [n.name, n]));
  const out = new Map<string, number | undefined>();
  for (const l of t.links) {
    const hca = byName.get(l.a.node)!;
    if (hca.role === 'gpu-hca') out.set(hca.host!, byName.get(l.b.node)!.pod);
  }
  return out;
}

const named = (t: Topology, guids: Set<string>, role: string) =>
  t.nodes.filter((n) => guids.has(n.guid) && n.role === role).map((n) => n.name);

describe('runFabricScope() on the lab fabric', () => {
  const t = generateTopology({ gpus: 256, tiers: 3 });
  const g = scopeGraph(t);
  const hostsOf = (pred: (n: Topology['nodes'][number]) => boolean) => [
    ...new Set(t.nodes.filter((n) => n.role === 'gpu-hca' && pred(n)).map((n) => n.host!)),
  ];

  it('a run on two hosts of one scalable unit stays on their 8 rail leaves', () => {
    const [h1, h2] = hostsOf((n) => n.su === 0);
    const s = runFabricScope(g, [h1!, h2!]);
    expect(s.hosts.map((h) => [h.host, h.hcas.length])).toEqual([
      [h1, 8],
      [h2, 8],
    ]);
    expect(s.tiers).toEqual(['leaf']);
    const leaves = named(t, s.nodes, 'leaf');
    expect(leaves).toHaveLength(8);
    // Each rail leaf serves its rail: mlx5_N of both hosts sits on the rail-N leaf.
    for (const n of t.nodes.filter((x) => x.host === h1)) {
      const link = t.links.find((l) => l.a.node === n.name || l.b.node === n.name)!;
      expect(leaves).toContain(link.a.node === n.name ? link.b.node : link.a.node);
    }
    expect(s.links.size).toBe(16);
  });

  it('a run on two scalable units of one pod meets at the spines, not the cores', () => {
    const big = generateTopology({ gpus: 2048, tiers: 3 });
    const podOf = leafPods(big);
    const sus = big.nodes.filter((n) => n.role === 'gpu-hca');
    const a = sus.find((n) => n.su === 0)!;
    const b = sus.find((n) => n.su !== 0 && podOf.get(n.host!) === podOf.get(a.host!))!;
    const s = runFabricScope(scopeGraph(big), [a.host!, b.host!]);
    expect(s.tiers).toEqual(['leaf', 'spine']);
    expect(named(big, s.nodes, 'leaf')).toHaveLength(16);
  });

  it('a run across two pods reaches the cores, and no other host', () => {
    const big = generateTopology({ gpus: 2048, tiers: 3 });
    const podOf = leafPods(big);
    const hcas = big.nodes.filter((n) => n.role === 'gpu-hca');
    const a = hcas[0]!.host!;
    const b = hcas.find((n) => podOf.get(n.host!) !== podOf.get(a))!.host!;
    const s = runFabricScope(scopeGraph(big), [a, b]);
    expect(s.tiers).toEqual(['leaf', 'spine', 'core']);
    expect(named(big, s.nodes, 'core').length).toBeGreaterThan(0);
    const others = hcas.filter((n) => n.host !== a && n.host !== b).map((n) => n.guid);
    expect(others.some((h) => s.nodes.has(h))).toBe(false);
  });

  it('a single-host run is its HCA links and their leaves', () => {
    const [h] = hostsOf(() => true);
    const s = runFabricScope(g, [h!]);
    expect(s.tiers).toEqual(['leaf']);
    expect(s.links.size).toBe(8);
    expect(named(t, s.nodes, 'spine')).toEqual([]);
  });
});
