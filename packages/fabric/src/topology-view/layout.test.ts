import { describe, expect, it } from 'vitest';
import { generateFatTree, topologyColumns, type LinkHealth, type TopologyObjects } from '../index.ts';
import { fatTreeReply, indexOf, layoutOf, ndrWithSharp, syntheticFabric, tinyFabric } from './fixtures.ts';
import { edgeIndexByLinkId, edgeList, layoutTopology, type LayoutEdge } from './layout.ts';
import { HEALTHS } from './model.ts';

function tierYs(l: ReturnType<typeof layoutOf>) {
  return l.tiers.map((t) => t.y);
}

describe("layoutTopology() on the fabric generator's 10k-GPU fat-tree", () => {
  const tree = generateFatTree({ gpus: 10_000, tiers: 3 });
  const reply = fatTreeReply(tree, 97);

  it('places every switch, groups every HCA under its leaf and every link end on a node', () => {
    const l = layoutOf(reply);
    const switches = tree.nodes.filter((n) => n.type === 'switch').length;
    const leaves = tree.nodes.filter((n) => n.role === 'leaf').length;
    expect(l.tiers.map((t) => t.tier)).toEqual(['core', 'spine', 'leaf', 'hca']);
    expect(l.groups).toBe(leaves);
    expect(l.nodes).toHaveLength(switches + leaves);
    const groups = l.nodes.filter((n) => n.kind === 'group');
    expect(groups.reduce((s, g) => s + (g.hcas ?? 0), 0)).toBe(tree.nodes.length - switches);
    expect(l.unplaced).toBe(0);
    const missing = reply.links.flatMap((link) => [link.a, link.b]).filter((e) => l.nodeOf.get(e.guid) === undefined);
    expect(missing).toEqual([]);
  }, 60_000);
});

