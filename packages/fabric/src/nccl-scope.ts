/**
 * Which part of the fabric an nccl-tests run used: the hosts its rank lines name
 * (`#  Rank  0 Group  0 Pid  31000 on dgx-0001 device  0 [0000:18:00] NVIDIA H100 80GB HBM3`)
 * are matched to HCAs by their NodeDescription (`dgx-0001 mlx5_0`), and from those HCAs the
 * scope climbs the tiers — leaves, then spines, then cores — only as far as needed to join
 * all the hosts. Fabric findings on that part (HCA ports, links, switches) are the suspects
 * for a slow run; findings elsewhere in the fabric are not.
 *
 * A host joins its own HCAs (NVLink and PXN move data to the NIC of the right rail), so on a
 * rail-optimised fat-tree the hosts of one scalable unit meet at their rail leaves and the
 * spines are not part of the run; hosts in two pods reach up to the cores.
 */
import { linkKey, portKey } from './findings.ts';
import type { FabricTier } from './topology.ts';
import type { Guid, NodeType, PortRef } from './types.ts';

/** What the scope needs of a node: its type, NodeDescription and inferred tier. */
export interface ScopeNode {
  guid: Guid;
  type: NodeType;
  description: string;
  /** From `inferTopology` (stored with the topology); nodes without one are never climbed into. */
  tier: FabricTier | null;
}

export interface ScopeGraph {
  nodes: readonly ScopeNode[];
  links: readonly { a: PortRef; b: PortRef }[];
}

/** The part of the fabric a run used. */
export interface RunFabricScope {
  /** Hosts found in the topology, with their HCAs. */
  hosts: { host: string; hcas: Guid[] }[];
  /** Hosts of the run with no HCA in the topology. */
  unmatchedHosts: string[];
  /** The HCAs of the run's hosts. */
  hcas: Set<Guid>;
  /** HCAs and switches on the run's paths. */
  nodes: Set<Guid>;
  /** {@link linkKey}s of the links on the run's paths. */
  links: Set<string>;
  /** {@link portKey}s of the ends of those links and of every port of the run's HCAs. */
  ports: Set<string>;
  /** Switch tiers the scope reached, lowest first (`leaf`, then `spine`, `core`). */
  tiers: FabricTier[];
}

const TIER_RANK: Partial<Record<FabricTier, number>> = { hca: 0, leaf: 1, spine: 2, core: 3 };
const TIERS_BY_RANK: (FabricTier | undefined)[] = ['hca', 'leaf', 'spine', 'core'];

/**
 * The host part of an HCA's NodeDescription: `dgx-0042` of `dgx-0042 mlx5_3` (the default
 * description is `<hostname> <device>`; some firmware writes `<hostname> HCA-1`).
 */
export function hcaHost(description: string): string | null {
  const m = /^(\S+)\s+mlx\d+_\d+/.exec(description) ?? /^(\S+)\s+HCA-\d+/.exec(description);
  return m ? m[1]! : null;
}

/** Host names compared without case and domain: `DGX-0001.cluster.local` is `dgx-0001`. */
function hostKey(host: string): string {
  return host.toLowerCase().split('.')[0]!;
}

/**
 * The topology prepared for {@link runFabricScope}: each node's tier rank, its links to the tier
 * above, and the HCAs of each host. Linear in nodes + links; build it once per topology (a
 * 10k-GPU fabric has 31k links) and scope any number of runs on it.
 */
export interface ScopeIndex {
  rank: Map<Guid, number>;
  up: Map<Guid, { to: Guid; link: { a: PortRef; b: PortRef } }[]>;
  /** By {@link hostKey}. */
  hcasByHost: Map<string, Guid[]>;
}

