import { linkKey, portKey, type Verdict } from './findings.ts';
import { PortIndex } from './port-index.ts';
import { asymmetry } from './topology-asymmetry.ts';
import type { FabricLink, FabricNode, FabricSnapshot, Guid, PortRef } from './types.ts';

export type { FabricTier, LinkTier, TopologyModel } from './topology-model.ts';
export { linkTierOf, linkTiersOf } from './topology-model.ts';
import { linkTierOf, noteModelLinks, type FabricTier, type LinkTier, type TopologyModel } from './topology-model.ts';

type Graph = Pick<FabricSnapshot, 'nodes' | 'links'>;

const RAIL_RE = /\bmlx5_(\d+)\b/;

function isAggregationNode(n: FabricNode, nodes: Map<Guid, FabricNode>, peers: Guid[] | undefined): boolean {
  if (n.type !== 'ca') return false;
  if (/aggregation node/i.test(n.description)) return true;
  if (!n.systemImageGuid) return false;
  return (peers ?? []).some((p) => {
    const s = nodes.get(p);
    return s?.type === 'switch' && (s.guid === n.systemImageGuid || s.systemImageGuid === n.systemImageGuid);
  });
}

/** Infer tiers, link tiers and rails. Linear in nodes + links (multi-source BFS from the HCAs). */
export function inferTopology(g: Graph): TopologyModel {
  const links = g.links;
  const nodes = new Map<Guid, FabricNode>();
  for (const n of g.nodes) nodes.set(n.guid, n);
  const adj = new Map<Guid, Guid[]>();
  const push = (x: Guid, y: Guid) => {
    const l = adj.get(x);
    if (l) l.push(y);
    else adj.set(x, [y]);
  };
  for (const l of g.links) {
    push(l.a.nodeGuid, l.b.nodeGuid);
    push(l.b.nodeGuid, l.a.nodeGuid);
  }
  const tiers = new Map<Guid, FabricTier>();
  const dist = new Map<Guid, number>();
  const queue: Guid[] = [];
  for (const n of g.nodes) {
    if (n.type !== 'ca') continue;
    if (isAggregationNode(n, nodes, adj.get(n.guid))) {
      tiers.set(n.guid, 'aggregation');
      continue;
    }
    tiers.set(n.guid, 'hca');
    dist.set(n.guid, 0);
    queue.push(n.guid);
  }
  for (let i = 0; i < queue.length; i++) {
    const u = queue[i]!;
    const d = dist.get(u)! + 1;
    for (const v of adj.get(u) ?? []) {
      if (dist.has(v) || nodes.get(v)?.type !== 'switch') continue;
      dist.set(v, d);
      queue.push(v);
    }
  }
  for (const n of g.nodes) {
    if (tiers.has(n.guid)) continue;
    const d = dist.get(n.guid);
    tiers.set(n.guid, d === undefined ? 'unknown' : d === 1 ? 'leaf' : d === 2 ? 'spine' : 'core');
  }
  const rails = new Map<Guid, number>();
  for (const n of g.nodes) {
    const m = tiers.get(n.guid) === 'hca' ? RAIL_RE.exec(n.description) : null;
    if (m) rails.set(n.guid, Number(m[1]));
  }
  const leafRails = new Map<Guid, { rail: number; share: number; hcas: number }>();
  for (const [guid, t] of tiers) {
    if (t !== 'leaf') continue;
    const count = new Map<number, number>();
    let total = 0;
    for (const p of adj.get(guid) ?? []) {
      const r = rails.get(p);
      if (r === undefined) continue;
      count.set(r, (count.get(r) ?? 0) + 1);
      total++;
    }
    let best: [number, number] | undefined;
    for (const e of count) if (!best || e[1] > best[1] || (e[1] === best[1] && e[0] < best[0])) best = e;
    if (best) leafRails.set(guid, { rail: best[0], share: best[1] / total, hcas: total });
  }
  const counts: Record<FabricTier, number> = { hca: 0, leaf: 0, spine: 0, core: 0, aggregation: 0, unknown: 0 };
  for (const t of tiers.values()) counts[t]++;
  // linkTiers is built on first read: a `linkKey` string and a Map entry per link (136k at 45k
  // GPUs) that the collector's scan never reads; it takes a link's tier from its ends' tiers.
  let linkTiers: Map<string, LinkTier> | undefined;
  const model = {
    tiers,
    get linkTiers(): Map<string, LinkTier> {
      if (linkTiers === undefined) {
        linkTiers = new Map();
        for (const l of links)
          linkTiers.set(linkKey(l.a, l.b), linkTierOf(tiers.get(l.a.nodeGuid), tiers.get(l.b.nodeGuid)));
      }
      return linkTiers;
    },
    rails,
    leafRails,
    counts,
  };
  noteModelLinks(model, links);
  return model;
}

export interface TopologyCheckOptions {
  /** Previous scan or a saved baseline topology: links missing from `current` are reported. */
  baseline?: Graph;
  /** A leaf is a rail leaf when at least this share of its HCAs is on one rail. Default 0.75. */
  railMajority?: number;
  nodeName?: (guid: Guid) => string | undefined;
}

/**
 * Topology anomalies:
 * - `topology-wrong-rail` (major): HCA `... mlx5_N` on a rail leaf whose majority rail is M≠N
 *   (only for leaves with ≥ `railMajority` of ≥ 3 HCAs on one rail, so fabrics that are not
 *   rail-optimised raise nothing).
 * - `topology-node-missing` (major): a node of the baseline is gone (its links are not listed).
 * - `topology-link-missing` (major): a baseline link is gone while both nodes are present.
 * - `topology-link-moved` (major): a baseline port is now cabled to another peer or port
 *   (wrong port after maintenance).
 * - `topology-asymmetric-up|down` (minor; major below half): a switch has fewer (or more) up
 *   links (leaf, spine) or down links (spine, core) than most of its pod siblings (cores: links
 *   into one pod versus the other cores reaching it); see {@link asymmetry}.
 */
