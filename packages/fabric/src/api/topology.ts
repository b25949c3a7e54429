/** `GET /api/topology`: nodes and links. Part of the HTTP API contract (see ../api.ts). */
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

export const TopoLinkSchema = Type.Object({
  id: Int(),
  a: LinkEndSchema,
  b: LinkEndSchema,
  tier: Str(['hca-leaf', 'leaf-spine', 'spine-core', 'other']),
  health: LinkHealthSchema,
  widthActive: Nullable(LinkWidthSchema),
  speedActive: Nullable(LinkSpeedSchema),
  /** Plain-words reason when health is not ok. */
  reason: NullText(),
});
export type TopoLink = Static<typeof TopoLinkSchema>;

export const TopologyReplySchema = Type.Object({
  generatedAt: Ms(),
  nodes: Type.Array(TopoNodeSchema),
  links: Type.Array(TopoLinkSchema),
});
export type TopologyReply = Static<typeof TopologyReplySchema>;
