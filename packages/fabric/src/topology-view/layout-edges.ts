/**
 * The layout's edges, built as columns (LayoutEdges): one per link, except the HCA links of an
 * aggregate box, which merge into one edge per group. Each layout node's health becomes the
 * worst of the links drawn to it. Part of layoutTopology (layout.ts), tested there.
 */
import type { LinkHealth } from '../index.ts';
import { HEALTHS, type TopoIndex } from './model.ts';

/** One edge as an object: for the few places that look at one edge (a pick, a selection). */
export interface LayoutEdge {
  /** Index into the reply's links, or -1 for an aggregated leaf→group edge. */
  link: number;
  /** Link ids this edge stands for (one, or all of a group's). */
  linkIds: number[];
  a: number;
  b: number;
  health: LinkHealth;
}

/**
 * The edges as columns, edge e at index e of each: at 45k GPUs there are ~92k, and one object
 * (and one id array) per edge was a third of the layout's time and much of the GC after it.
 */
export interface LayoutEdges {
  length: number;
  /** Layout node indices of the two ends. */
  a: Int32Array;
  b: Int32Array;
  /** Index into the reply's links, or -1 for an aggregated leaf→group edge. */
  link: Int32Array;
  /** Worst health of the links the edge stands for, as an index into HEALTHS. */
  health: Uint8Array;
  /** Link ids edge e stands for (one, or all of a group's, in link order). */
  linkIds(e: number): number[];
}

/** Edge e as an object. */
export function edgeAt(edges: LayoutEdges, e: number): LayoutEdge {
  return {
    link: edges.link[e],
    linkIds: edges.linkIds(e),
    a: edges.a[e],
    b: edges.b[e],
    health: HEALTHS[edges.health[e]],
  };
}

/** Every edge as an object (tests, and views of a few edges). */
export function edgeList(edges: LayoutEdges): LayoutEdge[] {
  return Array.from({ length: edges.length }, (_, e) => edgeAt(edges, e));
}

/**
 * The edges between layout nodes, where `drawnAs[i]` is the layout node drawn for reply node i
 * (-1: none) and `isGroup[k]` is 1 for an aggregate box; `worst[k]`: the worst health code of
 * the links drawn to layout node k.
 */
export function layoutEdges(
  idx: TopoIndex,
  isGroup: Uint8Array,
  drawnAs: Int32Array,
): { edges: LayoutEdges; unplaced: number; worst: Uint8Array } {
  // A group's edge stands where its first link is. Health codes grow with HEALTH_RANK: worse is larger.
  const m = idx.linkCount;
  const ea = new Int32Array(m);
  const eb = new Int32Array(m);
  const el = new Int32Array(m);
  const eh = new Uint8Array(m);
  const worst = new Uint8Array(isGroup.length);
  const groupEdge = new Map<number, number>();
  const groupIds = new Map<number, number[]>();
  const ids = idx.reply.links.id;
  let count = 0;
  let unplaced = 0;
  for (let i = 0; i < m; i++) {
    const a = drawnAs[idx.endA[i]];
    const b = drawnAs[idx.endB[i]];
    if (a < 0 || b < 0) {
      unplaced++;
      continue;
    }
    const h = idx.health[i];
    if (h > worst[a]) worst[a] = h;
    if (h > worst[b]) worst[b] = h;
    if (isGroup[a] || isGroup[b]) {
      const key = a * isGroup.length + b;
      const e = groupEdge.get(key);
      if (e !== undefined) {
        groupIds.get(e)!.push(ids[i]);
        if (h > eh[e]) eh[e] = h;
        continue;
      }
      groupEdge.set(key, count);
      groupIds.set(count, [ids[i]]);
      el[count] = -1;
    } else el[count] = i;
    ea[count] = a;
    eb[count] = b;
    eh[count] = h;
    count++;
  }
  const edgeLink = el.slice(0, count);
  const edges: LayoutEdges = {
    length: count,
    a: ea.slice(0, count),
    b: eb.slice(0, count),
    link: edgeLink,
    health: eh.slice(0, count),
    linkIds: (e) => (edgeLink[e] >= 0 ? [ids[edgeLink[e]]] : [...(groupIds.get(e) ?? [])]),
  };
  return { edges, unplaced, worst };
}

const edgeIndexCache = new WeakMap<LayoutEdges, Map<number, number>>();

/** link id → index of the edge drawn for it (cached per layout). */
export function edgeIndexByLinkId(layout: { edges: LayoutEdges }): Map<number, number> {
  const { edges } = layout;
  let m = edgeIndexCache.get(edges);
  if (!m) {
    m = new Map();
    for (let e = 0; e < edges.length; e++) for (const id of edges.linkIds(e)) m.set(id, e);
    edgeIndexCache.set(edges, m);
  }
  return m;
}