export function topologyAnomalies(model: TopologyModel, current: Graph, opts: TopologyCheckOptions = {}): Verdict[] {
  // Names are only made for verdicts (a healthy fabric has none): the map is built on first need.
  let desc: Map<Guid, string> | undefined;
  const described = (): Map<Guid, string> => {
    if (desc) return desc;
    desc = new Map();
    for (const n of current.nodes) desc.set(n.guid, n.description);
    for (const n of opts.baseline?.nodes ?? []) if (!desc.has(n.guid)) desc.set(n.guid, n.description);
    return desc;
  };
  const name = (g: Guid) => opts.nodeName?.(g) ?? described().get(g) ?? g;
  const pl = (p: PortRef) => `${name(p.nodeGuid)} port ${p.portNum}`;
  const out: Verdict[] = [];
  const majority = opts.railMajority ?? 0.75;

  // Each end as the HCA, the a end first; no pair arrays per link (136k links at 45k GPUs).
  const wrongRail = (l: FabricLink, h: PortRef, s: PortRef): void => {
    const rail = model.rails.get(h.nodeGuid);
    if (rail === undefined) return;
    const lr = model.leafRails.get(s.nodeGuid);
    if (!lr || lr.hcas < 3 || lr.share < majority || lr.rail === rail) return;
    out.push({
      kind: 'topology-wrong-rail',
      severity: 'major',
      subject: { kind: 'link', a: l.a, b: l.b },
      title: `${pl(h)} (rail ${rail}) is cabled to ${pl(s)}, a rail-${lr.rail} leaf`,
      short: `wrong rail: mlx5_${rail} on rail-${lr.rail} leaf`,
      evidence: { hcaRail: rail, leafRail: lr.rail, leafRailShare: lr.share, leafHcas: lr.hcas },
    });
  };
  for (const l of current.links) {
    wrongRail(l, l.a, l.b);
    wrongRail(l, l.b, l.a);
  }

  if (opts.baseline) out.push(...missingVsBaseline(opts.baseline, current, pl, name));
  out.push(...asymmetry(model, current, name));
  return out;
}

function missingVsBaseline(base: Graph, cur: Graph, pl: (p: PortRef) => string, name: (g: Guid) => string): Verdict[] {
  const out: Verdict[] = [];
  const curNodes = new Set(cur.nodes.map((n) => n.guid));
  // The peers of each port now, the last listing winning, by GUID and port number: a string key
  // per port and link (~270k ports at 45k GPUs, each scan) was most of this check's time.
  const peerNow = new PortIndex<PortRef>();
  for (const l of cur.links) {
    peerNow.set(l.a.nodeGuid, l.a.portNum, l.b);
    peerNow.set(l.b.nodeGuid, l.b.portNum, l.a);
  }
  const isPeer = (x: PortRef, y: PortRef) => {
    const p = peerNow.get(x.nodeGuid, x.portNum);
    return p !== undefined && p.nodeGuid === y.nodeGuid && p.portNum === y.portNum;
  };
  // Exact membership only for a link the peers above do not show (a port listed twice): built
  // at most once, and only when the fabric changed.
  let curLinks: Set<string> | undefined;
  const isCurrent = (l: { a: PortRef; b: PortRef }) =>
    isPeer(l.a, l.b) ||
    isPeer(l.b, l.a) ||
    (curLinks ??= new Set(cur.links.map((c) => linkKey(c.a, c.b)))).has(linkKey(l.a, l.b));
  for (const n of base.nodes) {
    if (curNodes.has(n.guid)) continue;
    out.push({
      kind: 'topology-node-missing',
      severity: 'major',
      subject: { kind: 'node', guid: n.guid },
      title: `${n.type === 'switch' ? 'Switch' : 'Node'} ${name(n.guid)} is missing from the fabric`,
      short: 'node missing',
      evidence: { guid: n.guid, type: n.type },
    });
  }
  for (const l of base.links) {
    if (isCurrent(l)) continue;
    if (!curNodes.has(l.a.nodeGuid) || !curNodes.has(l.b.nodeGuid)) continue; // reported as node-missing
    const moved = (
      [
        [l.a, l.b],
        [l.b, l.a],
      ] as const
    ).find(([x]) => peerNow.get(x.nodeGuid, x.portNum) !== undefined);
    if (moved) {
      const [x, was] = moved;
      const now = peerNow.get(x.nodeGuid, x.portNum)!;
      out.push({
        kind: 'topology-link-moved',
        severity: 'major',
        subject: { kind: 'link', a: l.a, b: l.b },
        title: `${pl(x)} is cabled to ${pl(now)}; the baseline had ${pl(was)}`,
        short: `wrong port: ${pl(now)} instead of ${pl(was)}`,
        evidence: { port: portKey(x), expectedPeer: portKey(was), actualPeer: portKey(now) },
      });
      continue;
    }
    out.push({
      kind: 'topology-link-missing',
      severity: 'major',
      subject: { kind: 'link', a: l.a, b: l.b },
      title: `Link ${pl(l.a)} <-> ${pl(l.b)} is missing`,
      short: 'link missing',
      evidence: { a: portKey(l.a), b: portKey(l.b) },
    });
  }
  return out;
}
