/**
 * Pure indexes over a TopologyReply (format 2: columns; built once per reply) and the searches
 * the page runs on them: by name / host / GUID, and a host's rails end to end. They read the
 * columns: at 45k GPUs turning them into objects cost ~0.7 s, what the columns save on parsing.
 */
import {
  linkEndRank,
  normalizeGuid,
  topoEndLids,
  topoLink,
  topoNode,
  topoProblems,
  type LinkHealth,
  type TopoLink,
  type TopoNode,
  type TopologyReply,
} from '../index.ts';

/** Health codes of `TopoIndex.health`, in HEALTH_RANK order (worse is larger). */
export const HEALTHS: readonly LinkHealth[] = ['ok', 'degraded', 'errors', 'down'];
const HEALTH_CODE = new Map(HEALTHS.map((h, i) => [h, i]));

export interface TopoIndex {
  reply: TopologyReply;
  nodeCount: number;
  linkCount: number;
  /**
   * Link ends as end A, end B in the order every view uses: the switch end first, the lower
   * switch of the tree for an uplink (compareLinkEnds, as the worklist and its CSV). The API
   * lists them in storage order, which puts the HCA first on some links. Node index and port.
   */
  endA: Int32Array;
  portA: Int32Array;
  endB: Int32Array;
  portB: Int32Array;
  /** 1 where end A is the reply's end B. */
  swapped: Uint8Array;
  /** Health of each link, as an index into HEALTHS. */
  health: Uint8Array;
  /** Tier of each node (a tier this code does not know reads `unknown`). */
  tierOf: TopoNode['tier'][];
  /** Tier of each link. */
  linkTierOf: TopoLink['tier'][];
  /** Indices of the links not ok, in link order. */
  problems: number[];
  /** guid → node index. */
  nodeIndex: Map<string, number>;
  /** Link index of the link with this id (undefined when not in the reply). */
  linkIndexOf(id: number): number | undefined;
  /** Links of node i: linkList[linkStart[i]] .. linkList[linkStart[i + 1] - 1]. */
  linkStart: Int32Array;
  linkList: Int32Array;
  /** host name → HCA guids of that host. */
  hcasOfHost: Map<string, string[]>;
  /** Node by GUID as an object (undefined when not in the reply). */
  node(guid: string): TopoNode | undefined;
  /** Link i as an object, ends oriented as endA / endB. */
  link(i: number): TopoLink;
  /** Link indices of the node with this GUID. */
  linksOf(guid: string): number[];
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

const KNOWN_TIERS = new Set<string>(['core', 'spine', 'leaf', 'hca', 'aggregation', 'unknown']);

export function indexTopology(reply: TopologyReply): TopoIndex {
  // A collector of another version may send another format: say so rather than draw nonsense.
  if (reply.format !== 2) throw new Error(`GET /api/topology sent format ${String(reply.format)}; this page reads 2`);
  const N = reply.nodes;
  const L = reply.links;
  const n = N.guid.length;
  const m = L.id.length;
  const tierOf = N.tier.map((t) => {
    const tier = reply.vocab.tier[t];
    return tier && KNOWN_TIERS.has(tier) ? tier : 'unknown';
  });
  const typeOf = N.type.map((t) => reply.vocab.nodeType[t]);
  const linkTierOf = L.tier.map((t) => reply.vocab.linkTier[t] ?? 'other');
  // The GUID and host maps (49k and 5.6k keys at 45k GPUs) serve a search, a selection or a
  // host's rails, not the first frame: built on first use, once per reply.
  let lookups: { nodeIndex: Map<string, number>; hcasOfHost: Map<string, string[]> } | null = null;
  const lookup = () => (lookups ??= nodeLookups(reply));
  const endA = new Int32Array(m);
  const portA = new Int32Array(m);
  const endB = new Int32Array(m);
  const portB = new Int32Array(m);
  const swapped = new Uint8Array(m);
  const degree = new Int32Array(n + 1);
  // compareLinkEnds, with each node's rank computed once.
  const rank = new Int8Array(n);
  for (let i = 0; i < n; i++) rank[i] = linkEndRank(typeOf[i], tierOf[i]);
  for (let i = 0; i < m; i++) {
    const a = L.a[i];
    const b = L.b[i];
    const ga = N.guid[a];
    const gb = N.guid[b];
    const swap = rank[a] !== rank[b] ? rank[a] > rank[b] : ga !== gb ? ga > gb : L.aPort[i] > L.bPort[i];
    swapped[i] = swap ? 1 : 0;
    endA[i] = swap ? b : a;
    portA[i] = swap ? L.bPort[i] : L.aPort[i];
    endB[i] = swap ? a : b;
    portB[i] = swap ? L.aPort[i] : L.bPort[i];
    degree[a + 1]++;
    degree[b + 1]++;
  }
  const linkStart = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) linkStart[i + 1] = linkStart[i] + degree[i + 1];
  const fill = linkStart.slice(0, n);
  const linkList = new Int32Array(2 * m);
  for (let i = 0; i < m; i++) {
    linkList[fill[L.a[i]]++] = i;
    linkList[fill[L.b[i]]++] = i;
  }
  const health = new Uint8Array(m);
  for (const [i, h] of reply.problems) health[i] = HEALTH_CODE.get(h) ?? 0;
  const problems: number[] = [];
  for (let i = 0; i < m; i++) if (health[i]) problems.push(i);

