/**
 * The topology view's first frame, made off the page's main thread: the worker (topo-worker.ts)
 * decodes and parses the reply, indexes it and lays it out, and sends back only what the canvas
 * draws, as plain data and typed arrays (transferred, not copied). At 45k GPUs that work was
 * ~0.5 s of the main thread's ~1 s between the reply's arrival and the first frame; cloning the
 * whole reply back would cost as much as parsing it, so the page parses its own copy after the
 * first frame, for the search, the selection and the details panel (useTopology.ts).
 * Pure (no DOM, no worker): unit-tested in first-frame.test.ts against layoutTopology.
 */
import type { TopologyReply } from '@ibwatch/fabric';
import { edgeGeometry, seedEdgeGeometry, type EdgeGeometry } from './edges.ts';
import { layoutTopology, nodeOfDrawn, type LayoutOptions, type TopoLayout } from './layout.ts';
import { indexTopology, type TopoIndex } from './model.ts';

type GroupBy = NonNullable<LayoutOptions['groupBy']>;

/**
 * A TopoLayout as data: the link id of each edge of one link (`linkId`, NaN for a group's
 * edge) and the ids of each group's edge (`groupIds`, ~1.4k edges at 45k GPUs).
 */
export interface PackedLayout extends Omit<TopoLayout, 'edges' | 'nodeOf'> {
  edges: { length: number; a: Int32Array; b: Int32Array; link: Int32Array; health: Uint8Array };
  linkId: Float64Array;
  groupIds: Map<number, number[]>;
  geometry: EdgeGeometry;
}

/** What the worker sends: the aggregated layout for `groupBy`, and what the toolbar says. */
export interface FirstFrame {
  layout: PackedLayout;
  groupBy: GroupBy;
  nodeCount: number;
  linkCount: number;
  generatedAt: TopologyReply['generatedAt'];
}

/** `ids`: the reply's link ids (`links.id`), which `edges.link` indexes. */
export function packLayout(l: TopoLayout, ids: ArrayLike<number>): PackedLayout {
  const { edges, nodeOf: _nodeOf, ...rest } = l;
  const { a, b, link, health, length } = edges;
  const linkId = new Float64Array(length);
  const groupIds = new Map<number, number[]>();
  for (let e = 0; e < length; e++) {
    if (link[e] >= 0) linkId[e] = ids[link[e]];
    else {
      linkId[e] = Number.NaN;
      groupIds.set(e, edges.linkIds(e));
    }
  }
  return { ...rest, edges: { length, a, b, link, health }, linkId, groupIds, geometry: edgeGeometry(l) };
}

/** The worker's part: reply bytes → the first frame's layout (throws what the page would). */
export function firstFrame(bytes: ArrayBuffer, groupBy: GroupBy): FirstFrame {
  const reply = JSON.parse(new TextDecoder().decode(bytes)) as TopologyReply;
  const idx = indexTopology(reply);
  return {
    layout: packLayout(layoutTopology(idx, { groupBy }), reply.links.id),
    groupBy,
    nodeCount: idx.nodeCount,
    linkCount: idx.linkCount,
    generatedAt: reply.generatedAt,
  };
}

/** The buffers postMessage can hand over instead of copying. */
export function transferables(f: FirstFrame): ArrayBuffer[] {
  const l = f.layout;
  const arrays = [l.drawnAs, l.edges.a, l.edges.b, l.edges.link, l.edges.health, l.linkId];
  arrays.push(...Object.values(l.geometry.xy));
  return arrays.map((x) => x.buffer as ArrayBuffer);
}

/**
 * The layout the canvas draws, from a packed one. `bind(idx)` gives it the page's index of the
 * same reply once parsed: until then `nodeOf` finds no GUID (nothing is selected or highlighted
 * before), after it `nodeOf` is layoutTopology's.
 */
export function unpackLayout(p: PackedLayout): { layout: TopoLayout; bind: (idx: TopoIndex) => void } {
  let index: TopoIndex | null = null;
  const { edges: E, linkId, groupIds, geometry, ...rest } = p;
  const layout: TopoLayout = {
    ...rest,
    edges: { ...E, linkIds: (e) => (E.link[e] >= 0 ? [linkId[e]] : [...(groupIds.get(e) ?? [])]) },
    nodeOf: nodeOfDrawn(() => index, p.drawnAs),
  };
  seedEdgeGeometry(layout, geometry);
  return { layout, bind: (idx) => (index = idx) };
}