describe("layoutOf() on the generator's 10k-GPU fat-tree, one link in 97 not ok", () => {
  const tree = generateFatTree({ gpus: 10_000, tiers: 3 });
  const reply = fatTreeReply(tree, 97);
  const switches = tree.nodes.filter((n) => n.type === 'switch').length;
  const leaves = tree.nodes.filter((n) => n.role === 'leaf').length;
  const hcas = tree.nodes.length - switches;
  const hcaLinks = reply.links.filter((x) => x.tier === 'hca-leaf').length;

  it('has every HCA on one link to its leaf', () => {
    expect(reply.nodes.filter((n) => n.tier === 'hca')).toHaveLength(hcas);
    expect(hcaLinks).toBe(hcas);
    expect(reply.links).toHaveLength(tree.links.length);
  });

  it('aggregates HCAs per leaf and positions every link endpoint', () => {
    const t0 = performance.now();
    const l = layoutOf(reply);
    const ms = performance.now() - t0;
    expect(l.tiers.map((t) => t.tier)).toEqual(['core', 'spine', 'leaf', 'hca']);
    const ys = tierYs(l);
    expect([...ys].sort((a, b) => a - b)).toEqual(ys);
    expect(new Set(ys).size).toBe(4);
    expect(l.groups).toBe(leaves);
    const groups = l.nodes.filter((n) => n.kind === 'group');
    expect(groups.reduce((s, g) => s + (g.hcas ?? 0), 0)).toBe(hcas);
    expect(l.nodes).toHaveLength(switches + leaves);
    expect(l.unplaced).toBe(0);
    // 60k endpoint checks: count misses in plain code, assert once.
    const missing: string[] = [];
    for (const link of reply.links) {
      for (const end of [link.a, link.b]) {
        const i = l.nodeOf.get(end.guid);
        if (i === undefined || !Number.isFinite(l.nodes[i].x) || !Number.isFinite(l.nodes[i].y)) missing.push(end.guid);
      }
    }
    expect(missing).toEqual([]);
    // HCA links collapse into one edge per group; switch links stay one edge each.
    expect(l.edges.length).toBe(reply.links.length - hcaLinks + leaves);
    const edges = edgeList(l.edges);
    expect(edges.filter((e) => e.link === -1).reduce((s, e) => s + e.linkIds.length, 0)).toBe(hcaLinks);
    // Every node sits on its tier's row, inside the layout.
    const yOfTier = new Map(l.tiers.map((t) => [t.tier, t.y]));
    const off = l.nodes.filter((n) => n.y !== yOfTier.get(n.tier) || n.x < 0 || n.x > l.width);
    expect(off).toEqual([]);
    // Generous bound (slow CI); the browser measures the real number in __ibwatchTopoStats.
    expect(ms).toBeLessThan(3000);
  });

  it('expands to one box per HCA without overlaps between leaves', () => {
    const l = layoutOf(reply, { expandHcas: true });
    expect(l.nodes).toHaveLength(switches + hcas);
    expect(l.edges.length).toBe(reply.links.length);
    expect(l.groups).toBe(0);
    const hcaY = l.tiers.find((t) => t.tier === 'hca')!.y;
    const leafY = l.tiers.find((t) => t.tier === 'leaf')!.y;
    const seen = new Set<string>();
    for (const n of l.nodes) {
      if (n.kind !== 'hca') continue;
      expect(n.y).toBeGreaterThanOrEqual(hcaY);
      expect(n.y).toBeGreaterThan(leafY);
      const key = `${Math.round(n.x)}:${Math.round(n.y)}`;
      expect(seen.has(key)).toBe(false);
      seen.add(key);
    }
    expect(l.height).toBeGreaterThan(hcaY);
  });

  it('propagates the worst link health to group boxes and edges', () => {
    const l = layoutOf(reply);
    const bad = reply.links.find((x) => x.tier === 'hca-leaf' && x.health === 'down')!;
    const g = l.nodes[l.nodeOf.get(bad.a.guid)!];
    expect(g.kind).toBe('group');
    expect(g.health).toBe('down');
    const e = edgeList(l.edges).find((x) => x.linkIds.includes(bad.id))!;
    expect(e.health).toBe('down');
  });

  it('builds the edges and node healths one object per edge would, aggregated and expanded', () => {
    // The former build, one object per edge, as the oracle of the columns (layout-edges.ts).
    const idx = indexOf(reply);
    const rank = { ok: 0, degraded: 1, errors: 2, down: 3 } as const;
    expect(HEALTHS.map((h) => rank[h])).toEqual([0, 1, 2, 3]);
    for (const expandHcas of [false, true]) {
      const l = layoutTopology(idx, { expandHcas });
      const guid = idx.reply.nodes.guid;
      const edges: LayoutEdge[] = [];
      const health = l.nodes.map((): LinkHealth => 'ok');
      const worse = (a: LinkHealth, b: LinkHealth) => (rank[b] > rank[a] ? b : a);
      const groupEdge = new Map<string, LayoutEdge>();
      for (let i = 0; i < idx.linkCount; i++) {
        const a = l.nodeOf.get(guid[idx.endA[i]])!;
        const b = l.nodeOf.get(guid[idx.endB[i]])!;
        const h = HEALTHS[idx.health[i]];
        const id = idx.reply.links.id[i];
        health[a] = worse(health[a], h);
        health[b] = worse(health[b], h);
        if (l.nodes[a].kind === 'group' || l.nodes[b].kind === 'group') {
          const e = groupEdge.get(`${a}-${b}`);
          if (e) {
            e.linkIds.push(id);
            e.health = worse(e.health, h);
          } else {
            const ne: LayoutEdge = { link: -1, linkIds: [id], a, b, health: h };
            groupEdge.set(`${a}-${b}`, ne);
            edges.push(ne);
          }
        } else edges.push({ link: i, linkIds: [id], a, b, health: h });
      }
      expect(edges.some((e) => e.health !== 'ok')).toBe(true);
      expect(edgeList(l.edges)).toEqual(edges);
      expect(l.nodes.map((n) => n.health)).toEqual(health);
      // 10k lookups: count misses in plain code, assert once.
      const byId = edgeIndexByLinkId(l);
      expect(edges.flatMap((e, k) => e.linkIds.filter((id) => byId.get(id) !== k))).toEqual([]);
    }
  }, 30_000);
});