export function scopeIndex(graph: ScopeGraph): ScopeIndex {
  const index: ScopeIndex = { rank: new Map(), up: new Map(), hcasByHost: new Map() };
  for (const n of graph.nodes) {
    const r = n.tier === null ? undefined : TIER_RANK[n.tier];
    if (r !== undefined) index.rank.set(n.guid, r);
    if (n.type !== 'ca' || n.tier !== 'hca') continue;
    const host = hcaHost(n.description);
    if (host === null) continue;
    const list = index.hcasByHost.get(hostKey(host));
    if (list) list.push(n.guid);
    else index.hcasByHost.set(hostKey(host), [n.guid]);
  }
  for (const link of graph.links) {
    const ra = index.rank.get(link.a.nodeGuid);
    const rb = index.rank.get(link.b.nodeGuid);
    if (ra === undefined || rb === undefined || ra === rb) continue;
    const [low, high] = ra < rb ? [link.a.nodeGuid, link.b.nodeGuid] : [link.b.nodeGuid, link.a.nodeGuid];
    const list = index.up.get(low);
    if (list) list.push({ to: high, link });
    else index.up.set(low, [{ to: high, link }]);
  }
  return index;
}

/** The HCAs, links and switches the run on `hosts` used; see the module comment. */
export function runFabricScope(topology: ScopeGraph | ScopeIndex, hosts: readonly string[]): RunFabricScope {
  const { rank, up, hcasByHost } = 'up' in topology ? topology : scopeIndex(topology);
  const wanted = new Map<string, string>();
  for (const h of hosts) if (!wanted.has(hostKey(h))) wanted.set(hostKey(h), h);
  const hcasOf = new Map<string, Guid[]>();
  const hostOfHca = new Map<Guid, string>();
  for (const key of wanted.keys()) {
    const hcas = hcasByHost.get(key);
    if (!hcas) continue;
    hcasOf.set(key, hcas);
    for (const h of hcas) hostOfHca.set(h, key);
  }

  const scope: RunFabricScope = {
    hosts: [...hcasOf].map(([key, hcas]) => ({ host: wanted.get(key)!, hcas })),
    unmatchedHosts: [...wanted].filter(([key]) => !hcasOf.has(key)).map(([, host]) => host),
    hcas: new Set(hostOfHca.keys()),
    nodes: new Set(hostOfHca.keys()),
    links: new Set(),
    ports: new Set(),
    tiers: [],
  };
  // Union-find over the scope's nodes, each host joined to its HCAs.
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let r = x;
    for (let p = parent.get(r); p !== undefined && p !== r; p = parent.get(r)) r = p;
    parent.set(x, r);
    return r;
  };
  const join = (x: string, y: string): void => {
    parent.set(find(x), find(y));
  };
  for (const [hca, key] of hostOfHca) join(`host:${key}`, hca);
  const joined = (): boolean => new Set([...hcasOf.keys()].map((k) => find(`host:${k}`))).size <= 1;

  let frontier = [...hostOfHca.keys()];
  while (frontier.length > 0) {
    const next = new Set<Guid>();
    for (const u of frontier) {
      for (const e of up.get(u) ?? []) {
        scope.links.add(linkKey(e.link.a, e.link.b));
        scope.ports.add(portKey(e.link.a));
        scope.ports.add(portKey(e.link.b));
        join(u, e.to);
        next.add(e.to);
      }
    }
    const added = [...next].filter((g) => !scope.nodes.has(g));
    for (const g of added) {
      scope.nodes.add(g);
      const tier = TIERS_BY_RANK[rank.get(g)!];
      if (tier && !scope.tiers.includes(tier)) scope.tiers.push(tier);
    }
    if (joined()) break;
    frontier = added;
  }
  return scope;
}

/**
 * Whether a finding with this subject key (`port:<guid>/<n>`, `link:<a>~<b>`, `node:<guid>`)
 * is on the run's part of the fabric. A port counts when it ends one of the run's links or
 * belongs to one of its HCAs.
 */
export function findingInScope(scope: RunFabricScope, subjectKey: string): boolean {
  const colon = subjectKey.indexOf(':');
  const kind = subjectKey.slice(0, colon);
  const rest = subjectKey.slice(colon + 1);
  if (kind === 'link') return scope.links.has(rest);
  if (kind === 'node') return scope.nodes.has(rest);
  if (kind === 'port') return scope.ports.has(rest) || scope.hcas.has(rest.slice(0, rest.lastIndexOf('/')));
  return false;
}
