import { describe, expect, it } from 'vitest';
import { generateFatTree } from './fat-tree/generate.ts';
import { fatTreeSnapshot } from './fat-tree/snapshot.ts';
import { linkKey } from './findings.ts';
import { syntheticFatTree, TEN_K_GPUS } from './synthetic.ts';
import { inferTopology, topologyAnomalies } from './topology.ts';
import type { FabricSnapshot } from './types.ts';

const small = () =>
  syntheticFatTree({ hosts: 8, rails: 2, hostsPerLeaf: 4, leavesPerPod: 4, spinesPerPod: 3, coreLinksPerSpine: 1 });

describe('inferTopology()', () => {
  it('infers hca/leaf/spine/core tiers of a 10k-GPU 3-tier fat tree', () => {
    const s = syntheticFatTree(TEN_K_GPUS);
    const m = inferTopology(s);
    expect(m.counts).toEqual({ hca: 10_240, leaf: 320, spine: 160, core: 64, aggregation: 0, unknown: 0 });
    for (const n of s.nodes) {
      const want = n.description.startsWith('host') ? 'hca' : n.description.split('-')[0];
      if (m.tiers.get(n.guid) !== want) throw new Error(`${n.description}: ${m.tiers.get(n.guid)}`);
    }
    const byTier = new Map<string, number>();
    for (const t of m.linkTiers.values()) byTier.set(t, (byTier.get(t) ?? 0) + 1);
    expect(Object.fromEntries(byTier)).toEqual({ 'hca-leaf': 10_240, 'leaf-spine': 5_120, 'spine-core': 640 });
    expect(m.leafRails.get('0x0000000002000003')).toEqual({ rail: 3, share: 1, hcas: 32 });
    expect(topologyAnomalies(m, s)).toEqual([]);
  });

  it.each([
    [10_000, 3],
    [1000, 2],
  ] as const)(
    'infers the role the fabric generator gave every node (%i GPUs, %i tiers)',
    (gpus, tiers) => {
      const t = generateFatTree({ gpus, tiers });
      const s = fatTreeSnapshot(t);
      const m = inferTopology(s);
      const tierOf = { leaf: 'leaf', spine: 'spine', core: 'core', 'gpu-hca': 'hca', 'head-hca': 'hca' } as const;
      for (const n of t.nodes) {
        if (m.tiers.get(n.guid) !== tierOf[n.role]) throw new Error(`${n.name}: ${m.tiers.get(n.guid)}, not ${n.role}`);
      }
      expect(m.counts.core).toBe(t.shape.cores);
      expect(m.counts.hca).toBe(t.nodes.filter((n) => n.type === 'ca').length);
      expect(topologyAnomalies(m, s)).toEqual([]);
    },
    60_000,
  );

  it('does not let a SHARP aggregation node turn a spine into a leaf', () => {
    const s = small();
    const spine = s.nodes.find((n) => n.description === 'spine-0-0')!;
    s.nodes.push({
      guid: '0x00000000000000aa',
      type: 'ca',
      description: 'Mellanox Technologies Aggregation Node',
      numPorts: 1,
      systemImageGuid: spine.guid,
    });
    s.links.push({ a: { nodeGuid: '0x00000000000000aa', portNum: 1 }, b: { nodeGuid: spine.guid, portNum: 65 } });
    const m = inferTopology(s);
    expect(m.tiers.get(spine.guid)).toBe('spine');
    expect(m.tiers.get('0x00000000000000aa')).toBe('aggregation');
  });

  it('names a 2-tier fabric without cores', () => {
    const s = small();
    s.links = s.links.filter(
      (l) => !l.b.nodeGuid.startsWith('0x00000000040') && !l.a.nodeGuid.startsWith('0x00000000040'),
    );
    s.nodes = s.nodes.filter((n) => !n.description.startsWith('core'));
    expect(inferTopology(s).counts).toMatchObject({ leaf: 4, spine: 3, core: 0 });
  });
});

