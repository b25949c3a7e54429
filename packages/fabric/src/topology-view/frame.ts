/**
 * The topology view's first frame (GET /api/topology/frame, ../api/topology-frame.ts): the
 * layout layoutTopology makes of a reply, as JSON the page draws without the reply.
 *
 * Where a box stands depends only on the topology; its colour and its edges' colours on the
 * links' health, which every sweep can change. So the collector lays out a topology once per
 * grouping (`frameStructure`, ~0.3 s at 45k GPUs), keeps that JSON, and for each reply adds
 * only the colours of the links that are not ok (`frameTail`): the worst health of the links
 * drawn to each box and edge, as layoutEdges (layout-edges.ts) computes them.
 */
import type { LinkHealth, TopologyFrameReply, TopologyReply } from '../index.ts';
import { HEALTHS, indexTopology, type TopoIndex } from './model.ts';
import { edgeIndexByLinkId, layoutTopology, nodeOfDrawn, type LayoutNode, type TopoLayout } from './layout.ts';

export type FrameGroupBy = TopologyFrameReply['groupBy'];

/** What the collector keeps of one topology laid out for one grouping. */
export interface FrameStructure {
  groupBy: FrameGroupBy;
  /** The reply's JSON up to its per-sweep part: `{"format":1,…,"edges":{…},`. */
  head: string;
  /** Per link of GET /api/topology: the edge drawn for it (-1: none). */
  edgeOf: Int32Array;
  /** Per link: the boxes of its two ends, -1 when the link is not drawn (an end unknown). */
  boxA: Int32Array;
  boxB: Int32Array;
}

/** Lays out `reply` for `groupBy`, every link ok: the colours are frameTail's. */
export function frameStructure(reply: TopologyReply, groupBy: FrameGroupBy): FrameStructure {
  const idx = indexTopology({ ...reply, problems: [] });
  const l = layoutTopology(idx, { groupBy });
  const E = l.edges;
  const ids = reply.links.id;
  const m = idx.linkCount;
  const edgeOf = new Int32Array(m).fill(-1);
  const linkId: number[] = new Array(E.length);
  const groups: [number, number[]][] = [];
  for (let e = 0; e < E.length; e++) {
    const li = E.link[e];
    if (li >= 0) {
      edgeOf[li] = e;
      linkId[e] = ids[li];
      continue;
    }
    const members = E.linkIds(e);
    groups.push([e, members]);
    linkId[e] = -1;
    for (const id of members) edgeOf[idx.linkIndexOf(id)!] = e;
  }
  const boxA = new Int32Array(m).fill(-1);
  const boxB = new Int32Array(m).fill(-1);
  for (let li = 0; li < m; li++) {
    const a = l.drawnAs[idx.endA[li]];
    const b = l.drawnAs[idx.endB[li]];
    if (a >= 0 && b >= 0) [boxA[li], boxB[li]] = [a, b];
  }
  const fixed: Omit<TopologyFrameReply, 'generatedAt' | 'nodeHealth' | 'edgeHealth'> = {
    format: 1,
    groupBy,
    nodeCount: idx.nodeCount,
    linkCount: idx.linkCount,
    nodes: l.nodes.map(({ health: _ok, ...box }) => box),
    tiers: l.tiers,
    width: l.width,
    height: l.height,
    groups: l.groups,
    unplaced: l.unplaced,
    labelPrefix: l.labelPrefix as Record<string, string>,
    drawnAs: Array.from(l.drawnAs),
    edges: { a: Array.from(E.a), b: Array.from(E.b), link: Array.from(E.link), linkId, groups },
  };
  const json = JSON.stringify(fixed);
  return { groupBy, head: `${json.slice(0, -1)},`, edgeOf, boxA, boxB };
}

/** `[index, health]` of the entries of `worst` that are not ok, by index. */
const listed = (worst: Map<number, number>): [number, LinkHealth][] =>
  [...worst].sort((x, y) => x[0] - y[0]).map(([k, c]) => [k, HEALTHS[c]]);

/**
 * The reply's per-sweep part, closing `s.head`: `"generatedAt":…,"nodeHealth":…,"edgeHealth":…}`,
 * from GET /api/topology's problems (`[link index, health, reason]`) of the same topology.
 */
