/**
 * JSON shapes of the collector's HTTP API (`/api/...`). The collector's route schemas and the
 * web app both use these types, so a change here is a change of the contract. Times are epoch
 * milliseconds (UTC); the web app formats them in the browser's time zone.
 */
import type { LinkSpeed, LinkWidth, NodeType, PhysState, PortState, SmState } from './types.ts';

export type Severity = 'critical' | 'major' | 'minor' | 'info';
export type FindingState = 'open' | 'acknowledged' | 'resolved';
export type LinkHealth = 'ok' | 'degraded' | 'errors' | 'down';
/**
 * Where a node sits in the fat tree. `aggregation`: a SHARP Aggregation Node, the CA inside a
 * Quantum switch that reduces in-network (one per managed NDR switch, on its port 65).
 * `unknown`: reached from no HCA (an isolated switch, a router), so no tier can be inferred.
 */
export type Tier = 'core' | 'spine' | 'leaf' | 'hca' | 'aggregation' | 'unknown';
export type ScanKind = 'pm' | 'sm' | 'topology' | 'ibdiagnet' | 'import-ibdiagnet' | 'import-nccl';
export type ScanStatus = 'running' | 'ok' | 'partial' | 'failed';

export interface ExpectedRate {
  width: LinkWidth;
  speed: LinkSpeed;
}

export interface HealthReply {
  status: 'ok';
  version: string;
  source: string;
  uptimeS: number;
}

export interface ScanRow {
  id: number;
  kind: ScanKind;
  trigger: 'schedule' | 'api' | 'cli' | 'startup';
  status: ScanStatus;
  startedAt: number;
  finishedAt: number | null;
  durationMs: number | null;
  error: string | null;
  warnings: string[];
  toolVersions: Record<string, string>;
  summary: Record<string, number | string>;
}

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

export interface TopoNode {
  guid: string;
  name: string;
  type: NodeType;
  tier: Tier;
  rail: number | null;
  rack: string | null;
  lid: number | null;
  /** Host name for HCAs (`dgx-0042` of `dgx-0042 mlx5_3`). */
  host: string | null;
}

export interface LinkEnd {
  guid: string;
  name: string;
  port: number;
  lid: number | null;
  rack: string | null;
  /** Rack unit from the node-name map (`# rack=R07 u=12`), where the reply knows it (worklist). */
  u?: number | null;
}

export interface TopoLink {
  id: number;
  a: LinkEnd;
  b: LinkEnd;
  tier: 'hca-leaf' | 'leaf-spine' | 'spine-core' | 'other';
  health: LinkHealth;
  widthActive: LinkWidth | null;
  speedActive: LinkSpeed | null;
  /** Plain-words reason when health is not ok. */
  reason: string | null;
}

export interface TopologyReply {
  generatedAt: number;
  nodes: TopoNode[];
  links: TopoLink[];
}

export interface PortRow {
  guid: string;
  port: number;
  name: string;
  lid: number | null;
  state: PortState | null;
  physState: PhysState | null;
  widthActive: LinkWidth | null;
  speedActive: LinkSpeed | null;
  remote: LinkEnd | null;
  openFindings: number;
  /** When a topology scan last saw this port: its state and rate are as of then. */
  lastSeen: number;
  /**
   * The latest topology scan did not see the port (its node became unreachable, e.g. the HCA of
   * a cable that went dark): state, rate and remote end are the last known ones, as of `lastSeen`.
   */
  stale: boolean;
  /** Never part of a link: an uncabled port (Down/Polling since it was first seen), not a link that went down. */
  unused: boolean;
  /** Where a port that lost its link was last connected (`remote` is then null), and when it was last seen so. */
  lastRemote: (LinkEnd & { lastSeen: number }) | null;
}

export interface PortsReply {
  total: number;
  items: PortRow[];
}

export interface CounterPoint {
  at: number;
  counter: string;
  delta: number;
  /** Per second over the interval that ended at `at`. */
  rate: number;
}

export interface StateChange {
  at: number;
  state: PortState | null;
  physState: PhysState | null;
  widthActive: LinkWidth | null;
  speedActive: LinkSpeed | null;
}

export interface PortDetailReply {
  port: PortRow & {
    widthEnabled: LinkWidth[];
    widthSupported: LinkWidth[];
    speedEnabled: LinkSpeed[];
    speedSupported: LinkSpeed[];
    rack: string | null;
  };
  expected: ExpectedRate;
  cable: { vendor?: string; partNumber?: string; serialNumber?: string; lengthM?: number } | null;
  findings: FindingRow[];
  /** Health of the port's link (or of the port alone) as the latest scans observed it. */
  health: LinkHealth;
  /** The worst current finding's short reason when health is not ok. */
  healthReason: string | null;
}

