/**
 * Blast radius: who is hurt when a cable is bad. Pure computation on the stored topology
 * (nodes with their inferred tier, links with their current rate), built once per topology
 * as an {@link ImpactIndex} and asked per worklist entry or finding.
 *
 * - An HCA link (`hca-leaf`) hurts that host on that rail: the GPUs behind that HCA
 *   (GPUs per host / HCAs of the host; one on a DGX with 8 GPUs and 8 HCAs).
 * - A leaf uplink (`leaf-spine`) costs the leaf a share of its uplink bandwidth (the rate this
 *   cable lost over the expected rate of all the leaf's uplinks) and hurts every host under
 *   the leaf, through the GPUs behind the leaf's HCAs.
 * - A spine–core link (`spine-core`) joins the spine's pod (the leaves and spines connected
 *   without the cores) to the other pods under that core; it hurts the hosts of the spine's pod.
 *
 * The rail of an HCA is the `N` of `mlx5_N` in its NodeDescription by default (rail-optimised
 * DGX cabling: HCA N is cabled to the rail-N leaf). Sites whose descriptions differ pass their
 * own pattern (IBWATCH_RAIL_REGEX).
 */
import { hcaHost } from './nccl-scope.ts';
import { linkKey, portKey } from './findings.ts';
import type { EntryImpact } from './api/findings.ts';
import type { FabricTier } from './topology.ts';
import type { Guid, NodeType, PortRef } from './types.ts';

export interface ImpactNode {
  guid: Guid;
  type: NodeType;
  description: string;
  /** From `inferTopology`; null when unknown (such nodes add no hosts). */
  tier: FabricTier | null;
}

export interface ImpactLink {
  a: PortRef;
  b: PortRef;
  /** Current data rate in Gb/s: 0 when the link is down or gone, null when unknown. */
  rateGbps: number | null;
}

export interface ImpactOptions {
  /** GPUs per host (IBWATCH_GPUS_PER_HOST); default 8. */
  gpusPerHost?: number;
  /** Expected rate of every link in Gb/s (IBWATCH_EXPECTED_RATE); default the fastest rate seen. */
  expectedGbps?: number;
  /** Rail of an HCA from its NodeDescription; the first capture group is the rail. */
  railPattern?: RegExp;
}

export const DEFAULT_RAIL_PATTERN = /mlx\d+_(\d+)\s*$/;
export const DEFAULT_GPUS_PER_HOST = 8;

/** What a cable joins: the reply's vocabulary (api/findings.ts), so the two cannot drift. */
export type ImpactKind = EntryImpact['kind'];

/** A switch's uplinks and what the cable costs them. */
export interface UplinkLoss {
  /** The lower switch of the cable (the leaf of a leaf uplink, the spine of a spine–core link). */
  switchGuid: Guid;
  switchName: string;
  /** Uplinks of that switch and their expected total, Gb/s. */
  uplinks: number;
  totalGbps: number;
  /** Rate this cable lost against the expected rate, Gb/s, and its share of the total. */
  lostGbps: number;
  share: number;
  /** Share of the total lost now over all of the switch's uplinks (other bad cables included). */
  switchShare: number;
}

export interface BlastRadius {
  kind: ImpactKind;
  /** Host names, sorted. */
  hosts: string[];
  /** GPUs behind the cable (see the module comment). */
  gpus: number;
  /** Rails of the HCAs behind the cable, ascending. */
  rails: number[];
  uplink: UplinkLoss | null;
  /** Spine–core link: the pods it joins, the spine's own first; each named by its lowest switch. */
  pods: string[];
}

const RANK: Partial<Record<FabricTier, number>> = { hca: 0, leaf: 1, spine: 2, core: 3 };

interface HcaInfo {
  host: string;
  rail: number | null;
}

