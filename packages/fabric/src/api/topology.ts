/**
 * `GET /api/topology`: nodes and links as columns (format 2). Part of the HTTP API contract
 * (see ../api.ts). At 45k GPUs the object format of format 1 was 43 MB of JSON that took a
 * browser 1.4-2 s to parse; the columns are ~8 MB. ../topology-columns.ts turns objects into
 * columns (what the collector sends) and back (for readers that want objects).
 */
import { Int, NullInt, NullText, Nullable, type Static, Str, Text, Type, Ms } from './kit.ts';
import { LinkHealthSchema, TierSchema } from './common.ts';
import { LinkSpeedSchema, LinkWidthSchema, NodeTypeSchema } from './vocab.ts';

export const TopoNodeSchema = Type.Object({
  guid: Text(),
  name: Text(),
  type: NodeTypeSchema,
  tier: TierSchema,
  rail: NullInt(),
  rack: NullText(),
  lid: NullInt(),
  /** Host name for HCAs (`dgx-0042` of `dgx-0042 mlx5_3`). */
  host: NullText(),
});
export type TopoNode = Static<typeof TopoNodeSchema>;

export const linkEndProperties = {
  guid: Text(),
  name: Text(),
  port: Int(),
  lid: NullInt(),
  rack: NullText(),
  /** Rack unit from the node-name map (`# rack=R07 u=12`), where the reply knows it (worklist). */
  u: Type.Optional(NullInt()),
};
export const LinkEndSchema = Type.Object(linkEndProperties);
export type LinkEnd = Static<typeof LinkEndSchema>;

export const LinkTierSchema = Str(['hca-leaf', 'leaf-spine', 'spine-core', 'other']);

/** A link as an object (what `topologyObjects` of ../topology-columns.ts gives). */
export const TopoLinkSchema = Type.Object({
  id: Int(),
  a: LinkEndSchema,
  b: LinkEndSchema,
  tier: LinkTierSchema,
  health: LinkHealthSchema,
  widthActive: Nullable(LinkWidthSchema),
  speedActive: Nullable(LinkSpeedSchema),
  /** Plain-words reason when health is not ok. */
  reason: NullText(),
});
export type TopoLink = Static<typeof TopoLinkSchema>;

const column = <T extends Parameters<typeof Type.Array>[0]>(of: T, description: string) =>
  Type.Array(of, { description });

/** The strings the columns' codes stand for: `nodes.type[i]` is `vocab.nodeType[nodes.type[i]]`. */
export const TopoVocabSchema = Type.Object({
  nodeType: Type.Array(NodeTypeSchema),
  tier: Type.Array(TierSchema),
  linkTier: Type.Array(LinkTierSchema),
  width: Type.Array(LinkWidthSchema),
  speed: Type.Array(LinkSpeedSchema),
});
export type TopoVocab = Static<typeof TopoVocabSchema>;

/**
 * One entry per node, at the same index in every column. Nodes come in the order the topology
 * view draws them: by tier (core, spine, leaf, hca, aggregation, unknown), then HCAs by host
 * and name, the others by name, in natural order (`leaf-2` before `leaf-10`), then by GUID.
 */
export const TopoNodeColumnsSchema = Type.Object({
  guid: column(Text(), 'Node GUID.'),
  name: column(Text(), 'Name: the node-name map entry, else the node description, else the GUID.'),
  type: column(Int(), 'Index into vocab.nodeType.'),
  tier: column(Int(), 'Index into vocab.tier.'),
  rail: column(NullInt(), 'Rail of an HCA (mlx5_N), else null.'),
  rack: column(NullText(), 'Rack from the node-name map, else null.'),
  lid: column(NullInt(), "The node's LID (a switch's port 0), else null."),
  endLid: column(
    NullInt(),
    "The LID of the node's link ends unless `endLids` lists one: a switch's external ports say 0, an HCA " +
      'port its own LID.',
  ),
  host: column(NullText(), 'Host name of an HCA (`dgx-0042` of `dgx-0042 mlx5_3`), else null.'),
});

/**
 * One entry per link shown (present, or gone while down), by link id. A link end is its node
 * (index into the node columns) and port; its name and rack are its node's, and its LID is its
 * node's `endLid` unless `endLids` says otherwise.
 */
export const TopoLinkColumnsSchema = Type.Object({
  id: column(Int(), 'Link id (as in `l:<id>` selections and the worklist).'),
  a: column(Int(), 'Node index of end A.'),
  aPort: column(Int(), 'Port number of end A.'),
  b: column(Int(), 'Node index of end B.'),
  bPort: column(Int(), 'Port number of end B.'),
  tier: column(Int(), 'Index into vocab.linkTier.'),
  width: column(NullInt(), 'Active width, index into vocab.width (null: unknown).'),
  speed: column(NullInt(), 'Active speed, index into vocab.speed (null: unknown).'),
});

export const TopologyReplySchema = Type.Object({
  /** 2: the columns below. Format 1 (nodes and links as arrays of objects) is no longer sent. */
  format: Type.Literal(2),
  generatedAt: Ms(),
  vocab: TopoVocabSchema,
  nodes: TopoNodeColumnsSchema,
  links: TopoLinkColumnsSchema,
  /** Link ends whose port LID is not their node's `endLid`: `[link index, end (0 = A, 1 = B), LID]`. */
  endLids: Type.Array(Type.Tuple([Int(), Int(), NullInt()])),
  /**
   * Every link whose health is not ok or that has a reason: `[link index, health, reason]`.
   * A link not listed is ok, without a reason.
   */
  problems: Type.Array(Type.Tuple([Int(), LinkHealthSchema, NullText()])),
});
export type TopologyReply = Static<typeof TopologyReplySchema>;
