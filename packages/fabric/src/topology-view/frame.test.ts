import { describe, expect, it } from 'vitest';
import { Value } from 'typebox/value';
import { generateFatTree, topologyColumns, type TopologyObjects } from '../index.ts';
import { TopologyFrameReplySchema } from '../api/topology-frame.ts';
import { fatTreeReply, ndrWithSharp, syntheticFabric } from './fixtures.ts';
import { frameStructure, frameTail, recolourLayout, topologyFrame, unpackFrame } from './frame.ts';
import { edgeIndexByLinkId, edgeList, layoutTopology, type TopoLayout } from './layout.ts';
import { indexTopology } from './model.ts';

/** Everything of a layout the canvas, the picks and the panel read, as plain data. */
function asData(l: TopoLayout) {
  const { edges, nodeOf: _n, ...rest } = l;
  return { ...rest, edges: edgeList(edges), byLinkId: [...edgeIndexByLinkId(l)] };
}

const viewOf = (t: TopologyObjects, groupBy: 'rail' | 'name') =>
  layoutTopology(indexTopology(topologyColumns(t)), { groupBy });

describe("the collector's first frame is the layout the page would make", () => {
  const tree = generateFatTree({ gpus: 10_000, tiers: 3 });
  const fabrics: [string, TopologyObjects][] = [
    ['10k-GPU tree, one link in 97 not ok', fatTreeReply(tree, 97)],
    ['10k-GPU tree, one link in 13 not ok', fatTreeReply(tree, 13)],
    ['NDR run with SHARP ANs and an isolated switch', ndrWithSharp()],
    [
      'spines out of name order, bad links among the HCA links of a group',
      syntheticFabric({ hosts: 8, rails: 2, leavesPerRail: 2, spines: 3, cores: 1, uplinks: 12, badEvery: 3 }),
    ],
  ];

  for (const [name, t] of fabrics)
    for (const groupBy of ['rail', 'name'] as const)
      it(`${name}, leaves by ${groupBy}`, () => {
        const reply = topologyColumns(t);
        const frame = topologyFrame(reply, groupBy);
        expect(Value.Errors(TopologyFrameReplySchema, frame)).toEqual([]);
        expect(frame).toMatchObject({ groupBy, nodeCount: t.nodes.length, generatedAt: t.generatedAt });
        const { layout, bind } = unpackFrame(frame);
        const want = viewOf(t, groupBy);
        expect(asData(layout)).toEqual(asData(want));
        // Before the page has the reply's index no GUID is found; after, every one as layoutTopology.
        const guids = t.nodes.map((n) => n.guid);
        expect(guids.filter((g) => layout.nodeOf.has(g))).toEqual([]);
        bind(indexTopology(reply));
        const drawnAs = (l: TopoLayout) => guids.map((g) => l.nodeOf.get(g) ?? -1);
        expect(drawnAs(layout)).toEqual(drawnAs(want));
        expect(drawnAs(layout).filter((i) => i >= 0).length).toBeGreaterThan(0);
      }, 60_000);

  it("keeps one layout per topology and takes each sweep's colours: the same as laying out each reply", () => {
    // Two sweeps of one topology: the same links, other links not ok.
    const [a, b] = [fatTreeReply(tree, 97), fatTreeReply(tree, 13)];
    const [ra, rb] = [topologyColumns(a), topologyColumns(b)];
    expect(ra.links.id).toEqual(rb.links.id);
    const kept = frameStructure(ra, 'rail');
    for (const [t, r] of [
      [a, ra],
      [b, rb],
    ] as const) {
      const frame = JSON.parse(kept.head + frameTail(kept, r.generatedAt, r.problems));
      expect(asData(unpackFrame(frame).layout)).toEqual(asData(viewOf(t, 'rail')));
    }
    const healthOf = (r: typeof ra) =>
      edgeList(unpackFrame(JSON.parse(kept.head + frameTail(kept, 0, r.problems))).layout.edges).map((e) => e.health);
    expect(healthOf(ra)).not.toEqual(healthOf(rb));
    // A sweep where all is well: nothing listed, every box and edge ok.
    const clean = JSON.parse(kept.head + frameTail(kept, 0, []));
    expect([clean.nodeHealth, clean.edgeHealth]).toEqual([[], []]);
    expect(healthOf(ra).filter((h) => h !== 'ok').length).toBeGreaterThan(0);
  }, 60_000);

  it("takes the reply's colours when a sweep came between the frame and the reply", () => {
    const [a, b] = [fatTreeReply(tree, 97), fatTreeReply(tree, 13)];
    const { layout, bind } = unpackFrame(topologyFrame(topologyColumns(a), 'name'));
    const idxA = indexTopology(topologyColumns(a));
    bind(idxA);
    // Coloured as the reply says already: the very same layout (the canvas keeps its geometry).
    expect(recolourLayout(layout, idxA)).toBe(layout);
    const idxB = indexTopology(topologyColumns(b));
    bind(idxB);
    const recoloured = recolourLayout(layout, idxB);
    expect(recoloured).not.toBe(layout);
    expect(asData(recoloured)).toEqual(asData(viewOf(b, 'name')));
    expect(recoloured.nodeOf.get(b.nodes[0].guid)).toBe(viewOf(b, 'name').nodeOf.get(b.nodes[0].guid));
  }, 60_000);

  it('lists a box and an edge once, at the worst health of their links', () => {
    const r = topologyColumns(ndrWithSharp());
    const s = frameStructure(r, 'rail');
    const li = s.edgeOf.findIndex((e, i) => e >= 0 && s.boxA[i] >= 0);
    const tail = JSON.parse(
      `{${frameTail(s, 5, [
        [li, 'degraded', 'x'],
        [li, 'down', 'y'],
        [li, 'errors', null],
        [r.links.id.length + 7, 'down', 'a link index the topology does not have'],
      ])}`,
    );
    expect(tail).toEqual({
      generatedAt: 5,
      nodeHealth: [
        [Math.min(s.boxA[li], s.boxB[li]), 'down'],
        [Math.max(s.boxA[li], s.boxB[li]), 'down'],
      ],
      edgeHealth: [[s.edgeOf[li], 'down']],
    });
  });

  it('throws what the page would throw on a reply it cannot lay out', () => {
    const bad = { ...topologyColumns(ndrWithSharp()), format: 3 } as unknown as ReturnType<typeof topologyColumns>;
    expect(() => frameStructure(bad, 'rail')).toThrow('GET /api/topology sent format 3; this page reads 2');
  });
});