/** The topology prepared for {@link blastRadius}; build once per topology. */
export interface ImpactIndex {
  nodes: Map<Guid, ImpactNode>;
  hcas: Map<Guid, HcaInfo>;
  hcasPerHost: Map<string, number>;
  /** HCAs cabled to each leaf. */
  hcasUnder: Map<Guid, Guid[]>;
  /** Links to the tier above, per switch. */
  uplinks: Map<Guid, ImpactLink[]>;
  /** Switches (leaf, spine) of each pod, by pod label; pod label of every leaf and spine. */
  podOf: Map<Guid, string>;
  podMembers: Map<string, Guid[]>;
  /** Core -> pods under it. */
  podsUnderCore: Map<Guid, Set<string>>;
  linkByPort: Map<string, ImpactLink>;
  gpusPerHost: number;
  expectedGbps: number;
}

const rankOf = (n: ImpactNode | undefined): number | undefined => (n?.tier ? RANK[n.tier] : undefined);

export function impactIndex(
  graph: { nodes: readonly ImpactNode[]; links: readonly ImpactLink[] },
  opts: ImpactOptions = {},
): ImpactIndex {
  const pattern = opts.railPattern ?? DEFAULT_RAIL_PATTERN;
  const index: ImpactIndex = {
    nodes: new Map(graph.nodes.map((n) => [n.guid, n])),
    hcas: new Map(),
    hcasPerHost: new Map(),
    hcasUnder: new Map(),
    uplinks: new Map(),
    podOf: new Map(),
    podMembers: new Map(),
    podsUnderCore: new Map(),
    linkByPort: new Map(),
    gpusPerHost: opts.gpusPerHost ?? DEFAULT_GPUS_PER_HOST,
    expectedGbps: opts.expectedGbps ?? Math.max(0, ...graph.links.map((l) => l.rateGbps ?? 0)),
  };
  for (const n of graph.nodes) {
    if (n.type !== 'ca' || n.tier !== 'hca') continue;
    const host = hcaHost(n.description) ?? n.description;
    const m = pattern.exec(n.description);
    index.hcas.set(n.guid, { host, rail: m?.[1] !== undefined ? Number(m[1]) : null });
    index.hcasPerHost.set(host, (index.hcasPerHost.get(host) ?? 0) + 1);
  }
  // Pods: leaves and spines joined by leaf–spine links (union-find), cores left out.
  const parent = new Map<Guid, Guid>();
  const find = (x: Guid): Guid => {
    let r = x;
    while (parent.get(r) !== undefined && parent.get(r) !== r) r = parent.get(r)!;
    parent.set(x, r);
    return r;
  };
  const push = <K, V>(m: Map<K, V[]>, k: K, v: V) => (m.get(k) ?? m.set(k, []).get(k)!).push(v);
  for (const l of graph.links) {
    index.linkByPort.set(portKey(l.a), l);
    index.linkByPort.set(portKey(l.b), l);
    const na = index.nodes.get(l.a.nodeGuid);
    const nb = index.nodes.get(l.b.nodeGuid);
    const ra = rankOf(na);
    const rb = rankOf(nb);
    if (ra === undefined || rb === undefined || ra === rb) continue;
    const [low, high] = ra < rb ? [na!, nb!] : [nb!, na!];
    const lowRank = Math.min(ra, rb);
    if (lowRank === 0) push(index.hcasUnder, high.guid, low.guid);
    else push(index.uplinks, low.guid, l);
    if (lowRank === 1 && high.tier === 'spine') {
      for (const g of [low.guid, high.guid]) if (!parent.has(g)) parent.set(g, g);
      parent.set(find(low.guid), find(high.guid));
    }
  }
  const label = new Map<Guid, string>();
  const name = (g: Guid) => index.nodes.get(g)?.description ?? g;
  for (const g of parent.keys()) {
    const root = find(g);
    const cur = label.get(root);
    if (cur === undefined || name(g) < cur) label.set(root, name(g));
  }
  for (const g of parent.keys()) {
    const pod = label.get(find(g))!;
    index.podOf.set(g, pod);
    push(index.podMembers, pod, g);
  }
  for (const [low, ups] of index.uplinks) {
    const pod = index.podOf.get(low);
    if (pod === undefined || index.nodes.get(low)?.tier !== 'spine') continue;
    for (const l of ups) {
      const core = l.a.nodeGuid === low ? l.b.nodeGuid : l.a.nodeGuid;
      (index.podsUnderCore.get(core) ?? index.podsUnderCore.set(core, new Set()).get(core)!).add(pod);
    }
  }
  return index;
}