describe('layoutOf() on small fabrics', () => {
  it('lays out a 2-tier fabric without a core tier', () => {
    const reply = tinyFabric();
    const l = layoutOf(reply);
    expect(l.tiers.map((t) => t.tier)).toEqual(['spine', 'leaf', 'hca']);
    // One box per leaf; each holds the HCAs cabled to it (2 hosts per rail leaf, 2 heads on mgmt).
    const leaves = reply.nodes.filter((n) => n.tier === 'leaf');
    const hcasOn = (g: string) => reply.links.filter((x) => x.tier === 'hca-leaf' && x.b.guid === g).length;
    expect(l.groups).toBe(leaves.length);
    expect(l.nodes.filter((n) => n.kind === 'group').map((n) => n.label)).toEqual(
      leaves.map((x) => `${hcasOn(x.guid)} HCAs`),
    );
  });

  it('orders leaves by rail, then by name', () => {
    const reply = tinyFabric();
    // Swap names so name order and rail order disagree.
    const leaves = reply.nodes.filter((n) => n.tier === 'leaf');
    leaves[0].name = 'leaf-z';
    leaves[1].name = 'leaf-a';
    const byRail = layoutOf(reply)
      .nodes.filter((n) => n.tier === 'leaf')
      .map((n) => n.label);
    const byName = layoutOf(reply, { groupBy: 'name' })
      .nodes.filter((n) => n.tier === 'leaf')
      .map((n) => n.label);
    // The management leaf has no rail: last by rail, between the two by name.
    expect(byRail).toEqual(['leaf-z', 'leaf-a', 'leaf-mgmt-01']);
    expect(byName).toEqual(['leaf-a', 'leaf-mgmt-01', 'leaf-z']);
  });

  it('puts HCAs without a leaf into one orphan box; a link to an unknown node is not sent', () => {
    const reply: TopologyObjects = tinyFabric();
    reply.nodes.push({
      guid: '0x00ff000000000001',
      name: 'lonely mlx5_0',
      type: 'ca',
      tier: 'hca',
      rail: 0,
      rack: null,
      lid: null,
      host: 'lonely',
    });
    const first = reply.links[0];
    reply.links.push({ ...first, id: 999, b: { ...first.b, guid: '0xdead000000000000' } });
    const l = layoutOf(reply);
    const orphan = l.nodes.find((n) => n.kind === 'group' && n.leaf === undefined);
    expect(orphan?.hcas).toBe(1);
    expect(l.nodeOf.get('0x00ff000000000001')).toBe(l.nodes.indexOf(orphan!));
    // Format 2 sends a link end as a node index: a link to a node not in the reply has none.
    expect(topologyColumns(reply).links.id).not.toContain(999);
    expect(l.unplaced).toBe(0);
  });

  it('places spines over the leaves they connect (barycentre order)', () => {
    // Hand-made: the generator cables every leaf to every spine of its pod, so its spines have
    // no barycentre order to find; this shape gives each spine one leaf, out of name order.
    const l = layoutOf(syntheticFabric({ hosts: 4, rails: 2, leavesPerRail: 2, spines: 4, cores: 0, uplinks: 4 }));
    // uplink k joins leaf k to spine (7k mod 4): spine-000←leaf0, spine-003←leaf1, spine-002←leaf2, spine-001←leaf3.
    expect(l.nodes.filter((n) => n.tier === 'spine').map((n) => n.label)).toEqual([
      'spine-000',
      'spine-003',
      'spine-002',
      'spine-001',
    ]);
  });

  it('knows what each tier’s names share, to drop from labels too wide for their box', () => {
    // The generator's names: core-NN, spine-pP-NN, leaf-rR-SS and leaf-mgmt-01 (2 pods at 8 GPUs).
    const l = layoutOf(fatTreeReply(generateFatTree({ gpus: 8, tiers: 3 })));
    expect(l.labelPrefix).toMatchObject({ core: 'core-', spine: 'spine-', leaf: 'leaf-' });
  });

  it('handles an empty reply', () => {
    const l = layoutOf({ generatedAt: 0, nodes: [], links: [] });
    expect(l.nodes).toEqual([]);
    expect(l.tiers).toEqual([]);
    expect(l.width).toBeGreaterThan(0);
  });
});

