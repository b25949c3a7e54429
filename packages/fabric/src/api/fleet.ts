/** Peers and the fleet wall. Part of the HTTP API contract (see ../api.ts). */
import { Int, Ms, NullMs, NullText, Nullable, type Static, Str, Strings, Text, Type } from './kit.ts';
import {
  BrokenRowSchema,
  FABRIC_STATUS_WORDS,
  FabricStatusSchema,
  ScanFreshnessSchema,
  SmSummarySchema,
} from './summary.ts';

/** `GET /api/peers`: the collectors of other fabrics (IBWATCH_PEERS), one per fabric. */
export const PeersReplySchema = Type.Object({
  self: Type.Object({ source: Text() }),
  peers: Type.Array(Type.Object({ name: Text(), url: Text() })),
});
export type PeersReply = Static<typeof PeersReplySchema>;

/**
 * A fabric's word on the fleet wall: its collector's own {@link FabricStatusWord}, or why this
 * collector has none: `UNREACHABLE` (no HTTP answer: refused, timed out, no route) or `ERROR`
 * (an answer it cannot use: HTTP error, token refused, not JSON, an incompatible version).
 */
export const FleetStatusWordSchema = Str([...FABRIC_STATUS_WORDS, 'UNREACHABLE', 'ERROR']);
export type FleetStatusWord = Static<typeof FleetStatusWordSchema>;

/** What the fleet wall keeps of one fabric's `/api/summary`. */
export const FleetFabricSummarySchema = Type.Object({
  generatedAt: Ms(),
  fabricStatus: FabricStatusSchema,
  /** The first rows of its broken-now list, worst first. */
  brokenNow: Type.Array(BrokenRowSchema),
  /** Rows of the whole broken-now list. */
  brokenNowTotal: Int(),
  sm: SmSummarySchema,
  freshness: Type.Array(ScanFreshnessSchema),
  switches: Int(),
  hcas: Int(),
  links: Int(),
  degradedLinks: Int(),
  downLinks: Int(),
});
export type FleetFabricSummary = Static<typeof FleetFabricSummarySchema>;

/** One tile of the fleet wall: a fabric and what its collector said. */
export const FleetFabricSchema = Type.Object({
  /** `IBWATCH_FABRIC_NAME` for this collector's own fabric, the `IBWATCH_PEERS` name for the others. */
  name: Text(),
  /** The fabric of the collector serving the fleet wall. */
  self: Type.Boolean(),
  /** The fabric's own dashboard: the peer's URL; null for this collector (the same dashboard). */
  url: NullText(),
  word: FleetStatusWordSchema,
  /** Why, in plain words: the collector's reasons, or what went wrong asking it. */
  reasons: Strings(),
  /** When this collector last read the fabric's summary; null: not since this collector started. */
  lastOkAt: NullMs(),
  /** When it last asked. */
  checkedAt: Ms(),
  /** ibwatch version of the fabric's collector, from its `/api/health`. */
  version: NullText(),
  /** The last summary read; as of `lastOkAt` when `stale`. */
  summary: Nullable(FleetFabricSummarySchema),
  /** The last request failed: `summary` is what the fabric's collector said before. */
  stale: Type.Boolean(),
});
export type FleetFabric = Static<typeof FleetFabricSchema>;

/** `GET /api/fleet`: every fabric of `IBWATCH_PEERS` and this collector's own, sorted by name. */
export const FleetReplySchema = Type.Object({
  generatedAt: Ms(),
  /** The worst of the fabrics' words (OK < DEGRADED < STALE < ERROR < UNREACHABLE < CRITICAL). */
  word: FleetStatusWordSchema,
  /** One line per fabric that is not OK, worst first: `plane-2: CRITICAL - no master SM`. */
  reasons: Strings(),
  fabrics: Type.Array(FleetFabricSchema),
});
export type FleetReply = Static<typeof FleetReplySchema>;