export interface CounterHistoryReply {
  range: '1h' | '24h' | '7d' | '30d';
  resolution: 'sweep' | 'hour';
  /**
   * Start of what the points can cover: the later of the range's start and the port's first
   * observation. Before it there is no data (not zero errors); charts start here.
   */
  observedFrom: number;
  points: CounterPoint[];
  /** Per-counter thresholds as rates per second, drawn on the charts. */
  thresholds: Record<string, number>;
  stateChanges: StateChange[];
}

export interface FindingRow {
  id: number;
  kind: string;
  severity: Severity;
  state: FindingState;
  subjectType: 'port' | 'link' | 'sm' | 'run' | 'fabric';
  subjectKey: string;
  title: string;
  evidence: Record<string, unknown>;
  firstSeen: number;
  lastSeen: number;
  /**
   * When the first scan evaluating this kind no longer saw the condition; null while the latest
   * one still sees it. A cleared finding is not broken now; it resolves after the clean period.
   */
  clearedAt: number | null;
  resolvedAt: number | null;
  acknowledgedBy: string | null;
}

/**
 * One step of a finding's history. `event` is `opened`, `cleared` (no longer observed),
 * `observed-again`, `acknowledged` or `resolved` (through the API), or `auto-resolved` (stayed
 * cleared for IBWATCH_AUTO_RESOLVE_MIN); the collector may add other lifecycle steps, so render
 * an unknown one as it is. `by` is the name of the token that
 * made an API change (IBWATCH_TOKENS), null for the collector's own; `note` is the reason given.
 */
export interface FindingEvent {
  at: number;
  event: string;
  by: string | null;
  note: string | null;
}

/** `GET /api/findings/:id`, and the reply of acknowledge and resolve: the finding with its history, oldest first. */
export interface FindingDetail extends FindingRow {
  history: FindingEvent[];
}

/** `GET /api/whoami`: the name of the bearer token sent, null without a valid one. */
export interface WhoamiReply {
  name: string | null;
}

export interface WorklistEntry {
  rank: number;
  findingIds: number[];
  linkKey: string;
  severity: Severity;
  state: FindingState;
  a: LinkEnd;
  b: LinkEnd | null;
  reasons: string[];
  action: string;
  cable: string | null;
  firstSeen: number;
  lastSeen: number;
  /** Set when no finding of the entry is observed any more (cleared at, latest of them); null while one is. */
  clearedAt: number | null;
}

/**
 * One subnet manager ibwatch knows: every SM seen at some time, and every designated one. State,
 * priority, LID and activity count are as last seen; `answering` says whether the latest SM
 * observation saw it (false: "not seen since `lastSeen`").
 */
export interface SmRow {
  /** Port GUID, as SMInfo reports it. */
  guid: string;
  lid: number | null;
  /** Node name (node-name map, else NodeDescription) of the SM's port. */
  name: string | null;
  priority: number;
  state: SmState;
  activityCount: string | null;
  lastSeen: number;
  firstSeen: number;
  answering: boolean;
  /** At a designated SM port (IBWATCH_SM_GUIDS, or learned); false = rogue. */
  designated: boolean;
  nodeGuid: string | null;
  portNum: number | null;
  /** Host of an HCA (`dgx-0042` of `dgx-0042 mlx5_3`); null for a switch or an unknown port. */
  host: string | null;
  rack: string | null;
}

export interface SmEventRow {
  id: number;
  at: number;
  /**
   * One row per failover: the takeover's state changes, the old master's silence and any
   * "no master" in between are folded into it. `standby-lost` is the name rows written before
   * `not-seen` existed carry.
   */
  kind:
    | 'failover'
    | 'split-brain'
    | 'no-master'
    | 'standby-lost'
    | 'not-seen'
    | 'seen-again'
    | 'rogue'
    | 'learned'
    | 'priority'
    | 'state-change'
    | 'recovered';
  fromGuid: string | null;
  toGuid: string | null;
  /** Names of the two SMs, as known now. */
  fromName: string | null;
  toName: string | null;
  /** A failover happened after this time (the last observation of the old master) and before `at`. */
  after: number | null;
  detail: string;
}

/** Where the designated SM ports come from, and which of them never answered. */
export interface SmDesignation {
  /** `config`: IBWATCH_SM_GUIDS; `learned`: the SMs seen by an SM scan; `none`: no SM seen yet. */
  source: 'config' | 'learned' | 'none';
  /** Port GUIDs (IBWATCH_SM_GUIDS may also name node GUIDs). */
  guids: string[];
  /** When the list was learned (source `learned`). */
  learnedAt: number | null;
  /** A re-learn was asked for: the next SM observation that sees an SM sets the list. */
  relearnPending: boolean;
  /** Designated GUIDs no SM has ever answered from. */
  neverSeen: string[];
}

