/**
 * Pure indexes over a TopologyReply (built once per reply) and the searches the page runs on
 * them: by name / host / GUID, and a host's rails end to end.
 */
import { compareLinkEnds, normalizeGuid, type TopoLink, type TopoNode, type TopologyReply } from '@ibwatch/fabric';

export interface TopoIndex {
  reply: TopologyReply;
  nodeByGuid: Map<string, TopoNode>;
  /** guid → indices into reply.links. */
  linksOf: Map<string, number[]>;
  /** link id → index into reply.links. */
  linkIndexById: Map<number, number>;
  /** host name → HCA guids of that host. */
  hcasOfHost: Map<string, string[]>;
}

/**
 * The reply with every link's ends as end A, end B in the order every view uses: the switch
 * end first, the lower switch of the tree for an uplink (compareLinkEnds, as the worklist and
 * its CSV). The API lists them in storage order, which put the HCA first on some links.
 */
export function orientTopology(reply: TopologyReply): TopologyReply {
  const node = new Map(reply.nodes.map((n) => [n.guid, n]));
  const facts = (e: TopoLink['a']) => ({
    guid: e.guid,
    port: e.port,
    type: node.get(e.guid)?.type,
    tier: node.get(e.guid)?.tier,
  });
  let swapped = 0;
  const links = reply.links.map((l) => {
    if (compareLinkEnds(facts(l.a), facts(l.b)) <= 0) return l;
    swapped++;
    return { ...l, a: l.b, b: l.a };
  });
  return swapped ? { ...reply, links } : reply;
}

/**
 * What the link panel says of a link's rate. A down link has none: the API's width and speed
 * are one end's as last stored (null on the dark switch end, the old value on an unreachable
 * HCA), so they are not shown as if the link were running.
 */
export function linkRateText(l: Pick<TopoLink, 'health' | 'widthActive' | 'speedActive'>): string {
  if (l.health === 'down') return 'Down: not trained (no active width or speed)';
  if (!l.widthActive && !l.speedActive) return 'Active width and speed unknown';
  return `Active: ${l.widthActive ?? 'width unknown'} ${l.speedActive ?? 'speed unknown'}`;
}

export function indexTopology(reply: TopologyReply): TopoIndex {
  const nodeByGuid = new Map<string, TopoNode>();
  const hcasOfHost = new Map<string, string[]>();
  for (const n of reply.nodes) {
    nodeByGuid.set(n.guid, n);
    if (n.host) {
      const l = hcasOfHost.get(n.host);
      if (l) l.push(n.guid);
      else hcasOfHost.set(n.host, [n.guid]);
    }
  }
  const linksOf = new Map<string, number[]>();
  const linkIndexById = new Map<number, number>();
  reply.links.forEach((l, i) => {
    linkIndexById.set(l.id, i);
    for (const g of [l.a.guid, l.b.guid]) {
      const arr = linksOf.get(g);
      if (arr) arr.push(i);
      else linksOf.set(g, [i]);
    }
  });
  return { reply, nodeByGuid, linksOf, linkIndexById, hcasOfHost };
}

export interface SearchHit {
  guid: string;
  name: string;
  what: 'switch' | 'hca' | 'host' | 'aggregation';
  /** For host hits: the host name (highlights its rails). */
  host?: string;
}

/** Normalise what people paste as a GUID: `0002C903...`, `0x0002c903...`, with colons. */
function guidish(q: string): string | null {
  const s = q.toLowerCase().replace(/[:\s]/g, '');
  const hex = s.startsWith('0x') ? s.slice(2) : s;
  return /^[0-9a-f]{4,16}$/.test(hex) ? hex : null;
}

/**
 * Find nodes by switch name, host name or GUID (substring, case-insensitive). An exact host
 * match comes first as a `host` hit; exact name/GUID matches rank before substrings.
 */
export function searchTopology(idx: TopoIndex, query: string, limit = 20): SearchHit[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const g = guidish(q);
  const exactGuid = g ? normalizeGuid(g) : undefined;
  const exact: SearchHit[] = [];
  const partial: SearchHit[] = [];
  const hosts = new Set<string>();
  for (const n of idx.reply.nodes) {
    const name = n.name.toLowerCase();
    const hex = n.guid.slice(2);
    const host = n.host?.toLowerCase() ?? null;
    if (n.host && host && host.includes(q) && !hosts.has(n.host)) {
      hosts.add(n.host);
      const hit: SearchHit = { guid: n.guid, name: n.host, what: 'host', host: n.host };
      (host === q ? exact : partial).push(hit);
    }
    const what = n.tier === 'aggregation' ? 'aggregation' : n.type === 'switch' ? 'switch' : 'hca';
    if (name === q || n.guid === exactGuid) exact.push({ guid: n.guid, name: n.name, what });
    else if (name.includes(q) || (g && hex.includes(g))) partial.push({ guid: n.guid, name: n.name, what });
    if (exact.length >= limit) break;
  }
  return [...exact, ...partial].slice(0, limit);
}

export interface Highlight {
  nodes: Set<string>;
  links: Set<number>;
}

/**
 * A host's rails end to end: its HCAs, their links to the leaves, the leaves, and the leaves'
 * uplinks to the spines (the part of the tree that carries this host's traffic first).
 */
export function hostRails(idx: TopoIndex, host: string): Highlight {
  const nodes = new Set<string>();
  const links = new Set<number>();
  const hcas = idx.hcasOfHost.get(host) ?? [];
  const leaves = new Set<string>();
  for (const h of hcas) {
    nodes.add(h);
    for (const li of idx.linksOf.get(h) ?? []) {
      const l = idx.reply.links[li];
      links.add(l.id);
      const other = l.a.guid === h ? l.b.guid : l.a.guid;
      nodes.add(other);
      if (idx.nodeByGuid.get(other)?.tier === 'leaf') leaves.add(other);
    }
  }
  for (const leaf of leaves) {
    for (const li of idx.linksOf.get(leaf) ?? []) {
      const l = idx.reply.links[li];
      if (l.tier !== 'leaf-spine') continue;
      links.add(l.id);
      nodes.add(l.a.guid === leaf ? l.b.guid : l.a.guid);
    }
  }
  return { nodes, links };
}

/** The end of `link` that is not `guid` (or `a` when neither). */
export function otherEnd(link: TopoLink, guid: string) {
  return link.a.guid === guid ? link.b : link.a;
}

/** Selection as kept in the URL: `n:<guid>` (node), `g:<leaf guid>` (HCA group), `l:<link id>`. */
export type Selection =
  | { type: 'node'; guid: string }
  | { type: 'group'; leaf: string }
  | { type: 'link'; id: number }
  | null;

export function parseSelection(s: string | undefined): Selection {
  if (!s) return null;
  const [t, ...rest] = s.split(':');
  const v = rest.join(':');
  if (t === 'n' && v) return { type: 'node', guid: v };
  if (t === 'g') return { type: 'group', leaf: v };
  if (t === 'l' && /^\d+$/.test(v)) return { type: 'link', id: Number(v) };
  return null;
}

export function serializeSelection(s: Selection): string | null {
  if (!s) return null;
  if (s.type === 'node') return `n:${s.guid}`;
  if (s.type === 'group') return `g:${s.leaf}`;
  return `l:${s.id}`;
}
