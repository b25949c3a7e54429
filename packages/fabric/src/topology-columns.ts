/**
 * The columns of `GET /api/topology` (format 2, see api/topology.ts) from nodes and links as
 * objects, and back. The collector builds its reply with `topologyColumnsOf`; tests and readers
 * that want objects use `topologyObjects` (at 45k GPUs that costs ~0.7 s, so the dashboard's
 * layout reads the columns instead).
 */
import { TIERS, type LinkHealth } from './api/common.ts';
import type { LinkEnd, TopoLink, TopoNode, TopologyReply, TopoVocab } from './api/topology.ts';

/** What the codes of the columns stand for (sent in every reply as `vocab`). */
export const TOPO_VOCAB: TopoVocab = {
  nodeType: ['switch', 'ca', 'router'],
  tier: [...TIERS],
  linkTier: ['hca-leaf', 'leaf-spine', 'spine-core', 'other'],
  width: ['1X', '2X', '4X', '8X', '12X'],
  speed: ['SDR', 'DDR', 'QDR', 'FDR10', 'FDR', 'EDR', 'HDR', 'NDR', 'XDR'],
};

/** The object form: what format 1 of the reply was. */
export interface TopologyObjects {
  generatedAt: number;
  nodes: TopoNode[];
  links: TopoLink[];
}

/** One link as the builder reads it: ends by GUID, with their port's LID. */
export interface TopoLinkRow {
  id: number;
  a: string;
  aPort: number;
  aLid: number | null;
  b: string;
  bPort: number;
  bLid: number | null;
  tier: TopoLink['tier'];
  width: TopoLink['widthActive'];
  speed: TopoLink['speedActive'];
  health: LinkHealth;
  reason: string | null;
}

const collator = new Intl.Collator('en', { numeric: true });
const TIER_RANK = new Map<string, number>(TIERS.map((t, i) => [t, i]));

/**
 * Node indices in the order the reply lists nodes: tier, then (HCAs) host, then name, in
 * natural order, then GUID. The topology view draws each row in this order, so the browser
 * sorts nothing by name (a profile put 2.2 s of its layout at 45k GPUs in collator compares).
 */
export function topoNodeOrder(nodes: readonly TopoNode[]): number[] {
  const order = nodes.map((_, i) => i);
  const rank = nodes.map((n) => TIER_RANK.get(n.tier) ?? TIERS.length);
  return order.sort((x, y) => {
    const nx = nodes[x];
    const ny = nodes[y];
    return (
      rank[x] - rank[y] ||
      (nx.tier === 'hca' ? collator.compare(nx.host ?? '', ny.host ?? '') : 0) ||
      collator.compare(nx.name, ny.name) ||
      (nx.guid < ny.guid ? -1 : nx.guid > ny.guid ? 1 : 0)
    );
  });
}

const codes = <T extends string>(vocab: readonly T[]) => new Map<string, number>(vocab.map((v, i) => [v, i]));

/**
 * The reply's columns from nodes (any order) and link rows (in the order to send: by id). A link
 * whose end is not one of the nodes cannot be sent (an end is a node index) and is left out.
 */
export function topologyColumnsOf(
  generatedAt: number,
  nodes: readonly TopoNode[],
  links: Iterable<TopoLinkRow>,
): TopologyReply {
  const order = topoNodeOrder(nodes);
  const sorted = order.map((i) => nodes[i]);
  const indexOf = new Map<string, number>(sorted.map((n, i) => [n.guid, i]));
  const type = codes(TOPO_VOCAB.nodeType);
  const tier = codes(TOPO_VOCAB.tier);
  const linkTier = codes(TOPO_VOCAB.linkTier);
  const width = codes(TOPO_VOCAB.width);
  const speed = codes(TOPO_VOCAB.speed);
  const reply: TopologyReply = {
    format: 2,
    generatedAt,
    vocab: TOPO_VOCAB,
    nodes: {
      guid: sorted.map((n) => n.guid),
      name: sorted.map((n) => n.name),
      type: sorted.map((n) => type.get(n.type) ?? 0),
      tier: sorted.map((n) => tier.get(n.tier) ?? tier.get('unknown')!),
      rail: sorted.map((n) => n.rail),
      rack: sorted.map((n) => n.rack),
      lid: sorted.map((n) => n.lid),
      endLid: [],
      host: sorted.map((n) => n.host),
    },
    links: { id: [], a: [], aPort: [], b: [], bPort: [], tier: [], width: [], speed: [] },
    endLids: [],
    problems: [],
  };
  // Each node's end LID: the one most of its link ends have (a majority vote, one pass), so that
  // `endLids` lists only the exceptions (a second port of an HCA, a switch port without a LID).
  const rows = [...links];
  const vote = new Float64Array(sorted.length).fill(Number.NaN);
  const votes = new Int32Array(sorted.length);
  const cast = (node: number, lid: number | null) => {
    const v = lid ?? -1;
    if (votes[node] === 0) {
      vote[node] = v;
      votes[node] = 1;
    } else votes[node] += vote[node] === v ? 1 : -1;
  };
  for (const r of rows) {
    const a = indexOf.get(r.a);
    const b = indexOf.get(r.b);
    if (a === undefined || b === undefined) continue;
    cast(a, r.aLid);
    cast(b, r.bLid);
  }
  const endLid = sorted.map((n, i) => (Number.isNaN(vote[i]) ? n.lid : vote[i] === -1 ? null : vote[i]));
  reply.nodes.endLid = endLid;
  const L = reply.links;
  for (const r of rows) {
    const a = indexOf.get(r.a);
    const b = indexOf.get(r.b);
    if (a === undefined || b === undefined) continue;
    const i = L.id.length;
    L.id.push(r.id);
    L.a.push(a);
    L.aPort.push(r.aPort);
    L.b.push(b);
    L.bPort.push(r.bPort);
    L.tier.push(linkTier.get(r.tier) ?? linkTier.get('other')!);
    L.width.push(r.width === null ? null : (width.get(r.width) ?? null));
    L.speed.push(r.speed === null ? null : (speed.get(r.speed) ?? null));
    if (r.aLid !== endLid[a]) reply.endLids.push([i, 0, r.aLid]);
    if (r.bLid !== endLid[b]) reply.endLids.push([i, 1, r.bLid]);
    if (r.health !== 'ok' || r.reason !== null) reply.problems.push([i, r.health, r.reason]);
  }
  return reply;
}

