import { describe, expect, it } from 'vitest';
import { linkKey } from './findings.ts';
import { findingInScope, hcaHost, runFabricScope, type ScopeGraph, type ScopeNode } from './nccl-scope.ts';
import type { FabricTier } from './topology.ts';

// Two pods under one core; each pod a spine and two rail leaves; h1 and h2 in pod A, h3 in pod B.
//            core
//          /      \
//       spA        spB
//      /   \      /   \
//   lfA0  lfA1  lfB0  lfB1
//   h1,h2 h1,h2  h3    h3     (mlx5_0 on rail leaf 0, mlx5_1 on rail leaf 1)
function graph(): ScopeGraph & { guid: (name: string) => string } {
  const nodes: ScopeNode[] = [];
  const guids = new Map<string, string>();
  const add = (name: string, tier: FabricTier): string => {
    const guid = `0x${(nodes.length + 1).toString(16).padStart(16, '0')}`;
    nodes.push({ guid, type: tier === 'hca' ? 'ca' : 'switch', description: name, tier });
    guids.set(name, guid);
    return guid;
  };
  const links: ScopeGraph['links'][number][] = [];
  const nextPort = new Map<string, number>();
  const cable = (x: string, y: string) => {
    const port = (g: string) => {
      const n = (nextPort.get(g) ?? 0) + 1;
      nextPort.set(g, n);
      return { nodeGuid: g, portNum: n };
    };
    links.push({ a: port(guids.get(x)!), b: port(guids.get(y)!) });
  };
  add('core', 'core');
  for (const pod of ['A', 'B']) {
    add(`sp${pod}`, 'spine');
    cable(`sp${pod}`, 'core');
    for (const rail of [0, 1]) {
      add(`lf${pod}${rail}`, 'leaf');
      cable(`lf${pod}${rail}`, `sp${pod}`);
    }
  }
  for (const [host, pod] of [
    ['h1', 'A'],
    ['h2', 'A'],
    ['h3', 'B'],
  ] as const) {
    for (const rail of [0, 1]) {
      add(`${host} mlx5_${rail}`, 'hca');
      cable(`${host} mlx5_${rail}`, `lf${pod}${rail}`);
    }
  }
  add('Mellanox Technologies Aggregation Node', 'aggregation');
  return { nodes, links, guid: (name) => guids.get(name)! };
}

const names = (g: ReturnType<typeof graph>, set: Set<string>) =>
  g.nodes.filter((n) => set.has(n.guid)).map((n) => n.description);

describe('runFabricScope()', () => {
  it('keeps a single host to its HCA links and the leaves above them', () => {
    const g = graph();
    const s = runFabricScope(g, ['h1']);
    expect(s.hosts).toEqual([{ host: 'h1', hcas: [g.guid('h1 mlx5_0'), g.guid('h1 mlx5_1')] }]);
    expect(names(g, s.nodes)).toEqual(['lfA0', 'lfA1', 'h1 mlx5_0', 'h1 mlx5_1']);
    expect(s.links.size).toBe(2);
    expect(s.tiers).toEqual(['leaf']);
  });

  it('joins two hosts of one pod at their rail leaves, without the spines', () => {
    const g = graph();
    const s = runFabricScope(g, ['h1', 'h2']);
    expect(names(g, s.nodes)).toEqual(['lfA0', 'lfA1', 'h1 mlx5_0', 'h1 mlx5_1', 'h2 mlx5_0', 'h2 mlx5_1']);
    expect(s.links.size).toBe(4);
    expect(s.tiers).toEqual(['leaf']);
  });

  it('climbs to the core for hosts in two pods, and no further than the paths between them', () => {
    const g = graph();
    const s = runFabricScope(g, ['h1', 'h3']);
    expect(s.tiers).toEqual(['leaf', 'spine', 'core']);
    expect(names(g, s.nodes)).not.toContain('h2 mlx5_0');
    // 4 HCA links, 4 leaf-spine links, 2 spine-core links.
    expect(s.links.size).toBe(10);
  });

  it('matches hosts without case or domain and lists the ones the topology lacks', () => {
    const g = graph();
    const s = runFabricScope(g, ['H1.cluster.local', 'ghost', 'localhost']);
    expect(s.hosts.map((h) => h.host)).toEqual(['H1.cluster.local']);
    expect(s.unmatchedHosts).toEqual(['ghost', 'localhost']);
  });

  it('has nothing in scope when no host is in the topology', () => {
    const s = runFabricScope(graph(), ['ghost']);
    expect([s.nodes.size, s.links.size, s.tiers.length]).toEqual([0, 0, 0]);
  });
});

describe('findingInScope()', () => {
  it('takes ports, links and switches on the run’s paths and nothing else', () => {
    const g = graph();
    const s = runFabricScope(g, ['h1', 'h2']);
    const hcaLink = g.links.find((l) => l.a.nodeGuid === g.guid('h1 mlx5_0') || l.b.nodeGuid === g.guid('h1 mlx5_0'))!;
    const uplink = g.links.find((l) => l.a.nodeGuid === g.guid('lfA0') && l.b.nodeGuid === g.guid('spA'))!;
    const otherHost = g.links.find(
      (l) => l.a.nodeGuid === g.guid('h3 mlx5_0') || l.b.nodeGuid === g.guid('h3 mlx5_0'),
    )!;
    expect(findingInScope(s, `link:${linkKey(hcaLink.a, hcaLink.b)}`)).toBe(true);
    expect(findingInScope(s, `port:${hcaLink.b.nodeGuid}/${hcaLink.b.portNum}`)).toBe(true);
    expect(findingInScope(s, `port:${g.guid('h1 mlx5_1')}/2`)).toBe(true); // an HCA's uncabled port
    expect(findingInScope(s, `node:${g.guid('lfA0')}`)).toBe(true);
    expect(findingInScope(s, `link:${linkKey(uplink.a, uplink.b)}`)).toBe(false);
    expect(findingInScope(s, `port:${uplink.a.nodeGuid}/${uplink.a.portNum}`)).toBe(false);
    expect(findingInScope(s, `link:${linkKey(otherHost.a, otherHost.b)}`)).toBe(false);
    expect(findingInScope(s, `node:${g.guid('spA')}`)).toBe(false);
    expect(findingInScope(s, 'sm:subnet')).toBe(false);
  });
});

describe('hcaHost()', () => {
  it('reads the host of an HCA description', () => {
    expect(hcaHost('dgx-0042 mlx5_3')).toBe('dgx-0042');
    expect(hcaHost('node17 HCA-1')).toBe('node17');
    expect(hcaHost('leaf-r0-01')).toBeNull();
  });
});