/** Rate a link lost against the expected rate (a link of unknown rate lost nothing known). */
function lost(index: ImpactIndex, l: ImpactLink): number {
  return l.rateGbps === null ? 0 : Math.max(0, index.expectedGbps - l.rateGbps);
}

function uplinkLoss(index: ImpactIndex, sw: Guid, cable: ImpactLink | undefined): UplinkLoss {
  const ups = index.uplinks.get(sw) ?? [];
  const totalGbps = ups.length * index.expectedGbps;
  const lostGbps = cable ? lost(index, cable) : index.expectedGbps;
  const all = ups.reduce((s, l) => s + lost(index, l), 0);
  return {
    switchGuid: sw,
    switchName: index.nodes.get(sw)?.description ?? sw,
    uplinks: ups.length,
    totalGbps,
    lostGbps,
    share: totalGbps > 0 ? lostGbps / totalGbps : 0,
    switchShare: totalGbps > 0 ? all / totalGbps : 0,
  };
}

/** Hosts, GPUs and rails behind a set of HCAs. */
function behind(index: ImpactIndex, hcas: Iterable<Guid>): Pick<BlastRadius, 'hosts' | 'gpus' | 'rails'> {
  const hosts = new Set<string>();
  const rails = new Set<number>();
  let gpus = 0;
  for (const g of hcas) {
    const h = index.hcas.get(g);
    if (!h) continue;
    hosts.add(h.host);
    if (h.rail !== null) rails.add(h.rail);
    gpus += index.gpusPerHost / (index.hcasPerHost.get(h.host) ?? 1);
  }
  return { hosts: [...hosts].sort(), gpus: Math.round(gpus), rails: [...rails].sort((x, y) => x - y) };
}

const NONE: BlastRadius = { kind: 'unknown', hosts: [], gpus: 0, rails: [], uplink: null, pods: [] };

/**
 * The blast radius of a cable given by its ends (one end when the peer is unknown, e.g. an
 * HCA port that is down). Linear in the hosts behind it.
 */
export function blastRadius(index: ImpactIndex, ends: readonly PortRef[]): BlastRadius {
  const nodes = ends.map((e) => index.nodes.get(e.nodeGuid));
  const ranks = nodes.map(rankOf);
  const hca = ends.find((e) => index.hcas.has(e.nodeGuid));
  if (hca) return { ...NONE, kind: 'hca-link', ...behind(index, [hca.nodeGuid]) };
  if (ends.length !== 2 || ranks.some((r) => r === undefined)) return NONE;
  const lowIdx = ranks[0]! <= ranks[1]! ? 0 : 1;
  const low = nodes[lowIdx]!;
  const high = nodes[1 - lowIdx]!;
  const cable = index.linkByPort.get(portKey(ends[0]!));
  const sameCable = cable && linkKey(cable.a, cable.b) === linkKey(ends[0]!, ends[1]!) ? cable : undefined;
  if (low.tier === 'leaf') {
    return {
      ...NONE,
      kind: 'leaf-uplink',
      ...behind(index, index.hcasUnder.get(low.guid) ?? []),
      uplink: uplinkLoss(index, low.guid, sameCable),
    };
  }
  if (low.tier === 'spine' && high.tier === 'core') {
    const pod = index.podOf.get(low.guid);
    const leaves = (pod === undefined ? [] : (index.podMembers.get(pod) ?? [])).filter(
      (g) => index.nodes.get(g)?.tier === 'leaf',
    );
    const others = [...(index.podsUnderCore.get(high.guid) ?? [])].filter((p) => p !== pod).sort();
    return {
      ...NONE,
      kind: 'spine-core',
      ...behind(
        index,
        leaves.flatMap((l) => index.hcasUnder.get(l) ?? []),
      ),
      uplink: uplinkLoss(index, low.guid, sameCable),
      pods: pod === undefined ? others : [pod, ...others],
    };
  }
  return NONE;
}
