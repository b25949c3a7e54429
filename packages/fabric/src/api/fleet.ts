/** Peers and the fleet wall. Part of the HTTP API contract (see ../api.ts). */
import type { BrokenRow, FabricStatus, FabricStatusWord, ScanFreshness, SmSummary } from './summary.ts';

/** `GET /api/peers`: the collectors of other fabrics (IBWATCH_PEERS), one per fabric. */
export interface PeersReply {
  self: { source: string };
  peers: { name: string; url: string }[];
}

/**
 * A fabric's word on the fleet wall: its collector's own {@link FabricStatusWord}, or why this
 * collector has none: `UNREACHABLE` (no HTTP answer: refused, timed out, no route) or `ERROR`
 * (an answer it cannot use: HTTP error, token refused, not JSON, an incompatible version).
 */
export type FleetStatusWord = FabricStatusWord | 'UNREACHABLE' | 'ERROR';

/** What the fleet wall keeps of one fabric's `/api/summary`. */
export interface FleetFabricSummary {
  generatedAt: number;
  fabricStatus: FabricStatus;
  /** The first rows of its broken-now list, worst first. */
  brokenNow: BrokenRow[];
  /** Rows of the whole broken-now list. */
  brokenNowTotal: number;
  sm: SmSummary;
  freshness: ScanFreshness[];
  switches: number;
  hcas: number;
  links: number;
  degradedLinks: number;
  downLinks: number;
}

/** One tile of the fleet wall: a fabric and what its collector said. */
export interface FleetFabric {
  /** `IBWATCH_FABRIC_NAME` for this collector's own fabric, the `IBWATCH_PEERS` name for the others. */
  name: string;
  /** The fabric of the collector serving the fleet wall. */
  self: boolean;
  /** The fabric's own dashboard: the peer's URL; null for this collector (the same dashboard). */
  url: string | null;
  word: FleetStatusWord;
  /** Why, in plain words: the collector's reasons, or what went wrong asking it. */
  reasons: string[];
  /** When this collector last read the fabric's summary; null: not since this collector started. */
  lastOkAt: number | null;
  /** When it last asked. */
  checkedAt: number;
  /** ibwatch version of the fabric's collector, from its `/api/health`. */
  version: string | null;
  /** The last summary read; as of `lastOkAt` when `stale`. */
  summary: FleetFabricSummary | null;
  /** The last request failed: `summary` is what the fabric's collector said before. */
  stale: boolean;
}

/** `GET /api/fleet`: every fabric of `IBWATCH_PEERS` and this collector's own, sorted by name. */
export interface FleetReply {
  generatedAt: number;
  /** The worst of the fabrics' words (OK < DEGRADED < STALE < ERROR < UNREACHABLE < CRITICAL). */
  word: FleetStatusWord;
  /** One line per fabric that is not OK, worst first: `plane-2: CRITICAL - no master SM`. */
  reasons: string[];
  fabrics: FleetFabric[];
}