export function frameTail(
  s: Pick<FrameStructure, 'edgeOf' | 'boxA' | 'boxB'>,
  generatedAt: number,
  problems: TopologyReply['problems'],
): string {
  const boxes = new Map<number, number>();
  const edges = new Map<number, number>();
  const worse = (m: Map<number, number>, k: number, c: number) => {
    if ((m.get(k) ?? 0) < c) m.set(k, c);
  };
  for (const [li, health] of problems) {
    const c = HEALTHS.indexOf(health);
    const a = s.boxA[li] ?? -1;
    if (c <= 0 || a < 0) continue;
    worse(boxes, a, c);
    worse(boxes, s.boxB[li], c);
    if (s.edgeOf[li] >= 0) worse(edges, s.edgeOf[li], c);
  }
  const [nodeHealth, edgeHealth] = [listed(boxes), listed(edges)].map((x) => JSON.stringify(x));
  return `"generatedAt":${generatedAt},"nodeHealth":${nodeHealth},"edgeHealth":${edgeHealth}}`;
}

/** The whole reply for `reply` (tests, and a caller that keeps nothing). */
export function topologyFrame(reply: TopologyReply, groupBy: FrameGroupBy): TopologyFrameReply {
  const s = frameStructure(reply, groupBy);
  return JSON.parse(s.head + frameTail(s, reply.generatedAt, reply.problems)) as TopologyFrameReply;
}

/**
 * The layout the canvas draws, from a frame reply. `bind(idx)` gives it the page's index of
 * GET /api/topology once read: until then `nodeOf` finds no GUID (nothing is selected or
 * highlighted before), after it `nodeOf` is layoutTopology's.
 */
export function unpackFrame(f: TopologyFrameReply): { layout: TopoLayout; bind: (idx: TopoIndex) => void } {
  let index: TopoIndex | null = null;
  const nodes: LayoutNode[] = f.nodes.map((n) => ({ ...n, health: 'ok' }));
  for (const [k, h] of f.nodeHealth) if (nodes[k]) nodes[k].health = h;
  const E = f.edges;
  const length = E.a.length;
  const health = new Uint8Array(length);
  for (const [e, h] of f.edgeHealth) if (e >= 0 && e < length) health[e] = HEALTHS.indexOf(h);
  const link = Int32Array.from(E.link);
  const linkId = E.linkId;
  const groupIds = new Map(E.groups);
  const drawnAs = Int32Array.from(f.drawnAs);
  const layout: TopoLayout = {
    nodes,
    edges: {
      length,
      a: Int32Array.from(E.a),
      b: Int32Array.from(E.b),
      link,
      health,
      linkIds: (e) => (link[e] >= 0 ? [linkId[e]] : [...(groupIds.get(e) ?? [])]),
    },
    nodeOf: nodeOfDrawn(() => index, drawnAs),
    drawnAs,
    tiers: f.tiers,
    width: f.width,
    height: f.height,
    groups: f.groups,
    unplaced: f.unplaced,
    labelPrefix: f.labelPrefix,
  };
  return { layout, bind: (idx) => (index = idx) };
}

/**
 * `layout` coloured as GET /api/topology's index `idx` says (the worst health of the links drawn
 * to each box and edge): the same layout when that is how it is coloured already, else a new
 * one. The first frame and the reply are two requests: a sweep between them recolours links.
 */
export function recolourLayout(layout: TopoLayout, idx: TopoIndex): TopoLayout {
  const E = layout.edges;
  const edgeHealth = new Uint8Array(E.length);
  const boxHealth = new Uint8Array(layout.nodes.length);
  const edgeOf = edgeIndexByLinkId(layout);
  const ids = idx.reply.links.id;
  for (const li of idx.problems) {
    const c = idx.health[li];
    const a = layout.drawnAs[idx.endA[li]];
    const b = layout.drawnAs[idx.endB[li]];
    if (a < 0 || b < 0) continue;
    if (boxHealth[a] < c) boxHealth[a] = c;
    if (boxHealth[b] < c) boxHealth[b] = c;
    const e = edgeOf.get(ids[li]);
    if (e !== undefined && edgeHealth[e] < c) edgeHealth[e] = c;
  }
  const same =
    edgeHealth.every((c, e) => c === E.health[e]) && layout.nodes.every((n, k) => HEALTHS[boxHealth[k]] === n.health);
  if (same) return layout;
  return {
    ...layout,
    nodes: layout.nodes.map((n, k) => ({ ...n, health: HEALTHS[boxHealth[k]] })),
    edges: { ...E, health: edgeHealth },
  };
}