/** `topologyColumnsOf` for nodes and links as objects (format 1's `{generatedAt, nodes, links}`). */
export function topologyColumns(t: TopologyObjects): TopologyReply {
  return topologyColumnsOf(
    t.generatedAt,
    t.nodes,
    t.links.map((l) => ({
      id: l.id,
      a: l.a.guid,
      aPort: l.a.port,
      aLid: l.a.lid,
      b: l.b.guid,
      bPort: l.b.port,
      bLid: l.b.lid,
      tier: l.tier,
      width: l.widthActive,
      speed: l.speedActive,
      health: l.health,
      reason: l.reason,
    })),
  );
}

/** Node `i` of the reply as an object. */
export function topoNode(r: TopologyReply, i: number): TopoNode {
  const n = r.nodes;
  return {
    guid: n.guid[i],
    name: n.name[i],
    type: r.vocab.nodeType[n.type[i]],
    tier: r.vocab.tier[n.tier[i]] ?? 'unknown',
    rail: n.rail[i],
    rack: n.rack[i],
    lid: n.lid[i],
    host: n.host[i],
  };
}

/** Link ends' LIDs that are not their node's, keyed `2 * link index + end`. */
export function topoEndLids(r: TopologyReply): Map<number, number | null> {
  return new Map(r.endLids.map(([i, end, lid]) => [2 * i + end, lid]));
}

/** Health and reason of every link listed in `problems`, by link index. */
export function topoProblems(r: TopologyReply): Map<number, { health: LinkHealth; reason: string | null }> {
  return new Map(r.problems.map(([i, health, reason]) => [i, { health, reason }]));
}

/**
 * Link `i` of the reply as an object. `lids` and `problems`: `topoEndLids(r)` and
 * `topoProblems(r)`, made once by a caller that turns many links.
 */
export function topoLink(r: TopologyReply, i: number, lids = topoEndLids(r), problems = topoProblems(r)): TopoLink {
  const L = r.links;
  const end = (node: number, port: number, e: number): LinkEnd => ({
    guid: r.nodes.guid[node],
    name: r.nodes.name[node],
    port,
    lid: lids.has(2 * i + e) ? lids.get(2 * i + e)! : r.nodes.endLid[node],
    rack: r.nodes.rack[node],
  });
  const p = problems.get(i);
  const w = L.width[i];
  const s = L.speed[i];
  return {
    id: L.id[i],
    a: end(L.a[i], L.aPort[i], 0),
    b: end(L.b[i], L.bPort[i], 1),
    tier: r.vocab.linkTier[L.tier[i]] ?? 'other',
    health: p?.health ?? 'ok',
    widthActive: w === null ? null : r.vocab.width[w],
    speedActive: s === null ? null : r.vocab.speed[s],
    reason: p?.reason ?? null,
  };
}

/** The whole reply as objects (format 1's shape): for tests and small fabrics. */
export function topologyObjects(r: TopologyReply): TopologyObjects {
  const lids = topoEndLids(r);
  const problems = topoProblems(r);
  return {
    generatedAt: r.generatedAt,
    nodes: r.nodes.guid.map((_, i) => topoNode(r, i)),
    links: r.links.id.map((_, i) => topoLink(r, i, lids, problems)),
  };
}