describe('layoutOf() on a fabric with SHARP Aggregation Nodes and nodes without a tier', () => {
  const reply = ndrWithSharp();

  it('draws every node and every link (the page used to go blank on tier "aggregation")', () => {
    const l = layoutOf(reply);
    expect(reply.nodes.every((n) => l.nodeOf.has(n.guid))).toBe(true);
    expect(l.unplaced).toBe(0);
    expect(
      edgeList(l.edges)
        .flatMap((e) => e.linkIds)
        .sort((a, b) => a - b),
    ).toEqual(reply.links.map((x) => x.id).sort((a, b) => a - b));
  });

  it('puts each Aggregation Node beside its leaf, in the leaf row, without overlapping it', () => {
    const l = layoutOf(reply);
    const ans = l.nodes.filter((n) => n.kind === 'aggregation');
    expect(ans).toHaveLength(7);
    for (const an of ans) {
      const leaf = l.nodes[l.nodeOf.get(an.host!)!];
      expect(leaf.tier).toBe('leaf');
      expect(an.y).toBe(leaf.y);
      expect(an.x - an.w / 2).toBeGreaterThanOrEqual(leaf.x + leaf.w / 2);
      // Within the leaf's slot: the next leaf starts further right.
      expect(an.x + an.w / 2).toBeLessThanOrEqual(leaf.x + leaf.w / 2 + l.width / 8);
    }
    expect(l.tiers.find((t) => t.tier === 'leaf')).toMatchObject({ count: 8, aggregation: 7 });
  });

  it('gives nodes of tier unknown, or of a tier it does not know, a row of their own at the bottom', () => {
    const odd = ndrWithSharp();
    odd.nodes.push({ ...odd.nodes.at(-1)!, guid: '0x0007000000000000', name: 'plane-7', tier: 'plane' as never });
    const l = layoutOf(odd);
    const row = l.tiers.at(-1)!;
    expect(row).toMatchObject({ tier: 'unknown', count: 2 });
    expect(row.y).toBeGreaterThan(l.tiers.find((t) => t.tier === 'hca')!.y);
    const placed = l.nodes.filter((n) => n.tier === 'unknown');
    expect(placed.map((n) => [n.label, n.y])).toEqual([
      ['plane-7', row.y],
      ['spare-switch', row.y],
    ]);
    expect(l.height).toBeGreaterThan(row.y);
  });

  it('sends an Aggregation Node cabled to no switch to the unknown row', () => {
    const lone = ndrWithSharp();
    lone.links = lone.links.filter(
      (x) => x.a.port !== 65 || x.a.guid !== lone.nodes.find((n) => n.tier === 'leaf')!.guid,
    );
    const l = layoutOf(lone);
    expect(l.nodes.filter((n) => n.kind === 'aggregation')).toHaveLength(6);
    expect(l.nodes.filter((n) => n.tier === 'unknown').map((n) => n.kind)).toEqual(['other', 'switch']);
  });
});

describe('layoutOf() on switches that share a name', () => {
  it('tells them apart by the end of their GUID', () => {
    const reply = ndrWithSharp();
    for (const n of reply.nodes) if (n.tier === 'leaf') n.name = 'Quantum-2 Mellanox Technologies';
    const l = layoutOf(reply);
    const leaves = l.nodes.filter((n) => n.tier === 'leaf');
    expect(new Set(leaves.map((n) => n.label)).size).toBe(8);
    for (const n of leaves) expect(n.label).toBe(`Quantum-2 Mellanox Technologies 0x…${n.id.slice(-4)}`);
    // A name of its own stays as it is.
    expect(l.nodes.find((n) => n.tier === 'spine')!.label).toBe('spine-000');
  });
});