  let lids: ReturnType<typeof topoEndLids> | null = null;
  let reasons: ReturnType<typeof topoProblems> | null = null;
  return {
    reply,
    nodeCount: n,
    linkCount: m,
    endA,
    portA,
    endB,
    portB,
    swapped,
    health,
    tierOf,
    linkTierOf,
    problems,
    get nodeIndex() {
      return lookup().nodeIndex;
    },
    linkIndexOf(id) {
      // The reply lists links by id: a binary search, no map of 136k entries to build.
      let lo = 0;
      let hi = m - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const v = L.id[mid];
        if (v === id) return mid;
        if (v < id) lo = mid + 1;
        else hi = mid - 1;
      }
      return L.id.indexOf(id) >= 0 ? L.id.indexOf(id) : undefined;
    },
    linkStart,
    linkList,
    get hcasOfHost() {
      return lookup().hcasOfHost;
    },
    node(guid) {
      const i = lookup().nodeIndex.get(guid);
      return i === undefined ? undefined : { ...topoNode(reply, i), tier: tierOf[i] };
    },
    link(i) {
      lids ??= topoEndLids(reply);
      reasons ??= topoProblems(reply);
      const l = topoLink(reply, i, lids, reasons);
      return swapped[i] ? { ...l, a: l.b, b: l.a } : l;
    },
    linksOf(guid) {
      const i = lookup().nodeIndex.get(guid);
      return i === undefined ? [] : Array.from(linkList.subarray(linkStart[i], linkStart[i + 1]));
    },
  };
}

/** guid → node index, and host name → its HCAs' GUIDs in reply order. */
function nodeLookups(reply: TopologyReply): { nodeIndex: Map<string, number>; hcasOfHost: Map<string, string[]> } {
  const N = reply.nodes;
  const nodeIndex = new Map<string, number>();
  const hcasOfHost = new Map<string, string[]>();
  for (let i = 0; i < N.guid.length; i++) {
    nodeIndex.set(N.guid[i], i);
    const host = N.host[i];
    if (host) {
      const l = hcasOfHost.get(host);
      if (l) l.push(N.guid[i]);
      else hcasOfHost.set(host, [N.guid[i]]);
    }
  }
  return { nodeIndex, hcasOfHost };
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
  const N = idx.reply.nodes;
  for (let i = 0; i < idx.nodeCount; i++) {
    const guid = N.guid[i];
    const nodeName = N.name[i];
    const nodeHost = N.host[i];
    const name = nodeName.toLowerCase();
    const hex = guid.slice(2);
    const host = nodeHost?.toLowerCase() ?? null;
    if (nodeHost && host && host.includes(q) && !hosts.has(nodeHost)) {
      hosts.add(nodeHost);
      const hit: SearchHit = { guid, name: nodeHost, what: 'host', host: nodeHost };
      (host === q ? exact : partial).push(hit);
    }
    const type = idx.reply.vocab.nodeType[N.type[i]];
    const what = idx.tierOf[i] === 'aggregation' ? 'aggregation' : type === 'switch' ? 'switch' : 'hca';
    if (name === q || guid === exactGuid) exact.push({ guid, name: nodeName, what });
    else if (name.includes(q) || (g && hex.includes(g))) partial.push({ guid, name: nodeName, what });
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
  const leaves = new Set<number>();
  const { guid } = idx.reply.nodes;
  const ids = idx.reply.links.id;
  const other = (li: number, i: number) => (idx.endA[li] === i ? idx.endB[li] : idx.endA[li]);
  for (const h of hcas) {
    nodes.add(h);
    const hi = idx.nodeIndex.get(h)!;
    for (const li of idx.linkList.subarray(idx.linkStart[hi], idx.linkStart[hi + 1])) {
      links.add(ids[li]);
      const o = other(li, hi);
      nodes.add(guid[o]);
      if (idx.tierOf[o] === 'leaf') leaves.add(o);
    }
  }
  for (const leaf of leaves) {
    for (const li of idx.linkList.subarray(idx.linkStart[leaf], idx.linkStart[leaf + 1])) {
      if (idx.linkTierOf[li] !== 'leaf-spine') continue;
      links.add(ids[li]);
      nodes.add(guid[other(li, leaf)]);
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