describe('topologyAnomalies()', () => {
  it('flags an HCA cabled into the wrong rail', () => {
    const s = small();
    // host-0000 mlx5_0 and host-0001 mlx5_1: swap their leaf ends (two rail-leaves, 4 HCAs each)
    const hcaLink = (d: string) =>
      s.links.find((l) => s.nodes.find((n) => n.guid === l.a.nodeGuid)?.description === d)!;
    const x = hcaLink('host-0000 mlx5_0');
    const y = hcaLink('host-0001 mlx5_1');
    [x.b, y.b] = [y.b, x.b];
    const v = topologyAnomalies(inferTopology(s), s).filter((f) => f.kind === 'topology-wrong-rail');
    expect(v.map((f) => f.short).sort()).toEqual([
      'wrong rail: mlx5_0 on rail-1 leaf',
      'wrong rail: mlx5_1 on rail-0 leaf',
    ]);
  });

  it('reports a link missing versus the baseline, with both ends', () => {
    const base = small();
    const cur: FabricSnapshot = { ...base, links: base.links.slice(1) };
    const v = topologyAnomalies(inferTopology(cur), cur, { baseline: base }).filter(
      (f) => f.kind === 'topology-link-missing',
    );
    expect(v).toHaveLength(1);
    expect(v[0]!.subject).toEqual({ kind: 'link', a: base.links[0]!.a, b: base.links[0]!.b });
  });

  it('reports a cable moved to another port (wrong port)', () => {
    const base = small();
    const cur: FabricSnapshot = { ...base, links: base.links.map((l) => ({ ...l })) };
    const i = cur.links.findIndex((l) => l.a.nodeGuid.startsWith('0x00000000010'));
    cur.links[i] = { a: cur.links[i]!.a, b: { ...cur.links[i]!.b, portNum: 40 } };
    const v = topologyAnomalies(inferTopology(cur), cur, { baseline: base }).filter(
      (f) => f.kind === 'topology-link-moved',
    );
    expect(v).toHaveLength(1);
    expect(v[0]!.evidence).toMatchObject({ actualPeer: `${cur.links[i]!.b.nodeGuid}/40` });
  });

  it('reports a node that disappeared once, not each of its links', () => {
    const base = small();
    const gone = base.nodes.find((n) => n.description === 'leaf-0')!.guid;
    const cur: FabricSnapshot = {
      ...base,
      nodes: base.nodes.filter((n) => n.guid !== gone),
      links: base.links.filter((l) => l.a.nodeGuid !== gone && l.b.nodeGuid !== gone),
    };
    const v = topologyAnomalies(inferTopology(cur), cur, { baseline: base }).filter(
      (f) => f.kind.startsWith('topology-node') || f.kind.startsWith('topology-link'),
    );
    expect(v.map((f) => f.kind)).toEqual(['topology-node-missing']);
  });

  it('flags a leaf with fewer uplinks than its peers', () => {
    const s = small();
    const leaf = s.nodes.find((n) => n.description === 'leaf-2')!.guid;
    const up = s.links.findIndex(
      (l) =>
        (l.a.nodeGuid === leaf && l.b.nodeGuid.startsWith('0x00000000030')) ||
        (l.b.nodeGuid === leaf && l.a.nodeGuid.startsWith('0x00000000030')),
    );
    const gone = s.links[up]!;
    s.links.splice(up, 1);
    const v = topologyAnomalies(inferTopology(s), s);
    expect(v.find((f) => f.kind === 'topology-asymmetric-up')).toMatchObject({
      severity: 'minor',
      subject: { kind: 'node', guid: leaf },
      evidence: { links: 2, typical: 3 },
    });
    expect(inferTopology(s).linkTiers.has(linkKey(gone.a, gone.b))).toBe(false);
  });

  it('says nothing about a healthy tree whose last pod is only partly populated', () => {
    // 1100 hosts: 35 leaf groups -> 280 leaves -> 8 full pods of 32 leaves and one of 24, so the
    // 16 spines of the last pod have 24 down links where the others have 32 (by design).
    const s = syntheticFatTree({ ...TEN_K_GPUS, hosts: 1100 });
    const m = inferTopology(s);
    expect(m.counts).toMatchObject({ leaf: 280, spine: 144, core: 64 });
    expect(topologyAnomalies(m, s)).toEqual([]);
  });

  it('reports one missing leaf-spine cable in a full pod once, on the leaf, naming the spine', () => {
    const s = syntheticFatTree({ ...TEN_K_GPUS, hosts: 1100 });
    const leaf = s.nodes.find((n) => n.description === 'leaf-37')!.guid; // pod 2
    const spine = s.nodes.find((n) => n.description === 'spine-1-5')!.guid;
    const i = s.links.findIndex(
      (l) => (l.a.nodeGuid === leaf && l.b.nodeGuid === spine) || (l.a.nodeGuid === spine && l.b.nodeGuid === leaf),
    );
    s.links.splice(i, 1);
    const v = topologyAnomalies(inferTopology(s), s);
    expect(v).toHaveLength(1);
    expect(v[0]).toMatchObject({
      kind: 'topology-asymmetric-up',
      severity: 'minor',
      subject: { kind: 'node', guid: leaf },
      evidence: { links: 15, typical: 16, peers: ['spine-1-5'] },
    });
    expect(v[0]!.title).toBe(
      'leaf leaf-37 has 15 up links; the 31 other leaves of its pod (pod of spine-1-0) mostly have 16, ' +
        'short of cables to spine-1-5',
    );
  });

  it('reports one missing spine-core cable once, on the spine', () => {
    const s = syntheticFatTree({ ...TEN_K_GPUS, hosts: 1100 });
    const spine = s.nodes.find((n) => n.description === 'spine-8-3')!.guid; // the partial pod
    const i = s.links.findIndex((l) => l.a.nodeGuid === spine && l.b.nodeGuid.startsWith('0x00000000040'));
    s.links.splice(i, 1);
    const v = topologyAnomalies(inferTopology(s), s);
    expect(v.map((f) => [f.kind, f.subject, f.evidence['links'], f.evidence['typical']])).toEqual([
      ['topology-asymmetric-up', { kind: 'node', guid: spine }, 3, 4],
    ]);
  });

  it('flags a core with an extra cable into one pod, compared only with cores reaching that pod', () => {
    const s = syntheticFatTree({ ...TEN_K_GPUS, hosts: 1100 });
    const spine = s.nodes.find((n) => n.description === 'spine-8-0')!.guid;
    const core = s.nodes.find((n) => n.description === 'core-1')!.guid;
    s.links.push({ a: { nodeGuid: spine, portNum: 60 }, b: { nodeGuid: core, portNum: 60 } });
    const v = topologyAnomalies(inferTopology(s), s);
    expect(v.map((f) => [f.kind, f.subject, f.evidence['links'], f.evidence['typical']])).toEqual([
      ['topology-asymmetric-up', { kind: 'node', guid: spine }, 5, 4],
      ['topology-asymmetric-down', { kind: 'node', guid: core }, 2, 1],
    ]);
  });
});
