/**
 * JSON shapes of the collector's HTTP API (`/api/...`). The collector's route schemas and the
 * web app both use these types, so a change here is a change of the contract. Times are epoch
 * milliseconds (UTC); the web app formats them in the browser's time zone.
 */
import type { LinkSpeed, LinkWidth, NodeType, PhysState, PortState, SmState } from './types.ts';

export type Severity = 'critical' | 'major' | 'minor' | 'info';
export type FindingState = 'open' | 'acknowledged' | 'resolved';
export type LinkHealth = 'ok' | 'degraded' | 'errors' | 'down';
export type Tier = 'core' | 'spine' | 'leaf' | 'hca';
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

export interface FabricSummary {
  generatedAt: number;
  expectedRate: ExpectedRate;
  switches: number;
  hcas: number;
  ports: number;
  activePorts: number;
  links: number;
  degradedLinks: number;
  downLinks: number;
  portsOverThreshold: number;
  findingsBySeverity: Record<Severity, number>;
  sm: SmSummary;
  lastScans: ScanRow[];
  ncclTrend: { at: number; busbwGBs: number; collective: string; verdict: NcclVerdict }[];
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
  lastSeen: number;
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
}

export interface CounterHistoryReply {
  range: '1h' | '24h' | '7d' | '30d';
  resolution: 'sweep' | 'hour';
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
  resolvedAt: number | null;
  acknowledgedBy: string | null;
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

export interface NcclRunRow {
  id: number;
  createdAt: number;
  collective: string;
  labels: { cluster?: string; nodes?: number; gpuModel?: string; hcaCount?: number; runBy?: string };
  hosts: string[];
  ranks: number;
  ncclVersion: string | null;
  gdr: 'enabled' | 'disabled' | 'mixed' | 'unknown';
  avgBusbwGBs: number | null;
  peakBusbwGBs: number | null;
  targetGBs: number | null;
  verdict: NcclVerdict;
  regression: boolean;
  truncated: boolean;
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
  correlatedFindings: FindingRow[];
}

export interface BandwidthReport {
  from: number;
  to: number;
  runs: number;
  passed: number;
  passRate: number;
  byCollective: {
    collective: string;
    runs: number;
    passed: number;
    bestGBs: number | null;
    medianGBs: number | null;
    worstGBs: number | null;
    targetGBs: number | null;
  }[];
  topFabricIssues: { kind: string; title: string; count: number; severity: Severity }[];
}

/** `GET /api/peers`: the collectors of other fabrics (IBWATCH_PEERS), one per fabric. */
export interface PeersReply {
  self: { source: string };
  peers: { name: string; url: string }[];
}
