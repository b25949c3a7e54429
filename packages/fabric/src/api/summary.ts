/**
 * The overview: fabric status, subnet managers in one word, broken and fixed rows.
 * Part of the HTTP API contract (see ../api.ts).
 */
import { Int, Ms, NullMs, NullText, type Static, Str, Strings, Text, Type } from './kit.ts';
import { ExpectedRateSchema, FindingStateSchema, ScanKindSchema, ScanRowSchema, SeveritySchema } from './common.ts';
import { NcclRunScopeSchema, NcclVerdictSchema } from './nccl-vocab.ts';
import { LinkEndSchema } from './topology.ts';

/**
 * The subnet managers in one word, worst first: `split-brain` / `no-master` (critical: nothing
 * routes around a failure), `rogue` (an SM answers at a port that is not a designated SM port),
 * `no-standby` (one master and no designated STANDBY), `sm-missing` (a designated SM does not
 * answer, though a standby is left), `ok`; `unknown` before the first SM observation.
 */
export const SmStatusSchema = Str(['ok', 'no-master', 'split-brain', 'rogue', 'no-standby', 'sm-missing', 'unknown']);
export type SmStatus = Static<typeof SmStatusSchema>;

export const SmSummarySchema = Type.Object({
  status: SmStatusSchema,
  masterGuid: NullText(),
  masterName: NullText(),
  masterCount: Int(),
  /** Designated SMs in STANDBY now (a rogue standby is no standby to count on). */
  standbyCount: Int(),
  failoversLast24h: Int(),
  lastChangeAt: NullMs(),
  /** Designated SMs that do not answer now (stopped answering, or never answered). */
  missingCount: Int(),
  /** SMs answering at ports that are not designated SM ports. */
  rogueCount: Int(),
  /** Time of the latest SM observation (SM scan or ibdiagnet import); null before the first. */
  observedAt: NullMs(),
});
export type SmSummary = Static<typeof SmSummarySchema>;

/**
 * The one word a wall screen shows for the fabric. Worst wins in the order OK < DEGRADED <
 * STALE < CRITICAL: old data is never shown as OK or merely DEGRADED, but a critical condition
 * observed by a scan that is still fresh is not hidden behind STALE.
 */
export const FABRIC_STATUS_WORDS = ['OK', 'DEGRADED', 'STALE', 'CRITICAL'] as const;
export const FabricStatusWordSchema = Str(FABRIC_STATUS_WORDS);
export type FabricStatusWord = Static<typeof FabricStatusWordSchema>;

export const FabricStatusSchema = Type.Object({
  word: FabricStatusWordSchema,
  /** Why, in plain words, worst first ("1 cable broken now", "pm scans stale: ..."). Empty when OK. */
  reasons: Strings(),
});
export type FabricStatus = Static<typeof FabricStatusSchema>;

/** How current the data of one scheduled scan kind is. */
export const ScanFreshnessSchema = Type.Object({
  kind: ScanKindSchema,
  /** Expected time between two scans of this kind (from its schedule), ms. */
  intervalMs: Type.Number(),
  /**
   * `stale`: the last success is older than three intervals, or the last three attempts
   * failed; `pending`: no success yet, but the collector has not been up for three intervals.
   */
  state: Str(['fresh', 'stale', 'pending']),
  lastOkAt: NullMs(),
  /** Failed scans of this kind since its last success. */
  failuresInRow: Int(),
  lastError: NullText(),
  /** Plain words: `last success 4 min ago (every 60 s)`. */
  reason: Text(),
});
export type ScanFreshness = Static<typeof ScanFreshnessSchema>;

/**
 * One row of the wall screen's "broken now" list: a physical cable (both ends' findings
 * merged), an SM problem or a stale scan kind, as the latest scan that covered it observed.
 */
export const BrokenRowSchema = Type.Object({
  kind: Str(['cable', 'sm', 'scan']),
  /** Link key, `port:<guid>/<n>` for a port without a known link, SM subject key, or scan kind. */
  key: Text(),
  severity: SeveritySchema,
  /** What is broken: `leaf-01 port 33 ↔ spine-02 port 5`, `Subnet manager`, `pm scans`. */
  title: Text(),
  /** Why, in plain words: `width 4X->2X`, `no master SM`, `last success 5 min ago (every 60 s)`. */
  reasons: Strings(),
  /** When the condition was first observed (epoch ms). */
  since: Ms(),
  /** Someone acknowledged every finding behind the row. */
  acknowledged: Type.Boolean(),
  /** Cable ends (one when the peer is unknown); empty for other kinds. */
  ends: Type.Array(LinkEndSchema),
  /** The `linkKey` of the worklist entry for this cable, when the worklist lists it. */
  worklistKey: NullText(),
  findingIds: Type.Array(Int()),
});
export type BrokenRow = Static<typeof BrokenRowSchema>;

/** A cable or SM problem no longer observed: cleared (resolving after the clean period) or resolved. */
export const FixedRowSchema = Type.Object({
  kind: Str(['cable', 'sm']),
  key: Text(),
  title: Text(),
  reasons: Strings(),
  /** When the latest scan stopped seeing it (or when it was marked fixed). */
  clearedAt: Ms(),
  /** `resolved` once the clean period passed (or someone marked it fixed); else still open. */
  state: FindingStateSchema,
  ends: Type.Array(LinkEndSchema),
  worklistKey: NullText(),
});
export type FixedRow = Static<typeof FixedRowSchema>;

