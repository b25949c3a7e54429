import { describe, expect, it } from 'vitest';
import { generateFatTree, topologyColumns, type TopologyObjects } from '@ibwatch/fabric';
import { edgeGeometry } from './edges.ts';
import { firstFrame, transferables, unpackLayout, type FirstFrame } from './first-frame.ts';
import { fatTreeReply, ndrWithSharp } from './fixtures.ts';
import { edgeIndexByLinkId, edgeList, layoutTopology, type TopoLayout } from './layout.ts';
import { indexTopology } from './model.ts';

/** The reply's bytes as the collector sends them. */
const bytesOf = (t: TopologyObjects) =>
  new TextEncoder().encode(JSON.stringify(topologyColumns(t))).buffer as ArrayBuffer;

/** What the page gets from the worker: the frame through postMessage's clone, buffers transferred. */
function throughWorker(t: TopologyObjects, groupBy: FirstFrame['groupBy']) {
  const frame = firstFrame(bytesOf(t), groupBy);
  const got = structuredClone(frame, { transfer: transferables(frame) });
  // Transferred, not copied: the worker's arrays are detached.
  expect(frame.layout.edges.a.length).toBe(0);
  return { frame: got, ...unpackLayout(got.layout) };
}

/** Everything of a layout the canvas, the picks and the panel read, as plain data. */
function asData(l: TopoLayout) {
  const { edges, nodeOf: _n, ...rest } = l;
  return { ...rest, edges: edgeList(edges), geometry: edgeGeometry(l), byLinkId: [...edgeIndexByLinkId(l)] };
}

describe("the worker's first frame is layoutTopology's layout", () => {
  const tree = generateFatTree({ gpus: 10_000, tiers: 3 });
  const fabrics: [string, TopologyObjects][] = [
    ['10k-GPU tree, one link in 97 not ok', fatTreeReply(tree, 97)],
    ['10k-GPU tree, one link in 13 not ok', fatTreeReply(tree, 13)],
    ['NDR run with SHARP ANs and an isolated switch', ndrWithSharp()],
  ];

  for (const [name, t] of fabrics)
    for (const groupBy of ['rail', 'name'] as const)
      it(`${name}, leaves by ${groupBy}`, () => {
        const idx = indexTopology(topologyColumns(t));
        const want = layoutTopology(idx, { groupBy });
        const { frame, layout, bind } = throughWorker(t, groupBy);
        expect(asData(layout)).toEqual(asData(want));
        expect(frame).toMatchObject({ groupBy, nodeCount: idx.nodeCount, linkCount: idx.linkCount });
        expect(frame.generatedAt).toBe(t.generatedAt);
        // Before the page has the reply's index no GUID is found; after, every one as layoutTopology.
        const guids = t.nodes.map((n) => n.guid);
        expect(guids.filter((g) => layout.nodeOf.has(g))).toEqual([]);
        bind(indexTopology(topologyColumns(t)));
        const drawnAs = (l: TopoLayout) => guids.map((g) => l.nodeOf.get(g) ?? -1);
        expect(drawnAs(layout)).toEqual(drawnAs(want));
        expect(drawnAs(layout).filter((i) => i >= 0).length).toBeGreaterThan(0);
      }, 60_000);

  it('follows the reply: two replies that differ give the layouts of each', () => {
    const [a, b] = [fatTreeReply(tree, 97), fatTreeReply(tree, 13)];
    const la = throughWorker(a, 'rail').layout;
    const lb = throughWorker(b, 'rail').layout;
    expect(asData(la)).toEqual(asData(layoutTopology(indexTopology(topologyColumns(a)))));
    expect(asData(lb)).toEqual(asData(layoutTopology(indexTopology(topologyColumns(b)))));
    expect(edgeList(la.edges).map((e) => e.health)).not.toEqual(edgeList(lb.edges).map((e) => e.health));
  }, 60_000);

  it('throws what the page would throw on a reply it cannot use', () => {
    const bad = new TextEncoder().encode(JSON.stringify({ format: 3 })).buffer as ArrayBuffer;
    expect(() => firstFrame(bad, 'rail')).toThrow('GET /api/topology sent format 3; this page reads 2');
    expect(() => firstFrame(new TextEncoder().encode('<html>').buffer as ArrayBuffer, 'rail')).toThrow();
  });
});
