/** `GET /api/firmware`: the firmware inventory. Part of the HTTP API contract (see ../api.ts). */
import type { NodeType } from '../types.ts';
import type { Tier } from './common.ts';

/** One node in the firmware inventory. */
export interface FirmwareNodeRow {
  guid: string;
  name: string;
  /** Null for a node no topology has listed (never seen outside the firmware sections). */
  type: NodeType | null;
  tier: Tier | null;
  version: string;
  hwRevision: number | null;
  /** Time of the ibdiagnet run that last reported this node's firmware. */
  observedAt: number;
  /** Not in the newest run that reported firmware: the version may have changed since. */
  stale: boolean;
}

/** The nodes of one device and PSID (one firmware image), and the versions they run. */
export interface FirmwareGroup {
  deviceId: number | null;
  /** `Quantum-2`, `ConnectX-7`, ... when ibwatch knows the device ID. */
  device: string | null;
  /** Null when the nodes did not report one (GENERAL_INFO_SMP only, or `--skip nodes_info`). */
  psid: string | null;
  nodes: number;
  /** Nodes per tier (`leaf`, `spine`, `hca`, ...). */
  tiers: { tier: Tier | 'none'; nodes: number }[];
  /** The newest version any node of the group runs. */
  latest: string;
  /** Newest first. */
  versions: { version: string; nodes: number }[];
  /** Nodes not on `latest`, oldest version first; none when `psid` is null (images unknown). */
  stragglers: FirmwareNodeRow[];
}

/** `GET /api/firmware`: what ibdiagnet's NODES_INFO / GENERAL_INFO_SMP said of each node. */
export interface FirmwareReply {
  generatedAt: number;
  /** Time of the newest ibdiagnet run that reported firmware; null before any. */
  observedAt: number | null;
  /** Nodes with a known firmware version. */
  nodes: number;
  /** Nodes of the topology without one (never reported by an ibdiagnet run). */
  unreported: number;
  /** Groups with stragglers first, then by size. */
  groups: FirmwareGroup[];
}
