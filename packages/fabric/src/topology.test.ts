import { describe, expect, it } from 'vitest';
import { generateFatTree, type FatTreeOptions } from './fat-tree/generate.ts';
import { fatTreeSnapshot } from './fat-tree/snapshot.ts';
import { linkKey } from './findings.ts';
import { inferTopology, topologyAnomalies } from './topology.ts';
import type { FabricSnapshot, Guid } from './types.ts';

/** A generated fat-tree and its snapshot, with lookups by node name. */
function tree(opts: FatTreeOptions) {
  const t = generateFatTree(opts);
  const s = fatTreeSnapshot(t);
  const guid = (name: string): Guid => t.nodes.find((n) => n.name === name)!.guid;
  /** The first port of `g` that no link uses (the generator leaves the unfilled ports free). */
  const freePort = (g: Guid): number => {
    const used = new Set(
      s.links
        .flatMap((l) => [l.a, l.b])
        .filter((e) => e.nodeGuid === g)
        .map((e) => e.portNum),
    );
    let p = 1;
    while (used.has(p)) p++;
    return p;
  };
  return { t, s, shape: t.shape, guid, freePort };
}

// The smallest 3-tier tree: 8 GPUs = 1 node in SU 1, its 8 rail leaves + the management leaf in two pods.
const small = () => tree({ gpus: 8, tiers: 3 });
// 10k GPUs: the last pod holds only the leaves beyond a multiple of 32 (the management leaf).
const big = () => tree({ gpus: 10_000, tiers: 3 });
const isLink = (l: FabricSnapshot['links'][number], x: Guid, y: Guid) =>
  (l.a.nodeGuid === x && l.b.nodeGuid === y) || (l.a.nodeGuid === y && l.b.nodeGuid === x);

describe('inferTopology()', () => {
  it('infers hca/leaf/spine/core tiers and link tiers of a 10k-GPU 3-tier fat tree', () => {
    const { t, s, shape, guid } = big();
    const m = inferTopology(s);
    const cas = t.nodes.filter((n) => n.type === 'ca').length;
    const spines = shape.pods * shape.spinesPerGroup;
    expect(m.counts).toEqual({
      hca: cas,
      leaf: shape.leaves,
      spine: spines,
      core: shape.cores,
      aggregation: 0,
      unknown: 0,
    });
    const byTier = new Map<string, number>();
    for (const x of m.linkTiers.values()) byTier.set(x, (byTier.get(x) ?? 0) + 1);
    // Every leaf has radix/2 cables up; every spine radix/2 cables up to the cores of its plane.
    const half = shape.radix / 2;
    expect(Object.fromEntries(byTier)).toEqual({
      'hca-leaf': cas,
      'leaf-spine': shape.leaves * half,
      'spine-core': spines * half,
    });
    // A rail-3 leaf of a full SU serves the rail-3 HCA of each of its radix/2 nodes.
    expect(m.leafRails.get(guid('leaf-r3-01'))).toEqual({ rail: 3, share: 1, hcas: shape.nodesPerSu });
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
    const { s, guid, freePort } = small();
    const spine = guid('spine-p1-01');
    const port = freePort(spine);
    s.nodes.push({
      guid: '0x00000000000000aa',
      type: 'ca',
      description: 'Mellanox Technologies Aggregation Node',
      numPorts: 1,
      systemImageGuid: spine,
    });
    s.links.push({ a: { nodeGuid: '0x00000000000000aa', portNum: 1 }, b: { nodeGuid: spine, portNum: port } });
    const m = inferTopology(s);
    expect(m.tiers.get(spine)).toBe('spine');
    expect(m.tiers.get('0x00000000000000aa')).toBe('aggregation');
  });

  it('names a 2-tier fabric without cores', () => {
    const { s, shape } = tree({ gpus: 8, tiers: 2 });
    expect(inferTopology(s).counts).toMatchObject({ leaf: shape.leaves, spine: shape.spinesPerGroup, core: 0 });
  });
});

