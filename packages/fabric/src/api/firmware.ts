/** `GET /api/firmware`: the firmware inventory. Part of the HTTP API contract (see ../api.ts). */
import { Int, Ms, NullInt, NullMs, NullText, Nullable, type Static, Str, Text, Type } from './kit.ts';
import { TIERS, TierSchema } from './common.ts';
import { NodeTypeSchema } from './vocab.ts';

/** One node in the firmware inventory. */
export const FirmwareNodeRowSchema = Type.Object({
  guid: Text(),
  name: Text(),
  /** Null for a node no topology has listed (never seen outside the firmware sections). */
  type: Nullable(NodeTypeSchema),
  tier: Nullable(TierSchema),
  version: Text(),
  hwRevision: NullInt(),
  /** Time of the ibdiagnet run that last reported this node's firmware. */
  observedAt: Ms(),
  /** Not in the newest run that reported firmware: the version may have changed since. */
  stale: Type.Boolean(),
});
export type FirmwareNodeRow = Static<typeof FirmwareNodeRowSchema>;

/** The nodes of one device and PSID (one firmware image), and the versions they run. */
export const FirmwareGroupSchema = Type.Object({
  deviceId: NullInt(),
  /** `Quantum-2`, `ConnectX-7`, ... when ibwatch knows the device ID. */
  device: NullText(),
  /** Null when the nodes did not report one (GENERAL_INFO_SMP only, or `--skip nodes_info`). */
  psid: NullText(),
  nodes: Int(),
  /** Nodes per tier (`leaf`, `spine`, `hca`, ...). */
  tiers: Type.Array(Type.Object({ tier: Str([...TIERS, 'none']), nodes: Int() })),
  /** The newest version any node of the group runs. */
  latest: Text(),
  /** Newest first. */
  versions: Type.Array(Type.Object({ version: Text(), nodes: Int() })),
  /** Nodes not on `latest`, oldest version first; none when `psid` is null (images unknown). */
  stragglers: Type.Array(FirmwareNodeRowSchema),
});
export type FirmwareGroup = Static<typeof FirmwareGroupSchema>;

/** `GET /api/firmware`: what ibdiagnet's NODES_INFO / GENERAL_INFO_SMP said of each node. */
export const FirmwareReplySchema = Type.Object({
  generatedAt: Ms(),
  /** Time of the newest ibdiagnet run that reported firmware; null before any. */
  observedAt: NullMs(),
  /** Nodes with a known firmware version. */
  nodes: Int(),
  /** Nodes of the topology without one (never reported by an ibdiagnet run). */
  unreported: Int(),
  /** Groups with stragglers first, then by size. */
  groups: Type.Array(FirmwareGroupSchema),
});
export type FirmwareReply = Static<typeof FirmwareReplySchema>;
