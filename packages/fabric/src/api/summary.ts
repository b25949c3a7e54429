/**
 * The overview: fabric status, subnet managers in one word, broken and fixed rows.
 * Part of the HTTP API contract (see ../api.ts).
 */
import type { ExpectedRate, FindingState, ScanKind, ScanRow, Severity } from './common.ts';
import type { NcclRunScope, NcclVerdict } from './nccl.ts';
import type { LinkEnd } from './topology.ts';

/**
 * The subnet managers in one word, worst first: `split-brain` / `no-master` (critical: nothing
 * routes around a failure), `rogue` (an SM answers at a port that is not a designated SM port),
 * `no-standby` (one master and no designated STANDBY), `sm-missing` (a designated SM does not
 * answer, though a standby is left), `ok`; `unknown` before the first SM observation.
 */
export type SmStatus = 'ok' | 'no-master' | 'split-brain' | 'rogue' | 'no-standby' | 'sm-missing' | 'unknown';

export interface SmSummary {
  status: SmStatus;
  masterGuid: string | null;
  masterName: string | null;
  masterCount: number;
  /** Designated SMs in STANDBY now (a rogue standby is no standby to count on). */
  standbyCount: number;
  failoversLast24h: number;
  lastChangeAt: number | null;
  /** Designated SMs that do not answer now (stopped answering, or never answered). */
  missingCount: number;
  /** SMs answering at ports that are not designated SM ports. */
  rogueCount: number;
  /** Time of the latest SM observation (SM scan or ibdiagnet import); null before the first. */
  observedAt: number | null;
}

/**
 * The one word a wall screen shows for the fabric. Worst wins in the order OK < DEGRADED <
 * STALE < CRITICAL: old data is never shown as OK or merely DEGRADED, but a critical condition
 * observed by a scan that is still fresh is not hidden behind STALE.
 */
export type FabricStatusWord = 'OK' | 'DEGRADED' | 'STALE' | 'CRITICAL';

export interface FabricStatus {
  word: FabricStatusWord;
  /** Why, in plain words, worst first ("1 cable broken now", "pm scans stale: ..."). Empty when OK. */
  reasons: string[];
}

/** How current the data of one scheduled scan kind is. */
export interface ScanFreshness {
  kind: ScanKind;
  /** Expected time between two scans of this kind (from its schedule), ms. */
  intervalMs: number;
  /**
   * `stale`: the last success is older than three intervals, or the last three attempts
   * failed; `pending`: no success yet, but the collector has not been up for three intervals.
   */
  state: 'fresh' | 'stale' | 'pending';
  lastOkAt: number | null;
  /** Failed scans of this kind since its last success. */
  failuresInRow: number;
  lastError: string | null;
  /** Plain words: `last success 4 min ago (every 60 s)`. */
  reason: string;
}

/**
 * One row of the wall screen's "broken now" list: a physical cable (both ends' findings
 * merged), an SM problem or a stale scan kind, as the latest scan that covered it observed.
 */
export interface BrokenRow {
  kind: 'cable' | 'sm' | 'scan';
  /** Link key, `port:<guid>/<n>` for a port without a known link, SM subject key, or scan kind. */
  key: string;
  severity: Severity;
  /** What is broken: `leaf-01 port 33 ↔ spine-02 port 5`, `Subnet manager`, `pm scans`. */
  title: string;
  /** Why, in plain words: `width 4X->2X`, `no master SM`, `last success 5 min ago (every 60 s)`. */
  reasons: string[];
  /** When the condition was first observed (epoch ms). */
  since: number;
  /** Someone acknowledged every finding behind the row. */
  acknowledged: boolean;
  /** Cable ends (one when the peer is unknown); empty for other kinds. */
  ends: LinkEnd[];
  /** The `linkKey` of the worklist entry for this cable, when the worklist lists it. */
  worklistKey: string | null;
  findingIds: number[];
}

/** A cable or SM problem no longer observed: cleared (resolving after the clean period) or resolved. */
export interface FixedRow {
  kind: 'cable' | 'sm';
  key: string;
  title: string;
  reasons: string[];
  /** When the latest scan stopped seeing it (or when it was marked fixed). */
  clearedAt: number;
  /** `resolved` once the clean period passed (or someone marked it fixed); else still open. */
  state: FindingState;
  ends: LinkEnd[];
  worklistKey: string | null;
}

export interface FabricSummary {
  generatedAt: number;
  expectedRate: ExpectedRate;
  switches: number;
  /** CAs that are HCAs: SHARP Aggregation Nodes (CAs inside switches) are counted apart. */
  hcas: number;
  aggregationNodes: number;
  ports: number;
  activePorts: number;
  links: number;
  degradedLinks: number;
  downLinks: number;
  portsOverThreshold: number;
  /** Findings whose condition the latest scan that covered them observed (open or acknowledged), by severity. */
  findingsBySeverity: Record<Severity, number>;
  /** Open or acknowledged findings no longer observed: cleared, resolving after the clean period. */
  clearedFindings: number;
  sm: SmSummary;
  lastScans: ScanRow[];
  /** Each run's headline busbw (see {@link NcclRunRow.peakBusbwGBs}) at the run's time, last 30 days. */
  ncclTrend: { at: number; busbwGBs: number; collective: string; verdict: NcclVerdict; scope: NcclRunScope }[];
  fabricStatus: FabricStatus;
  /** Worst first. */
  brokenNow: BrokenRow[];
  /** Newest first, the last 24 h, at most 12. */
  recentlyFixed: FixedRow[];
  /** Scheduled scan kinds only (a source that runs no tools has none). */
  freshness: ScanFreshness[];
}