describe('topologyAnomalies()', () => {
  it('flags an HCA cabled into the wrong rail', () => {
    // Four nodes (of 8 GPUs each), so that each rail leaf has four HCAs and the swapped one is outvoted.
    const { s, guid } = tree({ gpus: 4 * 8, tiers: 3 });
    const hcaLink = (name: string) => s.links.find((l) => l.a.nodeGuid === guid(name))!;
    const x = hcaLink('dgx-0001 mlx5_0');
    const y = hcaLink('dgx-0002 mlx5_1');
    [x.b, y.b] = [y.b, x.b];
    const v = topologyAnomalies(inferTopology(s), s).filter((f) => f.kind === 'topology-wrong-rail');
    expect(v.map((f) => f.short).sort()).toEqual([
      'wrong rail: mlx5_0 on rail-1 leaf',
      'wrong rail: mlx5_1 on rail-0 leaf',
    ]);
  });

  it('reports a link missing versus the baseline, with both ends', () => {
    const { s: base } = small();
    const cur: FabricSnapshot = { ...base, links: base.links.slice(1) };
    const v = topologyAnomalies(inferTopology(cur), cur, { baseline: base }).filter(
      (f) => f.kind === 'topology-link-missing',
    );
    expect(v).toHaveLength(1);
    expect(v[0]!.subject).toEqual({ kind: 'link', a: base.links[0]!.a, b: base.links[0]!.b });
  });

  it('reports a cable moved to another port (wrong port)', () => {
    const { s: base, t, freePort } = small();
    const cur: FabricSnapshot = { ...base, links: base.links.map((l) => ({ ...l })) };
    const hcas = new Set(t.nodes.filter((n) => n.type === 'ca').map((n) => n.guid));
    const i = cur.links.findIndex((l) => hcas.has(l.a.nodeGuid));
    const port = freePort(cur.links[i]!.b.nodeGuid);
    cur.links[i] = { a: cur.links[i]!.a, b: { ...cur.links[i]!.b, portNum: port } };
    const v = topologyAnomalies(inferTopology(cur), cur, { baseline: base }).filter(
      (f) => f.kind === 'topology-link-moved',
    );
    expect(v).toHaveLength(1);
    expect(v[0]!.evidence).toMatchObject({ actualPeer: `${cur.links[i]!.b.nodeGuid}/${port}` });
  });

  it('reports a node that disappeared once, not each of its links', () => {
    const { s: base, guid } = small();
    const gone = guid('leaf-r0-01');
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
    const { s, shape, guid } = small();
    const leaf = guid('leaf-r2-01');
    const spine = guid('spine-p1-01');
    const up = s.links.findIndex((l) => isLink(l, leaf, spine));
    const gone = s.links[up]!;
    s.links.splice(up, 1);
    const v = topologyAnomalies(inferTopology(s), s);
    // A leaf has radix/2 uplinks: leafSpineCables to each spine of its pod.
    expect(v.find((f) => f.kind === 'topology-asymmetric-up')).toMatchObject({
      severity: 'minor',
      subject: { kind: 'node', guid: leaf },
      evidence: { links: shape.radix / 2 - 1, typical: shape.radix / 2 },
    });
    expect(inferTopology(s).linkTiers.has(linkKey(gone.a, gone.b))).toBe(false);
  });

  it('says nothing about a healthy tree whose last pod is only partly populated', () => {
    const { s, shape } = big();
    // Not vacuous: the leaves do not fill a whole number of pods.
    expect(shape.leaves % shape.leavesPerPod).toBeGreaterThan(0);
    const m = inferTopology(s);
    expect(m.counts).toMatchObject({
      leaf: shape.leaves,
      spine: shape.pods * shape.spinesPerGroup,
      core: shape.cores,
    });
    expect(topologyAnomalies(m, s)).toEqual([]);
  });

  it('reports one missing leaf-spine cable in a full pod once, on the leaf, naming the spine', () => {
    const { s, t, shape, guid } = big();
    // The 6th leaf of the 2nd pod and the 6th spine of that pod (the generator lists both in pod order).
    const leafNode = t.nodes.filter((n) => n.role === 'leaf')[shape.leavesPerPod + 5]!;
    const podSpines = t.nodes.filter((n) => n.role === 'spine' && n.pod === leafNode.pod).map((n) => n.name);
    const leafName = leafNode.name;
    const spineName = (j: number) => podSpines[j - 1]!;
    const leaf = guid(leafName);
    const spine = guid(spineName(6));
    const i = s.links.findIndex((l) => isLink(l, leaf, spine));
    s.links.splice(i, 1);
    const v = topologyAnomalies(inferTopology(s), s);
    const half = shape.radix / 2;
    expect(shape.leafSpineCables).toBe(1); // one cable per leaf-spine pair: the pair loses its only cable
    expect(v).toHaveLength(1);
    expect(v[0]).toMatchObject({
      kind: 'topology-asymmetric-up',
      severity: 'minor',
      subject: { kind: 'node', guid: leaf },
      evidence: { links: half - 1, typical: half, peers: [spineName(6)] },
    });
    expect(v[0]!.title).toBe(
      `leaf ${leafName} has ${half - 1} up links; the ${shape.leavesPerPod - 1} other leaves of its pod ` +
        `(pod of ${spineName(1)}) mostly have ${half}, short of cables to ${spineName(6)}`,
    );
  });

  it('reports one missing spine-core cable once, on the spine', () => {
    const { s, t, shape, guid } = big();
    // The 4th spine of the last, partial pod.
    const spine = t.nodes.filter((n) => n.role === 'spine' && n.pod === shape.pods - 1)[3]!.guid;
    const cores = new Set(t.nodes.filter((n) => n.role === 'core').map((n) => n.guid));
    const i = s.links.findIndex((l) => l.a.nodeGuid === spine && cores.has(l.b.nodeGuid));
    s.links.splice(i, 1);
    const v = topologyAnomalies(inferTopology(s), s);
    const half = shape.radix / 2;
    expect(v.map((f) => [f.kind, f.subject, f.evidence['links'], f.evidence['typical']])).toEqual([
      ['topology-asymmetric-up', { kind: 'node', guid: spine }, half - 1, half],
    ]);
  });

  it('flags a core with an extra cable into one pod, compared only with cores reaching that pod', () => {
    const { s, t, shape, freePort } = big();
    // Spine 1 of the last pod and core 2: both in plane 1 (spine j reaches the cores of plane j),
    // already cabled spineCoreCables times.
    const spine = t.nodes.filter((n) => n.role === 'spine' && n.pod === shape.pods - 1)[0]!.guid;
    expect(shape.cores / shape.spinesPerGroup).toBeGreaterThan(1); // so cores 1 and 2 share plane 1
    const core = t.nodes.filter((n) => n.role === 'core')[1]!.guid;
    s.links.push({ a: { nodeGuid: spine, portNum: freePort(spine) }, b: { nodeGuid: core, portNum: freePort(core) } });
    const v = topologyAnomalies(inferTopology(s), s);
    const half = shape.radix / 2;
    expect(v.map((f) => [f.kind, f.subject, f.evidence['links'], f.evidence['typical']])).toEqual([
      ['topology-asymmetric-up', { kind: 'node', guid: spine }, half + 1, half],
      ['topology-asymmetric-down', { kind: 'node', guid: core }, shape.spineCoreCables + 1, shape.spineCoreCables],
    ]);
  });
});