export interface SmReply {
  summary: SmSummary;
  sms: SmRow[];
  events: SmEventRow[];
  designation: SmDesignation;
  /** The latest SM scan (any status): a failed one means what is shown is older. */
  lastScan: ScanRow | null;
}

/** Answer to `POST /api/sms/relearn`. */
export interface SmRelearnReply {
  designation: SmDesignation;
  /** The SM scan run to learn from (null where this source runs no SM scans). */
  scan: ScanRow | null;
}

export type NcclVerdict = 'pass' | 'fail' | 'host-memory-fallback' | 'unknown';

/** One host (NVLink only) or several (over the fabric); null when the log and labels do not say. */
export type NcclRunScope = 'single-node' | 'multi-node' | null;

export interface NcclRunRow {
  id: number;
  /** When it was imported. */
  createdAt: number;
  /** When the run happened: the uploader's startedAt, else its finishedAt, else the import time. */
  at: number;
  /** The window fabric findings are matched in (given with the upload, else the hour before it). */
  startedAt: number;
  finishedAt: number;
  collective: string;
  labels: {
    cluster?: string;
    nodes?: number;
    gpuModel?: string;
    hcaCount?: number;
    runBy?: string;
    /** Sample data (the demo's history), not measured on this fabric. */
    demo?: boolean;
  };
  hosts: string[];
  /** Hosts the run spanned: its rank lines' hosts, else the `nodes` label; null when unknown. */
  nodes: number | null;
  scope: NcclRunScope;
  ranks: number;
  ncclVersion: string | null;
  gdr: 'enabled' | 'disabled' | 'mixed' | 'unknown';
  /** nccl-tests' `# Avg bus bandwidth`: the mean over every size and both placements, small ones included. */
  avgBusbwGBs: number | null;
  /**
   * The run's headline figure: the peak busbw at large messages (>= 1 GiB, else the largest
   * size), what nccl-tests users quote and what the verdict, report, charts and /metrics use.
   */
  peakBusbwGBs: number | null;
  /** Message size of the row {@link peakBusbwGBs} comes from. */
  peakSizeBytes: number | null;
  /** Target for the run's collective and scope; null when none applies. */
  targetGBs: number | null;
  verdict: NcclVerdict;
  regression: boolean;
  truncated: boolean;
  /** Warnings of its import: rows refused (not finite, implausible, repeated), labels contradicting the log. */
  importWarnings: number;
}

/** What part of the fabric a run's findings were matched on (see `runFabricScope`). */
export interface NcclCorrelation {
  from: number;
  to: number;
  /** The run's hosts found in the topology, with their HCA count. */
  hosts: { host: string; hcas: number }[];
  /** The run's hosts with no HCA in the topology. */
  unmatchedHosts: string[];
  links: number;
  switches: number;
  /** Switch tiers the run's paths reach (`leaf`, `spine`, `core`). */
  tiers: string[];
}

export interface NcclRunDetailReply {
  run: NcclRunRow;
  rows: {
    sizeBytes: number;
    type: string;
    redop: string | null;
    outOfPlace: { timeUs: number | null; algbwGBs: number | null; busbwGBs: number | null; wrong: number | null };
    inPlace: { timeUs: number | null; algbwGBs: number | null; busbwGBs: number | null; wrong: number | null };
  }[];
  gdrEvidence: string[];
  /**
   * The run's own findings (subjectType `run`), findings open during its window on its hosts'
   * links and the switches above them, and fabric-wide SM findings of that window.
   */
  correlatedFindings: FindingRow[];
  correlation: NcclCorrelation;
  importWarnings: string[];
}

/** The period report: every figure is a run's headline busbw ({@link NcclRunRow.peakBusbwGBs}). */
export interface BandwidthReport {
  from: number;
  to: number;
  runs: number;
  /** Runs with a target for their collective and scope: the pass rate counts only these. */
  withTarget: number;
  passed: number;
  /** passed / withTarget; null when no run had a target. */
  passRate: number | null;
  byCollective: {
    collective: string;
    scope: NcclRunScope;
    runs: number;
    withTarget: number;
    passed: number;
    bestGBs: number | null;
    medianGBs: number | null;
    worstGBs: number | null;
    targetGBs: number | null;
  }[];
  /** Findings open in the period anywhere in the fabric, by kind. */
  topFabricIssues: { kind: string; title: string; count: number; severity: Severity }[];
}

/** `GET /api/peers`: the collectors of other fabrics (IBWATCH_PEERS), one per fabric. */
export interface PeersReply {
  self: { source: string };
  peers: { name: string; url: string }[];
}

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