/** One scan kind the collector runs on a schedule. */
export const ScanScheduleSchema = Type.Object({
  kind: ScanKindSchema,
  /** The node-cron expression (IBWATCH_CRON_*), seconds first: `*\/15 * * * * *`. */
  cron: Text(),
  /** Expected time between two runs, ms: what {@link ScanFreshnessSchema} judges staleness by. */
  intervalMs: Type.Number(),
});
export type ScanSchedule = Static<typeof ScanScheduleSchema>;

/**
 * What the collector that writes the database scans, and how often: its IBWATCH_SOURCE and the
 * cadences of its scheduled kinds. `schedules` is empty when the source schedules nothing
 * (`import-only`): then no scan will come by itself, and views must not promise one.
 */
export const CollectorScheduleSchema = Type.Object({
  source: Str(['lab', 'diags', 'ibdiagnet', 'import-only']),
  schedules: Type.Array(ScanScheduleSchema),
  /** Plain words: `none (import-only): data comes only from imports` or `pm every 15 s, sm every 10 s`. */
  text: Text(),
  /** When that collector started (null: unknown). */
  startedAt: NullMs(),
  /**
   * `running`: the settings of the collector answering; `recorded`: what the collector that
   * wrote the database recorded at its start (`ibwatch status` reading a database);
   * `environment`: the reader's own IBWATCH_* settings, the database having no record.
   */
  from: Str(['running', 'recorded', 'environment']),
});
export type CollectorSchedule = Static<typeof CollectorScheduleSchema>;

/**
 * An event (a link went down or flapped, the master SM moved) no longer broken now: its window
 * passed, or someone acknowledged it or marked it fixed. Never a repair: nobody observed one.
 */
export const RecentEventRowSchema = Type.Object({
  kind: Str(['cable', 'sm']),
  key: Text(),
  title: Text(),
  reasons: Strings(),
  /** The worst severity among its findings. */
  severity: SeveritySchema,
  /** When it last happened (epoch ms). */
  at: Ms(),
  /** When it left "Broken now", and how. */
  endedAt: Ms(),
  how: Str(['window-ended', 'acknowledged', 'marked-fixed']),
  ends: Type.Array(LinkEndSchema),
  worklistKey: NullText(),
});
export type RecentEventRow = Static<typeof RecentEventRowSchema>;

export const FabricSummarySchema = Type.Object({
  generatedAt: Ms(),
  expectedRate: ExpectedRateSchema,
  switches: Int(),
  /** CAs that are HCAs: SHARP Aggregation Nodes (CAs inside switches) are counted apart. */
  hcas: Int(),
  aggregationNodes: Int(),
  ports: Int(),
  activePorts: Int(),
  links: Int(),
  degradedLinks: Int(),
  downLinks: Int(),
  /** Ports (or links) with a current error-rate finding; absolute counts (below) are not rates. */
  portsOverThreshold: Int(),
  /**
   * Ports with a current finding that carries no rate: error counts since the last clear on a
   * port's first snapshot, or a saturated counter (`errors-since-clear`, `counter-saturated:*`).
   */
  portsErrorsSinceClear: Int(),
  /** Of those, ports with a saturated counter (clear the counters and measure again). */
  portsSaturated: Int(),
  /**
   * Whether error rates exist: `none` before any counter snapshot, `first-snapshot` when the
   * latest one had nothing to compare with (rates from the next snapshot), else `rated`.
   */
  counterRates: Str(['none', 'first-snapshot', 'rated']),
  /** Findings whose condition the latest scan that covered them observed (open or acknowledged), by severity. */
  findingsBySeverity: Type.Object({ critical: Int(), major: Int(), minor: Int(), info: Int() }),
  /** Open or acknowledged findings no longer observed: cleared, resolving after the clean period. */
  clearedFindings: Int(),
  sm: SmSummarySchema,
  lastScans: Type.Array(ScanRowSchema),
  /**
   * Each kind with at least one completed scan or import (ok or partial) and when the latest
   * started: a view with no rows tells "no data yet" (none completed) from "checked, none found".
   */
  /** A real switch, host and rack name of this fabric (search placeholders); null where none. */
  exampleNames: Type.Object({ switch: NullText(), host: NullText(), rack: NullText() }),
  completedScans: Type.Array(Type.Object({ kind: ScanKindSchema, lastOkAt: Ms() })),
  /** Each run's headline busbw (see {@link NcclRunRow.peakBusbwGBs}) at the run's time, last 30 days. */
  ncclTrend: Type.Array(
    Type.Object({
      at: Ms(),
      busbwGBs: Type.Number(),
      collective: Text(),
      verdict: NcclVerdictSchema,
      scope: NcclRunScopeSchema,
    }),
  ),
  fabricStatus: FabricStatusSchema,
  /** Worst first. */
  brokenNow: Type.Array(BrokenRowSchema),
  /** Newest first, the last 24 h, at most 12. */
  recentlyFixed: Type.Array(FixedRowSchema),
  /** Events no longer broken now, newest first, the last 24 h, at most 12. */
  recentEvents: Type.Array(RecentEventRowSchema),
  /** Scheduled scan kinds only (a source that runs no tools has none). */
  freshness: Type.Array(ScanFreshnessSchema),
  /** The source and the cadences the freshness above is judged by. */
  collector: CollectorScheduleSchema,
});
export type FabricSummary = Static<typeof FabricSummarySchema>;
