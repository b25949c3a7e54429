/**
 * `GET /api/topology/frame`: the topology view's first frame, laid out by the collector. The
 * view draws it before it has read GET /api/topology (at 45k GPUs ~8 MB of columns the browser
 * took ~1 s to parse, index and lay out); the whole reply then comes for the search, the
 * selection and the details panel. Boxes and edges as the view's own layout (layoutTopology of
 * ../topology-view/layout.ts) makes them from the reply, HCAs aggregated per leaf.
 */
import { Int, Ms, Num, Str, Text, Type, type Static } from './kit.ts';
import { LinkHealthSchema, TierSchema } from './common.ts';

export const FrameNodeSchema = Type.Object({
  /** GUID, or `grp:<leaf guid>` for an aggregate box of HCAs. */
  id: Text(),
  kind: Str(['switch', 'hca', 'group', 'aggregation', 'other']),
  tier: TierSchema,
  label: Text(),
  /** Centre and size in world units. */
  x: Num(),
  y: Num(),
  w: Num(),
  h: Num(),
  /** Aggregate boxes: how many HCAs they stand for, and their leaf's GUID (none: HCAs without a leaf). */
  hcas: Type.Optional(Int()),
  leaf: Type.Optional(Text()),
  /** Aggregation Nodes: the GUID of the switch they live in. */
  host: Type.Optional(Text()),
});
export type FrameNode = Static<typeof FrameNodeSchema>;

const column = (description: string) => Type.Array(Int(), { description });

export const TopologyFrameReplySchema = Type.Object({
  format: Type.Literal(1),
  /** Leaf order: by dominant rail of their HCAs, or by name (`?group=name`). */
  groupBy: Str(['rail', 'name']),
  /** Nodes and links of the topology (GET /api/topology's counts). */
  nodeCount: Int(),
  linkCount: Int(),
  nodes: Type.Array(FrameNodeSchema),
  /** Rows present, top to bottom: tier, y, nodes in it, Aggregation Nodes drawn in it. */
  tiers: Type.Array(Type.Object({ tier: TierSchema, y: Num(), count: Int(), aggregation: Type.Optional(Int()) })),
  width: Num(),
  height: Num(),
  /** Aggregate boxes of HCAs. */
  groups: Int(),
  /** Links not drawn because an end is not a known node. */
  unplaced: Int(),
  /** What the names of each tier's boxes share (`spine-`): dropped from labels too wide for their box. */
  labelPrefix: Type.Record(Type.String(), Type.String()),
  /** Node index of GET /api/topology → index of the box drawn for it (-1: none). */
  drawnAs: column('Box drawn for each node of GET /api/topology, -1 for none.'),
  edges: Type.Object({
    a: column('Box index of end A.'),
    b: column('Box index of end B.'),
    link: column("Index into GET /api/topology's links, -1 for an aggregate box's edge."),
    linkId: column('Link id, -1 for an aggregate box edge.'),
    /** Aggregate boxes' edges: `[edge, ids of the links it stands for]`. */
    groups: Type.Array(Type.Tuple([Int(), Type.Array(Int())])),
  }),
  generatedAt: Ms(),
  /** Boxes with a link drawn to them that is not ok: `[box, worst health]`. A box not listed is ok. */
  nodeHealth: Type.Array(Type.Tuple([Int(), LinkHealthSchema])),
  /** Edges whose links are not all ok: `[edge, worst health]`. An edge not listed is ok. */
  edgeHealth: Type.Array(Type.Tuple([Int(), LinkHealthSchema])),
});
export type TopologyFrameReply = Static<typeof TopologyFrameReplySchema>;
